enum LayoutServerPlaceholder {}
