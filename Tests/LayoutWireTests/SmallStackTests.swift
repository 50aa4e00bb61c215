import Foundation
import Testing
@testable import LayoutWire

/// The parser, decoder and encoder must not recurse per level: servers run requests on
/// threads with 512 KiB stacks.
@Suite struct SmallStackTests {
    /// Runs `body` on a thread with a 512 KiB stack and waits for it (bounded).
    private func onSmallStack(_ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        return done.wait(timeout: .now() + 60) == .success
    }

    @Test func deepDocumentsOnA512KiBStack() {
        let finished = onSmallStack {
            // 100,000 open brackets: refused cleanly at the nesting limit.
            let brackets = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
                + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000)
            do throws(WireError) { _ = try JSONValue.parse(bytes: brackets); Issue.record("parsed") } catch {
                #expect(error.kind == .overLimit)
            }
            // With the nesting limit lifted the parser still needs no stack per level.
            var unlimited = WireLimits()
            unlimited.maxNesting = 200_000
            #expect((try? JSONValue.parse(bytes: brackets, limits: unlimited))?.kind == .array)

            // A chain of nodes at the default depth limit decodes and encodes.
            let depth = WireLimits.default.maxDepth
            let text = "{\"root\":" + String(repeating: "{\"style\":{\"width\":1},\"children\":[", count: depth - 1)
                + "{}" + String(repeating: "]}", count: depth - 1) + "}"
            do {
                let request = try LayoutWire.decodeRequest(bytes: Array(text.utf8))
                #expect(request.tree.nodeCount == depth)
                let response = LayoutWire.encodeResponse(request)
                #expect((try? JSONValue.parse(bytes: response))?["root"] != nil)
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(finished)
    }
}
