#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex, for state shared between queues and threads: the one lock
/// of the package. (`Synchronization.Mutex` needs macOS 15, the package declares 13;
/// Foundation's `NSLock` would more than quadruple the statically linked binary.)
///
/// On hot paths (the cache shards, the scratch pool): the methods are inlinable, so a lock is
/// two direct pthread calls around the body, with no allocation after `init`.
///
/// `@unchecked Sendable`: every access to `value` happens between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` of this object's own mutex, as with `Synchronization.Mutex`.
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock.
    @inlinable @inline(__always)
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Takes the lock, for state kept beside it rather than in it (see `Mutex`); pair with
    /// `unlock()`. Prefer `withLock`.
    @inlinable @inline(__always)
    public func lock() { pthread_mutex_lock(mutex) }

    @inlinable @inline(__always)
    public func unlock() { pthread_mutex_unlock(mutex) }
}

/// A bare lock, for a class whose own stored properties it guards.
public typealias Mutex = Locked<Void>

extension Locked where Value == Void {
    public convenience init() { self.init(()) }
}
