import ArgumentParser
import LayoutServer

/// `layoutd healthcheck`: GET /healthz on a running server; exit 0 when it answers 200.
/// For container HEALTHCHECKs on images without curl.
struct Healthcheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a running server: exit 0 when GET /healthz answers 200, 1 otherwise."
    )

    @Option(help: "Address to connect to. [default: 127.0.0.1, or LAYOUTD_HOST unless it is a wildcard]")
    var host: String?

    @Option(help: "Port to connect to. [default: LAYOUTD_PORT, else 8080]")
    var port: Int?

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Int = 3

    func run() throws {
        let environment = SystemIO.environment()
        var target = host ?? environment["LAYOUTD_HOST"] ?? "127.0.0.1"
        if target == "0.0.0.0" { target = "127.0.0.1" }
        if target == "::" { target = "::1" }
        let targetPort = port ?? environment["LAYOUTD_PORT"].flatMap { Int($0) } ?? 8080
        do {
            let response = try BlockingHTTPClient(host: target, port: targetPort, timeoutSeconds: timeout)
                .send("GET", "/healthz")
            guard response.status == 200 else {
                SystemIO.write("unhealthy: status \(response.status)\n", to: 2)
                throw ExitCode(1)
            }
        } catch let error as BlockingHTTPClient.Failure {
            SystemIO.write("unhealthy: \(error)\n", to: 2)
            throw ExitCode(1)
        }
    }
}
