import Dispatch
import Foundation
import HTTPServer
import Testing
@testable import LayoutServer

/// The compute budget (`max-pending-compute-bytes`): work beyond it is refused with 503
/// `overloaded` and `Retry-After`, counted in /metrics, and admitted again once it drains.
@Suite struct AdmissionTests {
    /// Holds every computation that reaches the compute queue until opened.
    // @unchecked: `held` and `isOpen` are touched only while `condition` is locked.
    final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        private var held = 0
        private var isOpen = false

        func hold() {
            condition.lock()
            held += 1
            condition.broadcast()
            while !isOpen { condition.wait() }
            condition.unlock()
        }

        /// Waits (10 s at most, so a broken service fails the test rather than hanging it)
        /// until `count` computations are being held.
        func waitUntilHolding(_ count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            condition.lock()
            defer { condition.unlock() }
            while held < count {
                if !condition.wait(until: deadline) { return held >= count }
            }
            return true
        }

        func open() {
            condition.lock()
            isOpen = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The response to one `handle` call, once it comes.
    // @unchecked: `response` is written once before `done.signal()` and read after the wait.
    final class Reply: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private(set) var response: HTTPResponse?

        func set(_ response: HTTPResponse) {
            self.response = response
            done.signal()
        }

        /// The response, waiting 10 s at most.
        func wait() -> HTTPResponse? {
            done.wait(timeout: .now() + 10) == .success ? response : nil
        }
    }

    /// `RouteTests.rowRequest` plus `n` spaces: the same tree, a distinct body (no answer
    /// cache hit between them).
    static func body(_ n: Int) -> [UInt8] {
        Array((RouteTests.rowRequest + String(repeating: " ", count: n)).utf8)
    }

    static func post(_ service: LayoutService, _ path: String, _ body: [UInt8]) -> Reply {
        let reply = Reply()
        let request = HTTPRequest(method: "POST", target: path, path: path,
                                  headers: ["Content-Type": "application/json"], body: body)
        service.handle(request) { reply.set($0) }
        return reply
    }

    static func service(limitBytes: Int, gate: Gate? = nil) -> LayoutService {
        var configuration = ServiceConfiguration()
        configuration.logLevel = .warning
        configuration.inlineComputeMaxBytes = 0 // every body goes through the compute queue
        configuration.maxPendingComputeBytes = limitBytes
        var hold: (@Sendable () -> Void)?
        if let gate { hold = { gate.hold() } }
        return LayoutService(configuration: configuration, logger: nil, computeGate: hold)
    }

    @Test func aFullBudgetAnswers503UntilItDrains() throws {
        let first = Self.body(1), second = Self.body(2)
        let gate = Gate()
        let service = Self.service(limitBytes: first.count + second.count, gate: gate)

        let held = [Self.post(service, "/compute", first), Self.post(service, "/compute", second)]
        try #require(gate.waitUntilHolding(2))
        #expect(service.admission.statistics.pendingRequests == 2)
        #expect(service.admission.statistics.pendingBytes == first.count + second.count)

        // Full: a third body and a batch are refused at once, without reaching the gate.
        let refused = try #require(Self.post(service, "/compute", Self.body(3)).wait())
        #expect(refused.status == 503)
        #expect(refused.headers["Retry-After"] == "1")
        #expect(refused.headers["Content-Type"] == "application/json")
        let json = try JSONSerialization.jsonObject(with: Data(refused.body)) as? [String: Any]
        let error = try #require(json?["error"] as? [String: Any])
        #expect(error["status"] as? Int == 503)
        #expect(error["code"] as? String == "overloaded")
        #expect((error["message"] as? String)?.contains("\(first.count + second.count) bytes") == true)
        #expect(error["pointer"] as? String == "")
        let batch = "[" + RouteTests.rowRequest + "]"
        let refusedBatch = try #require(Self.post(service, "/compute/batch", Array(batch.utf8)).wait())
        #expect(refusedBatch.status == 503)
        #expect(refusedBatch.headers["Retry-After"] == "1")

        #expect(service.admission.statistics.rejected == 2)
        #expect(service.metrics.requestCount(route: .compute, status: 503) == 1)
        #expect(service.metrics.requestCount(route: .computeBatch, status: 503) == 1)
        let text = PrometheusRenderer.render(.init(
            metrics: service.metrics, cache: service.cache.statistics, cacheCapacityBytes: service.cache.capacityBytes,
            admission: service.admission.statistics, admissionLimitBytes: service.admission.limitBytes,
            openConnections: 0))
        #expect(text.contains("layoutd_compute_rejected_total 2\n"))
        #expect(text.contains("layoutd_compute_pending_requests 2\n"))
        #expect(text.contains("layoutd_compute_pending_limit_bytes \(first.count + second.count)\n"))

        // Drained: the held work answers, the budget is free, new work is admitted.
        gate.open()
        for reply in held {
            #expect(reply.wait()?.status == 200)
        }
        #expect(service.admission.statistics.pendingRequests == 0)
        #expect(service.admission.statistics.pendingBytes == 0)
        #expect(Self.post(service, "/compute", Self.body(4)).wait()?.status == 200)
        #expect(Self.post(service, "/compute/batch", Array(batch.utf8)).wait()?.status == 200)
        #expect(service.admission.statistics.rejected == 2)
    }

    @Test func aLoneBodyLargerThanTheBudgetIsStillAnswered() {
        let service = Self.service(limitBytes: 10)
        let body = Self.body(0)
        #expect(body.count > 10)
        #expect(Self.post(service, "/compute", body).wait()?.status == 200)
        #expect(service.admission.statistics.rejected == 0)
    }

    @Test func budgetAccounting() {
        let admission = ComputeAdmission(limitBytes: 100)
        #expect(admission.tryAdmit(bytes: 60))
        #expect(admission.tryAdmit(bytes: 40))
        #expect(!admission.tryAdmit(bytes: 1))
        admission.release(bytes: 40)
        #expect(!admission.tryAdmit(bytes: 41))
        #expect(admission.tryAdmit(bytes: 40))
        admission.release(bytes: 60)
        admission.release(bytes: 40)
        #expect(admission.statistics.pendingBytes == 0)
        #expect(admission.statistics.pendingRequests == 0)
        #expect(admission.statistics.rejected == 2)
        // Nothing pending: even a body over the whole budget is admitted.
        #expect(admission.tryAdmit(bytes: 1_000))
    }

    @Test func theBudgetIsASetting() throws {
        #expect(try ConfigurationSettings.resolve(commandLine: [:], environment: [:]).maxPendingComputeBytes
            == ServiceConfiguration.defaultMaxPendingComputeBytes)
        let fromEnvironment = try ConfigurationSettings.resolve(
            commandLine: [:], environment: ["LAYOUTD_MAX_PENDING_COMPUTE_BYTES": "4MiB"])
        #expect(fromEnvironment.maxPendingComputeBytes == 4 << 20)
        let fromFlag = try ConfigurationSettings.resolve(
            commandLine: ["max-pending-compute-bytes": "512k"], environment: ["LAYOUTD_MAX_PENDING_COMPUTE_BYTES": "4MiB"])
        #expect(fromFlag.maxPendingComputeBytes == 512 << 10)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationSettings.resolve(commandLine: ["max-pending-compute-bytes": "lots"], environment: [:])
        }
    }
}
