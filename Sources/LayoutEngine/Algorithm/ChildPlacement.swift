// The extension point for containers whose children are not placed by flexbox (for example a
// constraint solver): such a node has `.custom` content, so the engine sizes it like a
// measured leaf through `LayoutTree.measureFunction`; when it is laid out, the engine asks
// `LayoutTree.childPlacementFunction` for its children's frames and lays each child out at
// exactly that size and place.

/// Frames for the children of a `.custom` node, given its ID and inner size (inside padding
/// and border), in the order of its children; positions are relative to the content box.
/// Return nil to leave the children unplaced (they get empty frames). Must not touch the tree.
public typealias ChildPlacementFunction = (NodeID, Size) -> [Frame]?

extension LayoutPass {
    /// Lays out the children of a measured node at the frames the placement hook returns; other
    /// measured nodes' children (Yoga forbids them) get empty frames.
    func placeChildrenOfMeasuredNode(_ node: Int, _ direction: Direction, _ depth: Int) {
        let l = layouts[node]
        let innerWidth = l.measuredWidth - l.padding.left - l.padding.right - l.border.left - l.border.right
        let innerHeight = l.measuredHeight - l.padding.top - l.padding.bottom - l.border.top - l.border.bottom
        var frames: [Frame]? = nil
        let inner = Size(width: max(0, innerWidth), height: max(0, innerHeight))
        if case .custom = contents[node] {
            frames = childPlacementFunction?(NodeID(node), inner)
        } else if case .constraints(let container) = contents[node] {
            frames = constraintChildFrames(node, container, inner)
        }
        let originX = l.padding.left + l.border.left
        let originY = l.padding.top + l.border.top
        var index = 0
        var c = Int(firstChildren[node].index)
        while c >= 0 {
            defer {
                c = Int(nextSiblings[c].index)
                index += 1
            }
            guard let frames, index < frames.count, styles[c].display != .none,
                  frames[index].width.isFinite, frames[index].height.isFinite,
                  frames[index].left.isFinite, frames[index].top.isFinite else {
                zeroOutLayoutRecursively(c)
                continue
            }
            let f = frames[index]
            let marginRow = marginForAxis(c, .row, innerWidth)
            let marginColumn = marginForAxis(c, .column, innerWidth)
            calculateLayoutInternal(c, max(0, f.width) + marginRow, max(0, f.height) + marginColumn, direction,
                                    .stretchFit, .stretchFit, innerWidth, innerHeight, true, depth)
            layouts[c].position = EdgeValues()
            layouts[c].position.left = originX + f.left
            layouts[c].position.top = originY + f.top
        }
    }
}
