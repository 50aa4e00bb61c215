#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library calls whose names the types here also use for methods (`close`, `read`,
/// `listen`, `accept`): one spelling for Glibc and Darwin.
enum POSIX {
    @inline(__always)
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    @discardableResult @inline(__always)
    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }

    @inline(__always)
    static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.listen(fd, backlog)
        #else
        Darwin.listen(fd, backlog)
        #endif
    }

    @inline(__always)
    static func accept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?,
                       _ length: UnsafeMutablePointer<socklen_t>?) -> Int32 {
        #if canImport(Glibc)
        Glibc.accept(fd, address, length)
        #else
        Darwin.accept(fd, address, length)
        #endif
    }
}
