import Testing
import LayoutEngine

/// Every Yoga vector in `Tests/Fixtures/yoga` must reproduce Yoga's frames.
@Suite struct ConformanceTests {
    /// Cases allowed to fail, each with the reason. Everything else must pass.
    static let knownFailures: [String: String] = [:]

    @Test func yogaVectorsMatchYogaFrames() throws {
        let cases = try YogaFixtures.loadAll()
        #expect(cases.count > 1000)
        var passed = 0
        var runnable = 0
        var skippedPassed = 0
        var skipped = 0
        var unexpected: [String] = []
        var details: [String] = []
        for yogaCase in cases {
            let mismatches = try YogaFixtures.run(yogaCase)
            if yogaCase.isSkippedUpstream {
                skipped += 1
                if mismatches.isEmpty { skippedPassed += 1 }
                continue
            }
            runnable += 1
            if mismatches.isEmpty {
                passed += 1
            } else if Self.knownFailures[yogaCase.name] == nil {
                unexpected.append(yogaCase.name)
                if details.count < 40 {
                    details.append("\(yogaCase.file) \(yogaCase.name): " + mismatches.prefix(3).map(\.description).joined(separator: "; "))
                }
            }
        }
        print("\(passed)/\(runnable) Yoga cases pass")
        print("\(skippedPassed)/\(skipped) skipped-upstream cases pass too")
        for line in details { print("FAIL " + line) }
        #expect(unexpected.isEmpty, "unexpected failures: \(unexpected.count): \(unexpected.prefix(50))")
        // A case listed as a known failure that now passes should leave the list.
        let fixed = cases.filter { Self.knownFailures[$0.name] != nil }
            .filter { (try? YogaFixtures.run($0).isEmpty) == true }.map(\.name)
        #expect(fixed.isEmpty, "known failures that pass now: \(fixed)")
    }
}
