import Foundation
import Testing
@testable import HTTPServer

/// Runs a tool and returns its standard output, or nil when the tool is missing or fails.
private func run(_ tool: String, _ arguments: [String]) -> String? {
    guard FileManager.default.isExecutableFile(atPath: tool) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
}

@Suite struct TLSTests {
    /// A throwaway self-signed certificate for 127.0.0.1.
    private func makeCertificate() throws -> (certificate: String, key: String, directory: URL)? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("http-tls-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        guard run("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                       "-nodes", "-subj", "/CN=127.0.0.1", "-days", "1",
                                       "-keyout", key, "-out", certificate]) != nil else { return nil }
        return (certificate, key, directory)
    }

    @Test(arguments: ioBackends) func servesHTTPSWithKeepAlive(backend: IOBackend) throws {
        guard let files = try makeCertificate() else { return } // no openssl tool here
        defer { try? FileManager.default.removeItem(at: files.directory) }
        try withServer(backend, { $0.tlsCertificatePath = files.certificate; $0.tlsKeyPath = files.key }) { server in
            let base = "https://127.0.0.1:\(server.boundPort)"
            // Two URLs in one curl run share one TLS connection (keep-alive).
            let output = run("/usr/bin/curl", ["-sk", "--max-time", "5", "-d", "hello", "\(base)/one",
                                               "--next", "-sk", "--max-time", "5", "\(base)/big"])
            guard let output else { Issue.record("curl failed against the TLS server"); return }
            #expect(output.hasPrefix("POST /one hello"))
            #expect(output.count == "POST /one hello".count + 5000)
            #expect(server.openConnections <= 1)
        }
    }

    @Test(arguments: ioBackends) func plaintextAndSlowHandshakesAreClosed(backend: IOBackend) throws {
        guard let files = try makeCertificate() else { return }
        defer { try? FileManager.default.removeItem(at: files.directory) }
        try withServer(backend, {
            $0.tlsCertificatePath = files.certificate
            $0.tlsKeyPath = files.key
            // Long enough for curl's handshake and request on a loaded machine, short of the
            // raw client's 3 s read timeout that bounds the silent client's wait.
            $0.headerTimeout = .seconds(1)
        }) { server in
            let plain = try RawClient(port: server.boundPort)
            plain.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(plain.readResponse() == nil)
            let silent = try RawClient(port: server.boundPort)
            #expect(silent.isClosedByPeer())
            #expect(run("/usr/bin/curl", ["-sk", "--max-time", "5", "https://127.0.0.1:\(server.boundPort)/after"]) == "GET /after ")
        }
    }

    @Test func badCertificatePathsFailToStart() {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.tlsCertificatePath = "/nonexistent/cert.pem"
        configuration.tlsKeyPath = "/nonexistent/key.pem"
        let server = HTTPServer(configuration: configuration, handler: TestHandler())
        #expect(throws: TLSError.self) { try server.start() }
    }
}
