import Foundation
import LayoutServer
import Testing
@testable import layoutd

/// `--font-dir` adds up when repeated, and refuses what is not a directory.
@Suite struct FontDirOptionTests {
    @Test func repeatedFontDirsAddUp() throws {
        let values = try Serve.parse(["--font-dir", "/", "--font-dir=/tmp"]).commandLineValues()
        #expect(values == ["font-dir": "/:/tmp"])
        let configuration = try ConfigurationSettings.resolve(commandLine: values, environment: [:])
        #expect(configuration.fontDirectories == ["/", "/tmp"])
        #expect(throws: ConfigurationError.self) {
            try ConfigurationSettings.resolve(commandLine: ["font-dir": "/no/such/fonts"], environment: [:])
        }
    }
}
