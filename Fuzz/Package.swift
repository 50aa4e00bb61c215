// swift-tools-version:6.0
// libFuzzer harnesses for the layout service. A separate package so the fuzzing flags never
// touch the main build. Build and run with Fuzz/run.sh (see Fuzz/README.md).
import PackageDescription

// libFuzzer is linked into the harnesses only: the code under test is compiled with coverage
// and AddressSanitizer (Fuzz/run.sh), not with -sanitize=fuzzer, whose libFuzzer would also be
// linked into the root package's build tools (embed-text) and break them.
let linksLibFuzzer: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer"])]

let package = Package(
    name: "layout-fuzz",
    dependencies: [
        .package(name: "layout-service", path: ".."),
    ],
    targets: [
        // The libFuzzer entry point and small helpers shared by the harnesses.
        .target(name: "FuzzSupport"),
        // HTTP/1.1 request parser: arbitrary bytes, fed whole and in random splits.
        .executableTarget(name: "FuzzHTTPParser", dependencies: [
            "FuzzSupport",
            .product(name: "HTTPServer", package: "layout-service"),
            .product(name: "TestSupport", package: "layout-service"),
        ], linkerSettings: linksLibFuzzer),
        // The connection state machine over a socketpair, fed byte-split pipelined requests.
        .executableTarget(name: "FuzzHTTPConnection", dependencies: [
            "FuzzSupport",
            .product(name: "HTTPServer", package: "layout-service"),
            .product(name: "TestSupport", package: "layout-service"),
        ], linkerSettings: linksLibFuzzer),
        // JSON parser + request decoder + engine on whatever decodes.
        .executableTarget(name: "FuzzWireDecoder", dependencies: [
            "FuzzSupport",
            .product(name: "LayoutWire", package: "layout-service"),
            .product(name: "LayoutEngine", package: "layout-service"),
        ], linkerSettings: linksLibFuzzer),
        // FixFlex, FlexibleLayout spacers, constraints, StackView and Core Layout documents,
        // decoded and laid out.
        .executableTarget(name: "FuzzModels", dependencies: [
            "FuzzSupport",
            .product(name: "LayoutWire", package: "layout-service"),
            .product(name: "LayoutEngine", package: "layout-service"),
        ], linkerSettings: linksLibFuzzer),
        // The engine on random valid trees built from the fuzz bytes.
        .executableTarget(name: "FuzzEngine", dependencies: [
            "FuzzSupport",
            .product(name: "LayoutEngine", package: "layout-service"),
        ], linkerSettings: linksLibFuzzer),
        // /compute/patch against the patched document sent whole.
        .executableTarget(name: "FuzzPatch", dependencies: [
            "FuzzSupport",
            .product(name: "LayoutServer", package: "layout-service"),
            .product(name: "LayoutWire", package: "layout-service"),
            .product(name: "LayoutTestSupport", package: "layout-service"),
        ], linkerSettings: linksLibFuzzer),
    ],
    swiftLanguageModes: [.v6]
)
