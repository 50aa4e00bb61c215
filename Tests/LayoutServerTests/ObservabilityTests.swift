import LayoutEngine
import Logging
import Testing
@testable import LayoutServer

@Suite struct ObservabilityTests {
    // @unchecked: the logger writes synchronously on the test's own thread.
    final class Lines: @unchecked Sendable {
        var lines: [String] = []
    }

    @Test func logfmtLinesQuoteWhatNeedsQuoting() {
        let lines = Lines()
        var logger = Logger(label: "t") { LogfmtLogHandler(label: $0, level: .info, sink: { lines.lines.append($0) }) }
        logger.logLevel = .info
        logger.info("request", metadata: ["path": "/compute", "note": "two words", "q": "a\"b"])
        logger.debug("not shown")
        #expect(lines.lines.count == 1)
        let line = lines.lines[0]
        #expect(line.hasPrefix("ts="))
        #expect(line.hasSuffix("\n"))
        #expect(line.contains(" level=info logger=t msg=request "))
        #expect(line.contains(#" note="two words""#))
        #expect(line.contains(#" path=/compute"#))
        #expect(line.contains(#" q="a\"b""#))
    }

    @Test func histogramBucketsAreCumulative() {
        let metrics = ServiceMetrics()
        metrics.record(route: .compute, status: 200, seconds: 0.0002)
        metrics.record(route: .compute, status: 200, seconds: 0.003)
        metrics.record(route: .compute, status: 422, seconds: 20)
        let text = PrometheusRenderer.render(.init(metrics: metrics, cache: .init(), cacheCapacityBytes: 1,
                                                   openConnections: 0))
        #expect(text.contains(#"_bucket{route="/compute",le="0.0001"} 0"#))
        #expect(text.contains(#"_bucket{route="/compute",le="0.00025"} 1"#))
        #expect(text.contains(#"_bucket{route="/compute",le="0.005"} 2"#))
        #expect(text.contains(#"_bucket{route="/compute",le="10"} 2"#))
        #expect(text.contains(#"_bucket{route="/compute",le="+Inf"} 3"#))
        #expect(text.contains(#"layoutd_http_requests_total{route="/compute",status="422"} 1"#))
        // Every sample line belongs to a family announced by # TYPE.
        let families = Set(text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] })
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let name = line.prefix { $0 != "{" && $0 != " " }
            let family = families.first { name == $0 || name == $0 + "_bucket" || name == $0 + "_sum" || name == $0 + "_count" }
            #expect(family != nil, "\(line)")
        }
    }

    @Test func entityTagsMatchLikeIfNoneMatch() {
        let tag = EntityTag(structure: .init(high: 1, low: 2), ids: ["a", nil])
        #expect(tag.matches(ifNoneMatch: tag.quoted))
        #expect(tag.matches(ifNoneMatch: "*"))
        #expect(tag.matches(ifNoneMatch: "\"x\" , W/\(tag.quoted)"))
        #expect(!tag.matches(ifNoneMatch: "\"x\""))
        #expect(EntityTag(structure: .init(high: 1, low: 2), ids: ["a", nil]) == tag)
        #expect(EntityTag(structure: .init(high: 1, low: 2), ids: [nil, "a"]) != tag)
        #expect(EntityTag(structure: .init(high: 1, low: 2), ids: ["", nil]) != EntityTag(structure: .init(high: 1, low: 2), ids: [nil, nil]))
    }
}

@Suite struct ServiceMetricsTableTests {
    @Test func countsByRouteAndStatusIncludingUnusualStatuses() {
        let metrics = ServiceMetrics()
        metrics.record(route: .compute, status: 200, seconds: 0.001)
        metrics.record(route: .compute, status: 200, seconds: 0.002)
        metrics.record(route: .healthz, status: 404, seconds: 0.001)
        metrics.record(route: .other, status: 799, seconds: 0.001)
        #expect(metrics.requestCount(route: .compute, status: 200) == 2)
        #expect(metrics.requestCount(route: .compute, status: 404) == 0)
        #expect(metrics.requestCount(route: .healthz, status: 404) == 1)
        #expect(metrics.requestCount(route: .other, status: 799) == 1)
        let snapshot = metrics.snapshot()
        #expect(snapshot.requests[.compute] == [200: 2])
        #expect(snapshot.requests[.other] == [799: 1])
        #expect(snapshot.requests[.metrics] == nil)
        #expect(snapshot.latency[.compute]?.count == 2)
        #expect(snapshot.latency[.openapi] == nil)
    }
}
