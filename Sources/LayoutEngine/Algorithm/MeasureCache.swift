// Skipping redundant work: the per-node layout entry and measurement cache (Yoga's
// calculateLayoutInternal and Cache.cpp).

extension LayoutPass {
    /// Lays out or measures `n` unless a cached result for the same constraints exists.
    /// Returns true when the node was actually computed.
    @discardableResult
    func calculateLayoutInternal(_ n: Int, _ availableWidth: Float, _ availableHeight: Float,
                                 _ ownerDirection: Direction,
                                 _ widthMode: SizingMode, _ heightMode: SizingMode,
                                 _ ownerWidth: Float, _ ownerHeight: Float,
                                 _ performLayout: Bool, _ depthIn: Int) -> Bool {
        let l = layouts + n
        let depth = depthIn + 1
        if let logs = requestLogs, let states = requestLogStates,
           replayRequest(n, availableWidth, availableHeight, ownerDirection, widthMode, heightMode, ownerWidth,
                         ownerHeight, performLayout, depthIn, states, logs) {
            return false
        }
        let needToVisitNode = (l.pointee.isDirty && l.pointee.generationCount != generation)
            || l.pointee.configVersion != configVersion
            || l.pointee.lastOwnerDirection != ownerDirection

        if needToVisitNode { forgetAnswers(n) }

        // -1: none; 8: the layout entry; 0..<8: a measurement entry.
        var cached = -1
        let entries = caches + n * maxCachedMeasurements
        let count = Int(l.pointee.nextCachedMeasurementsIndex)
        if hasMeasureFunc(n) && !(performLayout && firstChildren[n].index >= 0) {
            let marginRow = marginForAxis(n, .row, ownerWidth)
            let marginColumn = marginForAxis(n, .column, ownerWidth)
            if usable(l.pointee.cachedLayout, availableWidth, availableHeight, widthMode, heightMode, ownerWidth, ownerHeight)
                && canUseCachedMeasurement(widthMode, availableWidth, heightMode, availableHeight,
                                           l.pointee.cachedLayout, marginRow, marginColumn) {
                cached = maxCachedMeasurements
            } else {
                for i in 0..<count where usable(entries[i], availableWidth, availableHeight, widthMode, heightMode,
                                                 ownerWidth, ownerHeight)
                    && canUseCachedMeasurement(widthMode, availableWidth, heightMode, availableHeight,
                                               entries[i], marginRow, marginColumn) {
                    cached = i
                    break
                }
            }
        } else if performLayout {
            let c = l.pointee.cachedLayout
            if c.matchesExactly(availableWidth, availableHeight, widthMode, heightMode)
                && (c.generation == generation || (inexactEquals(c.ownerWidth, ownerWidth) && inexactEquals(c.ownerHeight, ownerHeight))) {
                cached = maxCachedMeasurements
            }
        } else {
            for i in 0..<count {
                let c = entries[i]
                if c.matchesExactly(availableWidth, availableHeight, widthMode, heightMode)
                    && (c.generation == generation || (inexactEquals(c.ownerWidth, ownerWidth) && inexactEquals(c.ownerHeight, ownerHeight))) {
                    cached = i
                    break
                }
            }
        }

        var logged: LoggedRequest.Kind = performLayout ? .performLayout : []
        if !needToVisitNode && cached >= 0 {
            let c = cached == maxCachedMeasurements ? l.pointee.cachedLayout : entries[cached]
            l.pointee.measuredWidth = c.computedWidth
            l.pointee.measuredHeight = c.computedHeight
        } else {
            // Or copies an equal subtree's result (SubtreeMemo.swift).
            calculateLayoutImplOrCopy(n, availableWidth, availableHeight, ownerDirection, widthMode, heightMode,
                                      ownerWidth, ownerHeight, performLayout, depth)
            l.pointee.lastOwnerDirection = ownerDirection
            l.pointee.configVersion = configVersion

            if cached < 0 {
                let entry = CacheEntry(availableWidth, availableHeight, widthMode, heightMode,
                                       computed: l.pointee.measuredWidth, l.pointee.measuredHeight,
                                       owner: ownerWidth, ownerHeight, generation: generation)
                if performLayout {
                    l.pointee.cachedLayout = entry
                    logged.insert(.storedLayout)
                } else {
                    logged.insert(.storedMeasurement)
                    storeMeasurement(entry, of: n)
                }
            }
        }

        if performLayout {
            l.pointee.width = l.pointee.measuredWidth
            l.pointee.height = l.pointee.measuredHeight
            l.pointee.isDirty = false
        }
        l.pointee.generationCount = generation
        if let logs = requestLogs, let states = requestLogStates {
            logRequest(n, availableWidth, availableHeight, ownerDirection, widthMode, heightMode, ownerWidth, ownerHeight,
                       logged, states, logs)
        }
        return needToVisitNode || cached < 0
    }

    /// Forgets every answer `n` stored: its layout entry and its measurement entries.
    @inline(__always) func forgetAnswers(_ n: Int) {
        layouts[n].nextCachedMeasurementsIndex = 0
        layouts[n].cachedLayout = CacheEntry()
    }

    /// Stores a measurement of `n` in its ring of entries, over the oldest when the ring is full.
    @inline(__always) func storeMeasurement(_ entry: CacheEntry, of n: Int) {
        let l = layouts + n
        var index = Int(l.pointee.nextCachedMeasurementsIndex)
        if index == maxCachedMeasurements { index = 0 }
        caches[n * maxCachedMeasurements + index] = entry
        l.pointee.nextCachedMeasurementsIndex = UInt8(index + 1)
    }

    /// An entry from this layout call follows Yoga's rules; one from an earlier call must have
    /// been made for exactly the same constraints and owner sizes.
    @inline(__always) func usable(_ c: CacheEntry, _ availableWidth: Float, _ availableHeight: Float,
                                  _ widthMode: SizingMode, _ heightMode: SizingMode,
                                  _ ownerWidth: Float, _ ownerHeight: Float) -> Bool {
        c.generation == generation
            || (c.matchesExactly(availableWidth, availableHeight, widthMode, heightMode)
                && inexactEquals(c.ownerWidth, ownerWidth) && inexactEquals(c.ownerHeight, ownerHeight))
    }

    /// Yoga's `canUseCachedMeasurement`: same constraints, or constraints the old result
    /// still satisfies. As in Yoga (yoga/algorithm/Cache.cpp: `newSizeIsStricterAndStillValid(
    /// heightMode, adjustedHeight, lastHeightMode, lastAvailableHeight, lastComputedHeight)`),
    /// the stricter-size rule compares the new size less margins with the old offered size
    /// as it was, margins included: a leaf with large margins keeps a result measured in
    /// less room (both Yoga 3.2.1 and main do; found by Tests/Scripts/yoga_diff_vectors.py).
    /// facebook/yoga#1965 (open) proposes subtracting the margins there too.
    @inline(__always) func canUseCachedMeasurement(_ widthMode: SizingMode, _ availableWidth: Float,
                                                   _ heightMode: SizingMode, _ availableHeight: Float,
                                                   _ last: CacheEntry, _ marginRow: Float, _ marginColumn: Float) -> Bool {
        if (!last.computedHeight.isNaN && last.computedHeight < 0) || (!last.computedWidth.isNaN && last.computedWidth < 0) {
            return false
        }
        let sameWidth = last.widthMode == widthMode && sameSpec(last.availableWidth, availableWidth)
        let sameHeight = last.heightMode == heightMode && sameSpec(last.availableHeight, availableHeight)

        let widthOK = sameWidth
            || Self.sizeIsExactAndMatchesOldMeasuredSize(widthMode, availableWidth - marginRow, last.computedWidth)
            || Self.oldSizeIsMaxContentAndStillFits(widthMode, availableWidth - marginRow, last.widthMode, last.computedWidth)
            || Self.newSizeIsStricterAndStillValid(widthMode, availableWidth - marginRow, last.widthMode,
                                                   last.availableWidth, last.computedWidth)
        if !widthOK { return false }
        return sameHeight
            || Self.sizeIsExactAndMatchesOldMeasuredSize(heightMode, availableHeight - marginColumn, last.computedHeight)
            || Self.oldSizeIsMaxContentAndStillFits(heightMode, availableHeight - marginColumn, last.heightMode, last.computedHeight)
            || Self.newSizeIsStricterAndStillValid(heightMode, availableHeight - marginColumn, last.heightMode,
                                                   last.availableHeight, last.computedHeight)
    }

    /// Yoga compares offered sizes after snapping them to the pixel grid.
    @inline(__always) func sameSpec(_ last: Float, _ offered: Float) -> Bool {
        if last == offered || (last.isNaN && offered.isNaN) { return true }
        if pointScaleFactor == 0 { return inexactEquals(last, offered) }
        let scale = Double(pointScaleFactor)
        return inexactEquals(roundValueToPixelGrid(Double(last), scale, false, false),
                             roundValueToPixelGrid(Double(offered), scale, false, false))
    }

    @inline(__always) static func sizeIsExactAndMatchesOldMeasuredSize(_ mode: SizingMode, _ size: Float, _ lastComputed: Float) -> Bool {
        mode == .stretchFit && inexactEquals(size, lastComputed)
    }

    @inline(__always) static func oldSizeIsMaxContentAndStillFits(_ mode: SizingMode, _ size: Float,
                                                                  _ lastMode: SizingMode, _ lastComputed: Float) -> Bool {
        mode == .fitContent && lastMode == .maxContent && (size >= lastComputed || inexactEquals(size, lastComputed))
    }

    @inline(__always) static func newSizeIsStricterAndStillValid(_ mode: SizingMode, _ size: Float, _ lastMode: SizingMode,
                                                                 _ lastSize: Float, _ lastComputed: Float) -> Bool {
        lastMode == .fitContent && mode == .fitContent && !lastSize.isNaN && !size.isNaN && !lastComputed.isNaN
            && lastSize > size && (lastComputed <= size || inexactEquals(size, lastComputed))
    }
}
