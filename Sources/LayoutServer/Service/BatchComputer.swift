import Dispatch
import LayoutWire
import SyncSupport

/// Answers `/compute/batch`: a JSON array of layout requests in, an array of answers out, each
/// a layout or an error object. Items are independent: one bad item does not fail the rest.
struct BatchComputer: Sendable {
    let computer: LayoutComputer
    let maxItems: Int

    /// The status and body for a batch document.
    func answer(body: [UInt8]) -> (status: Int, body: [UInt8]) {
        var outerLimits = computer.limits
        outerLimits.maxNesting += 1 // the array around the items
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes: body, limits: outerLimits)
        } catch {
            return Self.refusal(ServiceError(error))
        }
        guard case .array = document.kind else {
            return Self.refusal(ServiceError(status: 422, code: "wrong-type",
                                             message: "a batch must be a JSON array of layout requests", pointer: ""))
        }
        let items = document.elements
        guard items.count <= maxItems else {
            return Self.refusal(ServiceError(status: 413, code: "too-many-items",
                                             message: "a batch holds at most \(maxItems) items; this one has \(items.count)",
                                             pointer: ""))
        }

        // One short lock per item (each item is a whole decode and layout): no unchecked
        // pointer shared between the threads.
        let slots = Locked([[UInt8]](repeating: [], count: items.count))
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let itemAnswer = answer(item: items[index], at: index)
            slots.withLock { $0[index] = itemAnswer }
        }
        let answers = slots.withLock { $0 }

        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(answers.reduce(2) { $0 + $1.count + 1 })
        for (index, answer) in answers.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: answer)
        }
        out.append(UInt8(ascii: "]"))
        return (200, out)
    }

    private func answer(item: JSONValue, at index: Int) -> [UInt8] {
        do {
            let request = try LayoutWire.decodeRequest(item, limits: computer.limits)
            // Warnings point into the batch document, as errors do.
            return computer.answer(consume request, ifNoneMatch: nil, pointerPrefix: "/\(index)").body // handed over, not copied
        } catch {
            // Where in the batch; conflict pointers stay relative to the item.
            var located = ServiceError(error)
            located.pointer = "/\(index)" + (error.pointer ?? "")
            return located.jsonBytes
        }
    }

    private static func refusal(_ error: ServiceError) -> (status: Int, body: [UInt8]) {
        (error.status, error.jsonBytes)
    }
}
