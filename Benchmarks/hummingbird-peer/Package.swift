// swift-tools-version:6.0
// A minimal Hummingbird 2 server for Benchmarks/load/run.sh: the peer the layout service is
// compared with. Its OWN package, never a dependency of the service.
import PackageDescription

let package = Package(
    name: "hummingbird-peer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    ],
    targets: [
        .executableTarget(name: "hummingbird-peer", dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
    ]
)
