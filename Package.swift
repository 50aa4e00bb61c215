// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "layout-service",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "LayoutEngine", targets: ["LayoutEngine"]),
        .library(name: "LayoutWire", targets: ["LayoutWire"]),
        .library(name: "LayoutRender", targets: ["LayoutRender"]),
        // For the fuzzers in Fuzz/ (a separate package that depends on this one by path).
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "TestSupport", targets: ["TestSupport"]),
        .library(name: "LayoutTestSupport", targets: ["LayoutTestSupport"]),
        .library(name: "LayoutServer", targets: ["LayoutServer"]),
        .executable(name: "layoutd", targets: ["layoutd"]),
        .executable(name: "layout-bench", targets: ["layout-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // The shared layout engine: pure Swift, no Foundation, no dependencies.
        .target(name: "LayoutEngine"),
        // The package's one lock (`Locked`), for HTTPServer, LayoutWire and LayoutServer.
        .target(name: "SyncSupport"),
        // JSON wire format <-> engine trees, with validation errors that carry JSON pointers.
        .target(name: "LayoutWire", dependencies: ["LayoutEngine", "SyncSupport", "LayoutTextModel"]),
        // What a text leaf says (spans and resolved text styles): plain values, no dependencies,
        // shared by LayoutWire (which decodes them) and LayoutText (which lays them out).
        .target(name: "LayoutTextModel"),
        // System libraries for text: HarfBuzz (libharfbuzz-dev), FreeType (libfreetype-dev) and
        // ICU (libicu-dev; called through CTextShim, which hides ICU's versioned symbol names).
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CICU", path: "Sources/CICU", pkgConfig: "icu-uc",
                       providers: [.apt(["libicu-dev"])]),
        .target(name: "CTextShim", dependencies: ["CICU"]),
        // Text layout: fonts, shaping, line breaking and measurement, with the DejaVu fonts as a
        // resource bundle (found beside the executable, as in the Docker image).
        .target(name: "LayoutText", dependencies: ["LayoutTextModel", "SyncSupport", "CHarfBuzz", "CFreeType", "CTextShim"],
                resources: [.copy("Fonts")]),
        // zlib, from the system (zlib1g-dev), for gzip request and response bodies.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // OpenSSL 3, from the system (libssl-dev), for optional TLS in HTTPServer.
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL"),
        // epoll and eventfd (Linux), for HTTPServer's event loops.
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        // hiredis, from the system (libhiredis-dev), for the shared cache in Redis.
        .systemLibrary(name: "CHiredis", path: "Sources/CHiredis",
                       providers: [.apt(["libhiredis-dev"])]),
        // A pooled Redis client over hiredis with timeouts and a circuit breaker; knows nothing of layout.
        .target(name: "SharedCache", dependencies: ["CHiredis", "SyncSupport"]),
        // HTTP/1.1 on plain sockets, epoll event loops or Dispatch; knows nothing about layout.
        .target(name: "HTTPServer", dependencies: ["CZlib", "COpenSSL", "CEpoll", "SyncSupport"]),
        // cairo with its FreeType font backend (cairo-ft, which brings FreeType's headers), from
        // the system (libcairo2-dev), for PNG pictures in LayoutRender.
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo-ft",
                       providers: [.apt(["libcairo2-dev"])]),
        // Pictures of laid-out requests: one picture model, written as SVG or rasterised by cairo.
        .target(name: "LayoutRender", dependencies: ["LayoutWire", "LayoutEngine", "LayoutTextModel", "SyncSupport", "CCairo", "CZlib"]),
        // Routes, cache, configuration, metrics and logging of the layout service.
        .target(name: "LayoutServer", dependencies: [
            "HTTPServer", "LayoutWire", "LayoutEngine", "LayoutRender", "SyncSupport", "LayoutText", "LayoutTextModel", "SharedCache",
            .product(name: "Logging", package: "swift-log"),
        ], exclude: ["Playground"], plugins: ["EmbedOpenAPI", "EmbedPlayground"]),
        // openapi.yaml compiled into LayoutServer (served at /openapi.yaml), at build time.
        .plugin(name: "EmbedOpenAPI", capability: .buildTool(), dependencies: ["embed-text"]),
        // The playground page (Sources/LayoutServer/Playground, served at /), at build time.
        .plugin(name: "EmbedPlayground", capability: .buildTool(), dependencies: ["embed-text"]),
        .executableTarget(name: "embed-text"),
        .executableTarget(name: "layoutd", dependencies: [
            "LayoutServer", "LayoutWire", "LayoutEngine", "LayoutRender",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(
            name: "layout-bench",
            dependencies: ["LayoutEngine", "LayoutWire"],
            path: "Benchmarks/layout-bench",
            exclude: ["instructions.sh"]
        ),
        // LayoutWire decode vs Foundation; not run by CI.
        .executableTarget(name: "wire-bench", dependencies: ["LayoutWire", "LayoutEngine", "LayoutServer", "HTTPServer"],
                          path: "Benchmarks/wire-bench", exclude: ["instructions.sh"]),
        // Pictures of a 1,000-node tree (SVG, PNG) beside its layout; not run by CI.
        .executableTarget(name: "render-bench", dependencies: ["LayoutRender", "LayoutWire", "LayoutEngine"],
                          path: "Benchmarks/render-bench"),
        // The shaping cache on a feed's text leaves (Benchmarks/text/run.py); not run by CI.
        .executableTarget(name: "text-bench", dependencies: ["LayoutWire", "LayoutText"], path: "Benchmarks/text/text-bench"),
        // Constraint solver vs kiwisolver (kiwi_bench.py, needs `pip install kiwisolver`); not run by CI.
        .executableTarget(name: "solver-bench", dependencies: ["LayoutEngine"], path: "Benchmarks/solver-bench",
                          exclude: ["kiwi_bench.py"]),
        // Shared by the test targets: a seeded generator (TestSupport, no dependencies) and
        // frame and request-decoding helpers (LayoutTestSupport).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .target(name: "LayoutTestSupport", dependencies: ["LayoutEngine", "LayoutWire"], path: "Tests/LayoutTestSupport"),
        .testTarget(
            name: "LayoutEngineTests",
            dependencies: ["LayoutEngine", "LayoutWire", "TestSupport", "LayoutTestSupport"]
        ),
        .testTarget(name: "LayoutWireTests", dependencies: ["LayoutWire", "LayoutEngine", "TestSupport", "LayoutTestSupport",
                                                            "LayoutTextModel"]),
        .testTarget(name: "LayoutTextTests", dependencies: ["LayoutText", "LayoutTextModel"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "SyncSupport", "TestSupport"]),
        // LayoutServer and LayoutText: pictures of text leaves, measured as the service measures them.
        .testTarget(name: "LayoutRenderTests", dependencies: ["LayoutRender", "LayoutWire", "LayoutEngine", "CZlib", "CCairo",
                                                              "LayoutServer", "LayoutText", "LayoutTextModel"]),
        .testTarget(name: "LayoutServerTests", dependencies: [
            "LayoutServer", "HTTPServer", "LayoutWire", "LayoutEngine", "LayoutRender", "LayoutText", "SyncSupport", "SharedCache", "RedisTestSupport",
            "TestSupport", "LayoutTestSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Starts a private redis-server for the tests that need one (skipped without it).
        .target(name: "RedisTestSupport", dependencies: ["SharedCache"], path: "Tests/RedisTestSupport"),
        .testTarget(name: "SharedCacheTests", dependencies: ["SharedCache", "SyncSupport", "RedisTestSupport"]),
        .testTarget(name: "LayoutdTests", dependencies: ["layoutd", "LayoutServer"]),
    ],
    swiftLanguageModes: [.v6]
)
