#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SyncSupport

/// The IMF-fixdate for the Date header (RFC 9110 §5.6.7), formatted once per second and
/// shared by every connection.
enum HTTPDate {
    private struct Cache {
        var second: time_t = -1
        var bytes: [UInt8] = []
    }

    private static let cache = Locked(Cache())

    /// Appends "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n" for now, without copying the cached
    /// bytes out (once per response).
    static func appendField(to out: inout [UInt8]) {
        appendField(second: time(nil), to: &out)
    }

    /// A connection's own copy of the field line, refreshed from the shared one when the
    /// second changes: no lock per response.
    struct Memo {
        fileprivate var second: time_t = -1
        fileprivate var line: [UInt8] = []
        init() {}
    }

    /// Appends the field for now through `memo`.
    static func appendField(to out: inout [UInt8], memo: inout Memo) {
        let second = time(nil)
        if memo.second != second {
            memo.line.removeAll(keepingCapacity: true)
            appendField(second: second, to: &memo.line)
            memo.second = second
        }
        memo.line.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    private static func appendField(second: time_t, to out: inout [UInt8]) {
        cache.withLock { cache in
            if cache.second != second {
                cache.second = second
                cache.bytes = format(second)
            }
            out.append(contentsOf: "Date: ".utf8)
            cache.bytes.withUnsafeBufferPointer { out.append(contentsOf: $0) }
            out.append(ASCII.cr)
            out.append(ASCII.lf)
        }
    }

    static func format(_ seconds: time_t) -> [UInt8] {
        var t = seconds
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let text = "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        return Array(text.utf8)
    }
}
