@testable import LayoutEngine

// Shared helpers for the constraint-layout tests.

/// Whether a solved frame equals (x, y, w, h) within 0.01.
func frameIs(_ f: Frame, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Bool {
    abs(Double(f.left) - x) <= 0.01 && abs(Double(f.top) - y) <= 0.01
        && abs(Double(f.width) - w) <= 0.01 && abs(Double(f.height) - h) <= 0.01
}

/// A label-like item with an intrinsic size.
func label(_ name: String, _ w: Double, _ h: Double) -> ConstraintItem {
    ConstraintItem(name: name, intrinsicWidth: w, intrinsicHeight: h)
}

/// A plain view without intrinsic size.
func plainView(_ name: String) -> ConstraintItem { ConstraintItem(name: name) }
