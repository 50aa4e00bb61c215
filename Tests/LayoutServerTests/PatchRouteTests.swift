import Foundation
import HTTPServer
import LayoutWire
import SyncSupport
import Testing
@testable import LayoutServer

/// Where `/compute/patch` does its work: a small patch made in place on a small kept tree is
/// answered where the request arrived (no thread hop), everything else on the compute queue —
/// with the same answer either way.
@Suite struct PatchRouteTests {
    /// A service whose compute queue counts the jobs it starts (the `/compute` route lays out
    /// on the queue: the default backend is the event loop, or inline bodies are off).
    static func service(_ configure: (inout ServiceConfiguration) -> Void = { _ in }) -> (LayoutService, Locked<Int>) {
        var configuration = ServiceConfiguration()
        configuration.logLevel = .warning
        configuration.http.ioBackend = .eventLoop
        configure(&configuration)
        let jobs = Locked(0)
        return (LayoutService(configuration: configuration, logger: nil, computeGate: { jobs.withLock { $0 += 1 } }), jobs)
    }

    static func post(_ service: LayoutService, _ path: String, _ json: String) throws -> HTTPResponse {
        try #require(AdmissionTests.post(service, path, Array(json.utf8)).wait())
    }

    /// `PatchTests.row` sent, then each patch against the ETag of the answer before it.
    static func chain(_ service: LayoutService, _ patches: [String], changesOnly: Bool = false) throws -> [HTTPResponse] {
        var tag = try #require(try post(service, "/compute", PatchTests.row).headers["ETag"])
        return try patches.map { patch in
            let answer = try post(service, "/compute/patch",
                                  #"{"base":\#(PatchFixture.quoted(tag)),"changesOnly":\#(changesOnly),"patch":\#(patch)}"#)
            tag = try #require(answer.headers["ETag"])
            return answer
        }
    }

    static func width(_ value: Int) -> String {
        #"[{"op":"replace","path":"/root/children/2/style/width","value":\#(value)}]"#
    }

    /// The answer to the row sent whole after `patches`.
    static func whole(_ patches: [String]) throws -> [UInt8] {
        LayoutOnce.answer(body: try PatchFixture.patched(PatchTests.row, patches).jsonBytes()).body
    }

    @Test func aSmallPatchInPlaceIsAnsweredWithoutTheComputeQueue() throws {
        let (service, jobs) = Self.service()
        let patches = [Self.width(35), Self.width(40)]
        let answers = try Self.chain(service, patches)
        #expect(answers.map(\.status) == [200, 200])
        #expect(answers.map { $0.headers["X-Patch"] } == ["in-place-fresh", "in-place"])
        #expect(answers[1].body == (try Self.whole(patches)))
        // The row's /compute and the first patch (whose base keeps its document as bytes, parsed
        // then) went through the queue; the second did not.
        #expect(jobs.withLock { $0 } == 2)

        // Refusals are answered at once too: a base not kept, a malformed request.
        let unknown = try Self.post(service, "/compute/patch",
                                    #"{"base":"\"00000000000000000000000000000000-0000000000000000\"","patch":[]}"#)
        #expect(unknown.status == 412)
        let malformed = try Self.post(service, "/compute/patch", #"{"base":1,"patch":[]}"#)
        #expect(malformed.status == 422)
        #expect(jobs.withLock { $0 } == 2)
    }

    @Test func aRebuildRunsOnTheComputeQueue() throws {
        let (service, jobs) = Self.service()
        let patches = [Self.width(35), #"[{"op":"replace","path":"/available/width","value":500}]"#]
        let answers = try Self.chain(service, patches)
        #expect(answers.map { $0.headers["X-Patch"] } == ["in-place-fresh", "rebuilt"])
        #expect(answers[1].body == (try Self.whole(patches)))
        #expect(jobs.withLock { $0 } == 3)
    }

    /// A tree above `inlinePatchMaxNodes` (the row has 4 nodes), a body above
    /// `inlineComputeMaxBytes`, or inline patches off: the same patches in place, on the queue.
    @Test(arguments: [(3, 8 << 10), (4, 100), (0, 8 << 10), (4, 8 << 10)])
    func largerTreesAndBodiesArePatchedOnTheComputeQueue(maxNodes: Int, maxBytes: Int) throws {
        let inline = maxNodes >= 4 && maxBytes > 100
        for changesOnly in [false, true] {
            let (service, jobs) = Self.service {
                $0.inlinePatchMaxNodes = maxNodes
                $0.inlineComputeMaxBytes = maxBytes
            }
            let patches = [Self.width(35), Self.width(40)]
            let answers = try Self.chain(service, patches, changesOnly: changesOnly)
            #expect(answers.map { $0.headers["X-Patch"] } == ["in-place-fresh", "in-place"])
            if !changesOnly { #expect(answers[1].body == (try Self.whole(patches))) }
            // The row's /compute, the first patch, and the second unless it was inline.
            #expect(jobs.withLock { $0 } == (inline ? 2 : 3))
        }
    }
}
