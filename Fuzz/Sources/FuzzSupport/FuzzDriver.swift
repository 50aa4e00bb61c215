#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer's driver. SwiftPM renames an executable's `main` on Linux, so the harnesses keep
/// their own `main.swift` and hand control to libFuzzer through this entry point instead of
/// relying on libFuzzer's `main`.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the process arguments and `body` as the test function; never returns.
public func runFuzzer(_ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    let status = withUnsafeMutablePointer(to: &argv) { argvPointer in
        LLVMFuzzerRunDriver(&argc, argvPointer, body)
    }
    exit(status)
}

/// Reads the fuzz input as a stream of choices; past the end every read is 0, so any input
/// decodes to something.
public struct ByteReader {
    public let bytes: [UInt8]
    public private(set) var position = 0
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var isAtEnd: Bool { position >= bytes.count }
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }
    /// A value in 0..<n (n > 0).
    public mutating func below(_ n: Int) -> Int { Int(byte()) % n }
    public mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }
}

/// Writes a diagnostic line to stderr (stdout is buffered and lost when the harness traps).
public func report(_ text: String) {
    fputs(text + "\n", stderr)
}
