import SharedCache
import SyncSupport
import Testing

@Suite struct CircuitBreakerTests {
    /// A clock the test moves by hand.
    final class FakeClock: Sendable {
        let nanoseconds = Locked<UInt64>(1_000)
        func advance(_ duration: Duration) {
            nanoseconds.withLock { $0 += UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000) }
        }
    }

    @Test func opensAfterThresholdFailuresInARow() {
        let clock = FakeClock()
        let breaker = CircuitBreaker(failureThreshold: 3, backoff: .seconds(1), now: { clock.nanoseconds.withLock { $0 } })
        #expect(breaker.allowsCall())
        breaker.failed()
        breaker.failed()
        breaker.succeeded()  // resets the run
        breaker.failed()
        breaker.failed()
        #expect(breaker.state == .closed)
        breaker.failed()
        #expect(breaker.state == .open)
        #expect(!breaker.allowsCall())
        #expect(breaker.timesOpened == 1)
    }

    @Test func probesOnceAfterTheBackoffAndClosesOnSuccess() {
        let clock = FakeClock()
        let breaker = CircuitBreaker(failureThreshold: 1, backoff: .milliseconds(500), now: { clock.nanoseconds.withLock { $0 } })
        breaker.failed()
        clock.advance(.milliseconds(499))
        #expect(!breaker.allowsCall())
        clock.advance(.milliseconds(1))
        #expect(breaker.allowsCall())  // the probe
        #expect(breaker.state == .halfOpen)
        #expect(!breaker.allowsCall())  // only one probe at a time
        breaker.succeeded()
        #expect(breaker.state == .closed)
        #expect(breaker.allowsCall())
    }

    @Test func aFailedProbeReopensForAnotherBackoff() {
        let clock = FakeClock()
        let breaker = CircuitBreaker(failureThreshold: 2, backoff: .seconds(2), now: { clock.nanoseconds.withLock { $0 } })
        breaker.failed()
        breaker.failed()
        clock.advance(.seconds(2))
        #expect(breaker.allowsCall())
        breaker.failed()  // one failure is enough in half-open
        #expect(breaker.state == .open)
        #expect(breaker.timesOpened == 2)
        clock.advance(.seconds(1))
        #expect(!breaker.allowsCall())
        clock.advance(.seconds(1))
        #expect(breaker.allowsCall())
    }
}
