enum LayoutWirePlaceholder {}
