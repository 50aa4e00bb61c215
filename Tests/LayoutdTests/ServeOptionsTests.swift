import Foundation
import LayoutServer
import Testing
@testable import layoutd

/// `layoutd serve`'s options, the environment and the README's Configuration table all come
/// from `ConfigurationSettings.all`: a setting missing from any of them fails here.
@Suite struct ServeOptionsTests {
    /// Both TLS files, so that each setting can be resolved on its own (one alone is refused).
    /// Settings that only work in pairs get their partner here: TLS needs both files, and a
    /// shared cache a cache-key secret.
    static let base = ["LAYOUTD_TLS_CERT": "/c.pem", "LAYOUTD_TLS_KEY": "/k.pem",
                       "LAYOUTD_CACHE_KEY_SECRET": "ffeeddccbbaa99887766554433221100"]
    /// Values to try until one is valid for a setting and differs from its default.
    static let candidates = ["7", "3MiB", "2.5", "false", "true", "dispatch", "warning", "/other.pem", "/",
                             "redis://127.0.0.1:6379", "000102030405060708090a0b0c0d0e0f"]

    @Test(arguments: ConfigurationSettings.all.map(\.name))
    func everySettingIsAnOptionAndAnEnvironmentVariable(name: String) throws {
        let setting = try #require(ConfigurationSettings.setting(name))
        let defaults = try ConfigurationSettings.resolve(commandLine: [:], environment: Self.base)
        let original = setting.value(in: defaults)
        // From the environment: some candidate changes the value.
        var fromEnvironment: (value: String, configuration: ServiceConfiguration)?
        for value in Self.candidates {
            let environment = Self.base.merging([setting.environmentVariable: value]) { $1 }
            if let configuration = try? ConfigurationSettings.resolve(commandLine: [:], environment: environment),
               setting.value(in: configuration) != original {
                fromEnvironment = (value, configuration)
                break
            }
        }
        let changed = try #require(fromEnvironment, "\(setting.environmentVariable) changes nothing")
        // On the command line, both spellings, winning over the environment.
        let environment = Self.base.merging([setting.environmentVariable: changed.value]) { $1 }
        // A setting that names directories takes only existing ones.
        let back = original ?? (setting.valueName == "dir" ? NSTemporaryDirectory() : "/c.pem")
        for arguments in [["--\(name)", back], ["--\(name)=\(back)"]] {
            let values = try Serve.parse(arguments).commandLineValues()
            #expect(values == [name: back])
            let configuration = try ConfigurationSettings.resolve(commandLine: values, environment: environment)
            #expect(setting.value(in: configuration) == back, "--\(name) does not win over the environment")
        }
        // And in the help, with its default and environment variable.
        let help = Serve.helpMessage(columns: 80)
        #expect(help.contains("--\(name) <\(setting.valueName)>"))
        #expect(help.contains("env: \(setting.environmentVariable)"))
        if let value = setting.defaultValue { #expect(help.contains("default: \(value)")) }
    }

    /// Replicas find each other's entries only under one cache key, so a shared cache without
    /// a configured secret is refused rather than silently never hit.
    @Test func aSharedCacheNeedsACacheKeySecret() throws {
        let url = ["shared-cache": "redis://127.0.0.1:6379"]
        do {
            _ = try ConfigurationSettings.resolve(commandLine: url, environment: [:])
            Issue.record("a shared cache without a secret was accepted")
        } catch {
            #expect(error.description == #"shared-cache: "redis://127.0.0.1:6379" needs --cache-key-secret (the same 32 hex digits on every replica)"#)
        }
        let configuration = try ConfigurationSettings.resolve(
            commandLine: url.merging(["cache-key-secret": "000102030405060708090a0b0c0d0e0f"]) { $1 }, environment: [:])
        #expect(configuration.sharedCache.url == "redis://127.0.0.1:6379")
        #expect(configuration.cacheKeySecret?.hexString == "000102030405060708090a0b0c0d0e0f")
    }

    @Test func badCommandLinesAreRefused() {
        for arguments in [["--no-such-option", "1"], ["--port"], ["8080"], ["--port", "--host", "::"]] {
            #expect(throws: (any Error).self, "\(arguments)") { try Serve.parse(arguments) }
        }
        // A bad value is refused with the setting's own message, as from the environment.
        do {
            let values = try Serve.parse(["--port", "70000"]).commandLineValues()
            _ = try ConfigurationSettings.resolve(commandLine: values, environment: [:])
            Issue.record("--port 70000 accepted")
        } catch let error as ConfigurationError {
            #expect(error.description == #"port: "70000" is not a whole number in 0...65535"#)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func everyReadmeRowIsASettingAndEverySettingARow() throws {
        let rows = try Self.readmeConfigurationRows()
        let settings = ConfigurationSettings.all
        #expect(Set(rows.keys) == Set(settings.map(\.name)))
        #expect(rows.count == settings.count)
        for setting in settings {
            guard let readmeDefault = rows[setting.name] else { continue }
            #if !os(Linux)
            if setting.name == "io-backend" { continue }  // the README gives Linux's default
            #endif
            #expect(readmeDefault == (setting.defaultValue ?? ""), "README default of --\(setting.name)")
        }
    }

    /// The options of the README's Configuration table, with their defaults (backticks removed).
    static func readmeConfigurationRows() throws -> [String: String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Configuration\n").dropFirst().first)
        var rows: [String: String] = [:]
        // The first table of the section: its rows until the first line that is not one.
        let lines = section.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("| option") }.dropFirst(2).prefix { $0.hasPrefix("|") }
        for line in lines {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let names = cells[1].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `-")) }
            for name in names { rows[name] = cells[2].replacingOccurrences(of: "`", with: "") }
        }
        return rows
    }
}
