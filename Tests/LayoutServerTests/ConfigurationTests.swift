import LayoutServer
import Testing

@Suite struct ConfigurationTests {
    @Test func defaults() throws {
        let configuration = try ConfigurationSettings.resolve(commandLine: [:], environment: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.cacheBytes == 32 << 20)
        #expect(configuration.answerCacheBytes == 8 << 20)
        #expect(configuration.maxPendingComputeBytes == 24 << 20)
        #expect(configuration.logLevel == .info)
    }

    @Test func environmentThenCommandLine() throws {
        let configuration = try ConfigurationSettings.resolve(
            commandLine: ["port": "9000", "max-nodes": "50"],
            environment: ["LAYOUTD_PORT": "7000", "LAYOUTD_HOST": "0.0.0.0", "LAYOUTD_CACHE_BYTES": "16MiB",
                          "LAYOUTD_LOG_LEVEL": "warning", "LAYOUTD_MAX_DEPTH": "10", "LAYOUTD_GZIP": "off",
                          "LAYOUTD_IDLE_TIMEOUT": "2.5", "UNRELATED": "x"])
        #expect(configuration.port == 9000)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.cacheBytes == 16 << 20)
        #expect(configuration.wire.maxNodes == 50)
        #expect(configuration.wire.maxDepth == 10)
        #expect(configuration.wire.maxNesting == 36)
        #expect(configuration.logLevel == .warning)
        #expect(configuration.http.responseCompression.enabled == false)
        #expect(configuration.http.idleTimeout == .milliseconds(2500))
    }

    @Test func everySettingHasItsEnvironmentVariable() {
        let names = ConfigurationSettings.all.map(\.environmentVariable)
        #expect(names.contains("LAYOUTD_HOST"))
        #expect(names.contains("LAYOUTD_MAX_BATCH_ITEMS"))
        #expect(Set(names).count == names.count)
    }

    @Test(arguments: [("port", "70000"), ("port", "x"), ("cache-bytes", "12 parsecs"), ("log-level", "loud"),
                      ("gzip", "maybe"), ("idle-timeout", "-1"), ("max-nodes", "0")])
    func badValuesAreRefusedWithTheirName(name: String, value: String) {
        #expect(throws: ConfigurationError.self) {
            try ConfigurationSettings.resolve(commandLine: [name: value], environment: [:])
        }
        do {
            _ = try ConfigurationSettings.resolve(commandLine: [:], environment: ["LAYOUTD_" + name.uppercased().replacingOccurrences(of: "-", with: "_"): value])
            Issue.record("accepted \(name)=\(value) from the environment")
        } catch {
            #expect(error.setting == name)
        }
    }

    @Test func maxBufferedResponseBytesFromEnvironmentAndCommandLine() throws {
        let fromEnvironment = try ConfigurationSettings.resolve(
            commandLine: [:], environment: ["LAYOUTD_MAX_BUFFERED_RESPONSE_BYTES": "256k"])
        #expect(fromEnvironment.http.maxBufferedResponseBytes == 256 << 10)
        let fromCommandLine = try ConfigurationSettings.resolve(
            commandLine: ["max-buffered-response-bytes": "2MiB"],
            environment: ["LAYOUTD_MAX_BUFFERED_RESPONSE_BYTES": "256k"])
        #expect(fromCommandLine.http.maxBufferedResponseBytes == 2 << 20)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationSettings.resolve(commandLine: ["max-buffered-response-bytes": "lots"], environment: [:])
        }
    }

    @Test func byteCounts() {
        #expect(ConfigurationSettings.parseByteCount("65536") == 65536)
        #expect(ConfigurationSettings.parseByteCount("64k") == 65536)
        #expect(ConfigurationSettings.parseByteCount("1GiB") == 1 << 30)
        #expect(ConfigurationSettings.parseByteCount("2M") == 2 << 20)
        #expect(ConfigurationSettings.parseByteCount("-1") == nil)
        #expect(ConfigurationSettings.parseByteCount("k") == nil)
        #expect(ConfigurationSettings.parseByteCount("99999999999999999999G") == nil)
    }

    @Test func tlsNeedsBothFiles() throws {
        #expect(throws: ConfigurationError.self) {
            try ConfigurationSettings.resolve(commandLine: ["tls-cert": "/c.pem"], environment: [:])
        }
        let both = try ConfigurationSettings.resolve(commandLine: ["tls-cert": "/c.pem"],
                                                     environment: ["LAYOUTD_TLS_KEY": "/k.pem"])
        #expect(both.http.tlsCertificatePath == "/c.pem")
        #expect(both.http.tlsKeyPath == "/k.pem")
    }
}
