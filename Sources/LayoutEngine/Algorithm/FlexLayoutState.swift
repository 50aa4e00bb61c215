// The state the steps of the flex algorithm hand each other (see FlexLayout.swift): what the
// container resolves before its items are placed, and the running totals over its lines.
// Plain values, built once per container layout on the stack. The container is immutable
// once step 3 has settled it, so the steps borrow it without a copy; what changes line by
// line lives in `FlexLine` and `FlexLineTotals`.

/// What one layout call asks of a node (Yoga's `calculateLayoutImpl` arguments), with the
/// offered size already less the node's own margins.
struct LayoutInput {
    let node: Int
    /// The size offered to the node's border box (NaN when unknown), and how to read it.
    let availableWidth: Float
    let availableHeight: Float
    let widthMode: SizingMode
    let heightMode: SizingMode
    /// What percentages resolve against: the owner's inner size.
    let ownerWidth: Float
    let ownerHeight: Float
    let ownerDirection: Direction
    /// Lay out the children (true) or only measure the node (false).
    let performLayout: Bool
    let depth: Int
}

/// One flex container as steps 1–3 resolve it: its axes, the box its items are laid out in and
/// the sizing modes it was offered. Sizes are border-box sizes without the container's margins.
struct FlexContainer {
    /// The layout call, as the container was asked.
    let input: LayoutInput
    /// The container's first layout child (-1 without one).
    let firstChild: Int
    let direction: Direction
    let mainAxis: FlexDirection
    let crossAxis: FlexDirection
    /// `flex-wrap` is `wrap` or `wrap-reverse`.
    let isWrap: Bool

    let paddingAndBorderMain: Float
    let paddingAndBorderCross: Float
    /// Padding plus border on the container's cross-start edge: where the first line starts.
    let leadingPaddingAndBorderCross: Float

    /// §9.2 step 2: the space inside padding and border, clamped by min/max (NaN when unknown).
    let availableInnerWidth: Float
    let availableInnerHeight: Float
    /// The main space the items flex into, as step 2 finds it. Without a definite main size
    /// Yoga narrows it line by line (`FlexLine.availableInnerMainDim`). Step 3 widens it for a
    /// wrapping container whose widest text item is wider (`grewToMinContent`).
    var availableInnerMainDim: Float
    let availableInnerCrossDim: Float

    /// The sizing modes offered on each axis. The main mode turns from fit-content into
    /// stretch-fit when a wrapping container's items overflow it (§9.2 step 3, as Yoga does).
    var mainMode: SizingMode
    let crossMode: SizingMode
    /// The items' outer flex bases (plus gaps) exceed the definite available main space.
    var mainAxisOverflows = false
    /// Step 3 widened `availableInnerMainDim` to the container's min-content size, which is
    /// then its main size.
    var grewToMinContent = false
    /// The container holds an item sized by `FlexItemSizing.css` (text), so it lays out all
    /// its items as CSS does: max-content flex bases, automatic minimums (§4.5), §9.7 as the
    /// spec runs it and min-content contributions for a fit-content size. Set by step 3.
    var laysOutLikeCSS = false

    @inline(__always) var node: Int { input.node }
    /// Yoga counts main-axis auto margins under the owner's direction when it collects lines.
    @inline(__always) var ownerDirection: Direction { input.ownerDirection }
    @inline(__always) var ownerWidth: Float { input.ownerWidth }
    @inline(__always) var ownerHeight: Float { input.ownerHeight }
    @inline(__always) var performLayout: Bool { input.performLayout }
    @inline(__always) var depth: Int { input.depth }
    @inline(__always) var isMainAxisRow: Bool { mainAxis.isRow }
    @inline(__always) var mainAxisOwnerSize: Float { mainAxis.isRow ? ownerWidth : ownerHeight }
    @inline(__always) var crossAxisOwnerSize: Float { mainAxis.isRow ? ownerHeight : ownerWidth }
    @inline(__always) var paddingAndBorderRow: Float { mainAxis.isRow ? paddingAndBorderMain : paddingAndBorderCross }
    @inline(__always) var paddingAndBorderColumn: Float { mainAxis.isRow ? paddingAndBorderCross : paddingAndBorderMain }
    /// The sizing modes per physical axis, after step 3 may have changed the main one.
    @inline(__always) var widthMode: SizingMode { mainAxis.isRow ? mainMode : crossMode }
    @inline(__always) var heightMode: SizingMode { mainAxis.isRow ? crossMode : mainMode }
    /// When only measuring with an imposed cross size, the items need not be flexed: the line's
    /// main size comes from the flex bases.
    @inline(__always) var canSkipFlex: Bool { !performLayout && crossMode == .stretchFit }
}

/// The running totals over a container's flex lines, as the per-line steps add them up.
struct FlexLineTotals {
    /// The gap between two lines (`row-gap` or `column-gap` on the cross axis).
    let crossGap: Float
    /// The main space the next line starts from: the last line's narrowed space (Yoga's
    /// `availableInnerMainDim` carries over from line to line).
    var availableInnerMainDim: Float
    /// The lines laid out so far.
    var count = 0
    /// The sum of the lines' cross sizes plus the gaps between them.
    var crossDim: Float = 0
    /// The largest line main size, padding and border included.
    var maxMainDim: Float = 0

    init(crossGap: Float, availableInnerMainDim: Float) {
        self.crossGap = crossGap
        self.availableInnerMainDim = availableInnerMainDim
    }

    /// Counts in a finished line.
    @inline(__always) mutating func add(_ line: FlexLine) {
        let appliedCrossGap: Float = count != 0 ? crossGap : 0
        crossDim += line.crossDim + appliedCrossGap
        maxMainDim = maxOrDefined(maxMainDim, line.mainDim)
        availableInnerMainDim = line.availableInnerMainDim
        count += 1
    }
}
