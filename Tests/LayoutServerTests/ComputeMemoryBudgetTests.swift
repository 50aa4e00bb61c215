#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import HTTPServer
import LayoutWire
import SyncSupport
import TestSupport
import Testing
@testable import LayoutServer

/// The compute memory budget (`max-compute-memory-bytes`): large layouts run while their
/// estimates fit together, wait first come first served when they do not (as much again, then
/// 503), one always runs, and small ones never wait.
@Suite struct ComputeMemoryBudgetTests {
    @Test func largeJobsWaitInOrderForRoom() {
        let budget = ComputeMemoryBudget<Int>(limitBytes: 1_600)
        #expect(budget.smallJobBytes == 100)
        #expect(run(budget.submit(cost: 700, 1)) == 1)
        #expect(run(budget.submit(cost: 800, 2)) == 2)
        #expect(waits(budget.submit(cost: 500, 3)))
        // A later job that would fit does not overtake the one waiting before it.
        #expect(waits(budget.submit(cost: 101, 4)))
        #expect(budget.statistics == stats(running: 1_500, jobs: 2, waiting: 2, waitingBytes: 601, waited: 2))
        // 800 freed: 3 (500) fits beside 1 (700), then 4 (101) beside both.
        #expect(budget.finish(cost: 800) == [3, 4])
        #expect(budget.statistics == stats(running: 1_301, jobs: 3, waiting: 0, waited: 2))
        #expect(budget.finish(cost: 700) == [])
        #expect(budget.finish(cost: 500) == [])
        #expect(budget.finish(cost: 101) == [])
        #expect(budget.statistics == stats(running: 0, jobs: 0, waiting: 0, waited: 2))
    }

    @Test func aJobLargerThanTheBudgetRunsAlone() {
        let budget = ComputeMemoryBudget<Int>(limitBytes: 1_600)
        #expect(run(budget.submit(cost: 5_000, 1)) == 1)
        #expect(waits(budget.submit(cost: 200, 2)))
        #expect(budget.finish(cost: 5_000) == [2])
        #expect(waits(budget.submit(cost: 1_500, 3)))
        #expect(budget.finish(cost: 200) == [3])
        #expect(waits(budget.submit(cost: 9_000, 4)))
        // 4, larger than the whole budget, runs once nothing runs beside it.
        #expect(budget.finish(cost: 1_500) == [4])
        #expect(budget.finish(cost: 9_000) == [])
        #expect(budget.statistics == stats(running: 0, jobs: 0, waiting: 0, waited: 3))
    }

    /// What waits is bounded by the budget too: beyond it large jobs are refused; one job may
    /// always wait, however large.
    @Test func waitingBeyondTheBudgetIsRefused() {
        let budget = ComputeMemoryBudget<Int>(limitBytes: 1_600)
        #expect(run(budget.submit(cost: 1_000, 1)) == 1)
        #expect(waits(budget.submit(cost: 9_000, 2)))
        #expect(refused(budget.submit(cost: 200, 3)))
        #expect(budget.finish(cost: 1_000) == [2])
        #expect(waits(budget.submit(cost: 1_000, 4)))
        #expect(waits(budget.submit(cost: 600, 5)))
        #expect(refused(budget.submit(cost: 101, 6)))
        // Small jobs are never refused.
        #expect(run(budget.submit(cost: 100, 7)) == 7)
        var expected = stats(running: 9_000, jobs: 1, waiting: 2, waitingBytes: 1_600, waited: 3)
        expected.refusedTotal = 2
        #expect(budget.statistics == expected)
        #expect(budget.finish(cost: 9_000) == [4, 5])
    }

    @Test func smallJobsNeverWaitAndAreNotCounted() {
        let budget = ComputeMemoryBudget<Int>(limitBytes: 1_600)
        #expect(run(budget.submit(cost: 5_000, 1)) == 1)
        #expect(waits(budget.submit(cost: 5_000, 2)))
        for job in 10..<20 { #expect(run(budget.submit(cost: 100, job)) == job) }
        #expect(budget.finish(cost: 100) == [])
        #expect(budget.statistics == stats(running: 5_000, jobs: 1, waiting: 1, waitingBytes: 5_000, waited: 1))
        #expect(budget.finish(cost: 5_000) == [2])
    }

    @Test func aZeroBudgetBoundsNothing() {
        let budget = ComputeMemoryBudget<Int>(limitBytes: 0)
        for job in 0..<5 { #expect(run(budget.submit(cost: 1 << 30, job)) == job) }
        #expect(budget.statistics == stats(running: 0, jobs: 0, waiting: 0, waited: 0))
    }

    /// The estimate grows with the objects of a body (every node is one), so the default budget
    /// sees slow_clients.py's 50,000-node tree as large and an ordinary 1,000-node tree as small.
    @Test func theEstimateCountsObjects() {
        let defaultBudget = ComputeMemoryBudget<Int>(limitBytes: ServiceConfiguration.defaultMaxComputeMemoryBytes)
        let wide = Self.wideTree(50_000)
        #expect(ComputeQueue.workingBytes(body: wide) >= 50_000 * ComputeQueue.bytesPerObject)
        #expect(ComputeQueue.workingBytes(body: wide) > defaultBudget.smallJobBytes)
        // Benchmarks/load's shape: 1,000 nodes, each with an id and a style object.
        let ordinary = Array(("{\"root\":{\"style\":{\"width\":800},\"children\":["
            + (0..<1_000).map { "{\"id\":\"n\($0)\",\"style\":{\"width\":\($0 % 50),\"height\":10,\"margin\":2}}" }
                .joined(separator: ",") + "]}}").utf8)
        #expect(ComputeQueue.workingBytes(body: ordinary) <= defaultBudget.smallJobBytes)
        // Each further `{}` leaf (and its comma): one object and three body bytes more.
        #expect(ComputeQueue.workingBytes(body: Self.wideTree(2_000)) - ComputeQueue.workingBytes(body: Self.wideTree(1_000))
            == 1_000 * (ComputeQueue.bytesPerObject + 3 * ComputeQueue.bytesPerBodyByte))
    }

    /// The vector brace count equals a byte-wise count at every length and alignment, with
    /// braces next to bytes one bit away from `{` (0x7A, 0x7B ^ 0x80, 0xFB) and to `{`s; and
    /// past the 255 steps after which its byte lanes are summed, with every byte a `{`.
    @Test func theBraceCountMatchesAByteWiseCount() {
        for length in [16 * 255 - 1, 16 * 255, 16 * 255 + 1, 16 * 256 + 7, 16 * 255 * 3 + 5, 100_003] {
            let braces = [UInt8](repeating: UInt8(ascii: "{"), count: length)
            #expect(braces.withUnsafeBufferPointer { LayoutWire.openBraceCount(in: $0) } == length)
            var mixed = braces
            for i in stride(from: 0, to: length, by: 3) { mixed[i] = 0xFB }
            #expect(mixed.withUnsafeBufferPointer { LayoutWire.openBraceCount(in: $0) } == length - (length + 2) / 3)
        }
        var generator = SplitMix64(seed: 0x7B)
        let alphabet: [UInt8] = [0x7B, 0x7B, 0x7A, 0x7C, 0xFB, 0x3B, 0x00, 0xFF, 0x7F, 0x22]
        for length in 0..<80 {
            for _ in 0..<20 {
                let bytes = (0..<(length + 3)).map { _ in alphabet.randomElement(using: &generator)! }
                for start in 0..<3 {
                    let expected = bytes[start..<(start + length)].filter { $0 == UInt8(ascii: "{") }.count
                    let counted = bytes.withUnsafeBufferPointer {
                        LayoutWire.openBraceCount(in: UnsafeBufferPointer(rebasing: $0[start..<(start + length)]))
                    }
                    #expect(counted == expected)
                }
            }
        }
    }

    /// Through the service: while one large layout is held on the compute queue, a second
    /// large one waits its turn (it never reaches the queue), a small one is laid out beside
    /// them, and every answer arrives once the first is let go.
    @Test func largeLayoutsWaitTheirTurnInTheService() throws {
        let first = Self.wideTree(2_000), second = Self.wideTree(2_000) + [UInt8(ascii: " ")]
        let cost = ComputeQueue.workingBytes(body: first)
        let gate = AdmissionTests.Gate()
        var configuration = ServiceConfiguration()
        configuration.logLevel = .warning
        configuration.inlineComputeMaxBytes = 0
        configuration.maxComputeMemoryBytes = cost + cost / 2
        let service = LayoutService(configuration: configuration, logger: nil, computeGate: { gate.hold() })

        let large = [AdmissionTests.post(service, "/compute", first), AdmissionTests.post(service, "/compute", second)]
        try #require(gate.waitUntilHolding(1))
        #expect(service.computeMemory.statistics
            == stats(running: cost, jobs: 1, waiting: 1, waitingBytes: ComputeQueue.workingBytes(body: second), waited: 1))
        let small = AdmissionTests.post(service, "/compute", AdmissionTests.body(1))
        #expect(gate.waitUntilHolding(2), "the small layout waited behind the large ones")
        #expect(service.computeMemory.statistics.waitingJobs == 1)
        #expect(service.admission.statistics.pendingRequests == 3)

        gate.open()
        #expect(small.wait()?.status == 200)
        for reply in large { #expect(reply.wait()?.status == 200) }
        // The budget is given back just after the answer goes out (10 s at most).
        let drained = stats(running: 0, jobs: 0, waiting: 0, waited: 1)
        for _ in 0..<1_000 where service.computeMemory.statistics != drained { usleep(10_000) }
        #expect(service.computeMemory.statistics == drained)
        #expect(service.admission.statistics.pendingRequests == 0)
    }

    /// After each job above a quarter of the budget (and only those) the queue gives the
    /// scratch back (`afterLargeJob`: malloc_trim in service): not after small jobs, nor after
    /// one the budget counts as large but that is below the quarter (`medium`).
    @Test func theQueueReleasesMemoryAfterEachLargeJob() {
        let released = Locked(0)
        let ran = DispatchGroup()
        let large = Self.wideTree(2_000), medium = Self.wideTree(250), small = AdmissionTests.body(1)
        let queue = ComputeQueue(admission: ComputeAdmission(limitBytes: 1 << 30),
                                 memory: ComputeMemoryBudget(limitBytes: ComputeQueue.workingBytes(body: large) + 1),
                                 afterLargeJob: { released.withLock { $0 += 1 } })
        let request = HTTPRequest(method: "POST", target: "/compute", path: "/compute", headers: [:], body: [])
        let refusals = Locked(0)
        let responder = Responder(request: request, context: RequestContext(route: .compute, started: 0), middleware: [],
                                  respond: { _ in refusals.withLock { $0 += 1 } })
        #expect(ComputeQueue.workingBytes(body: medium) > queue.memory.smallJobBytes)
        #expect(ComputeQueue.workingBytes(body: medium) <= queue.trimAfterJobBytes)
        // One at a time: a medium job waiting behind a large one would fill the budget's queue.
        for body in [large, small, medium, small, large] {
            ran.enter()
            queue.run(body, orRefuse: responder) { _ in ran.leave() }
            #expect(ran.wait(timeout: .now() + 10) == .success)
        }
        // `afterLargeJob` runs just after the job itself returns.
        for _ in 0..<1_000 where released.withLock({ $0 }) < 2 { usleep(10_000) }
        #expect(released.withLock { $0 } == 2)
        #expect(refusals.withLock { $0 } == 0)
    }

    @Test func theTrimIntervalIsASetting() throws {
        #expect(try ConfigurationSettings.resolve(commandLine: [:], environment: [:]).mallocTrimInterval == .seconds(10))
        let off = try ConfigurationSettings.resolve(commandLine: ["malloc-trim-interval": "0"], environment: [:])
        #expect(off.mallocTrimInterval == .zero)
        let fromEnvironment = try ConfigurationSettings.resolve(commandLine: [:],
                                                                environment: ["LAYOUTD_MALLOC_TRIM_INTERVAL": "2.5s"])
        #expect(fromEnvironment.mallocTrimInterval == .milliseconds(2500))
        #expect(throws: ConfigurationError.self) {
            try ConfigurationSettings.resolve(commandLine: ["malloc-trim-interval": "-1"], environment: [:])
        }
    }

    @Test func theBudgetIsASetting() throws {
        #expect(try ConfigurationSettings.resolve(commandLine: [:], environment: [:]).maxComputeMemoryBytes
            == ServiceConfiguration.defaultMaxComputeMemoryBytes)
        let fromEnvironment = try ConfigurationSettings.resolve(
            commandLine: [:], environment: ["LAYOUTD_MAX_COMPUTE_MEMORY_BYTES": "96MiB"])
        #expect(fromEnvironment.maxComputeMemoryBytes == 96 << 20)
        let fromFlag = try ConfigurationSettings.resolve(
            commandLine: ["max-compute-memory-bytes": "0"], environment: ["LAYOUTD_MAX_COMPUTE_MEMORY_BYTES": "96MiB"])
        #expect(fromFlag.maxComputeMemoryBytes == 0)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationSettings.resolve(commandLine: ["max-compute-memory-bytes": "plenty"], environment: [:])
        }
    }

    /// A small body with a large answer: `children` `{}` leaves.
    static func wideTree(_ children: Int) -> [UInt8] {
        Array(("{\"root\":{\"style\":{\"width\":800},\"children\":["
            + Array(repeating: "{}", count: children).joined(separator: ",") + "]}}").utf8)
    }

    private func stats(running: Int, jobs: Int, waiting: Int, waitingBytes: Int = 0, waited: Int) -> ComputeMemoryStatistics {
        var statistics = ComputeMemoryStatistics()
        statistics.runningBytes = running
        statistics.runningJobs = jobs
        statistics.waitingJobs = waiting
        statistics.waitingBytes = waitingBytes
        statistics.waitedTotal = waited
        return statistics
    }

    private func run(_ admission: ComputeMemoryBudget<Int>.Admission) -> Int? {
        if case .run(let job) = admission { return job }
        return nil
    }

    private func waits(_ admission: ComputeMemoryBudget<Int>.Admission) -> Bool {
        if case .wait = admission { return true }
        return false
    }

    private func refused(_ admission: ComputeMemoryBudget<Int>.Admission) -> Bool {
        if case .refuse = admission { return true }
        return false
    }
}

extension ComputeQueue {
    /// `workingBytes(objects:bodyBytes:)` of `body`, its `{` counted as `run` counts them.
    static func workingBytes(body: [UInt8]) -> Int {
        workingBytes(objects: body.withUnsafeBufferPointer { LayoutWire.openBraceCount(in: $0) }, bodyBytes: body.count)
    }
}
