import LayoutEngine
import LayoutServer
import Testing

/// `--cache-key-secret`: the structural hash (the layout cache's key, and the first half of
/// every ETag) is keyed with it; unset, with a key random per process.
@Suite struct CacheKeySecretTests {
    static let secret = StructuralHashKey(hex: "000102030405060708090a0b0c0d0e0f")!
    /// `RouteTests.rowRequest`'s ETag under `secret`: fixed for a fixed secret in every process.
    // Structural hash format 4 (content-defined chunks; format 3, chunks of 32 nodes, gave
    // e3151920e75d4cd8e202e19acb378e0b; format 2 gave 1a1dc0a421b326f2aeddce9d9af00404).
    // Ids hashed a word at a time (FNV-1a, byte by byte, gave 30c792a6b3a2a1ea).
    static let goldenEntityTag = "\"a4759e820cc2c5c276265d3ede7868b9-00d6d21cd67ba90a\""

    static func entityTag(secret: StructuralHashKey?, json: String = RouteTests.rowRequest) throws -> String {
        try LiveServer.with({ $0.cacheKeySecret = secret }) { server in
            try #require(try server.post("/compute", json: json).header("ETag"))
        }
    }

    @Test func aFixedSecretGivesFixedEntityTags() throws {
        let tag = try Self.entityTag(secret: Self.secret)
        #expect(tag == Self.goldenEntityTag)
        let other = StructuralHashKey(k0: Self.secret.k0 ^ 1, k1: Self.secret.k1)
        let otherTag = try Self.entityTag(secret: other)
        // Only the structural half moves; the ids half is not keyed.
        #expect(otherTag.prefix(33) != Self.goldenEntityTag.prefix(33))
        #expect(otherTag.suffix(18) == Self.goldenEntityTag.suffix(18))
        // Unset: the process's random key, the same for every server in this process.
        let unset = try Self.entityTag(secret: nil)
        #expect(unset == (try Self.entityTag(secret: .processRandom)))
        #expect(unset != Self.goldenEntityTag)
    }

    /// Ids are not part of the key: a tree that differs only in ids is a layout cache hit,
    /// and its ETag shares the structural half.
    @Test func idsDoNotChangeTheKey() throws {
        try LiveServer.with({ $0.cacheKeySecret = Self.secret }) { server in
            let first = try server.post("/compute", json: RouteTests.rowRequest)
            let renamed = try server.post("/compute", json: RouteTests.rowRequest(ids: ("a", "b", "c")))
            #expect(first.status == 200 && renamed.status == 200)
            #expect(server.host.service.cache.statistics.hits == 1)
            let (tag, renamedTag) = (try #require(first.header("ETag")), try #require(renamed.header("ETag")))
            #expect(tag.prefix(33) == renamedTag.prefix(33))
            #expect(tag != renamedTag)
        }
    }

    @Test func theSettingReadsHexOrRandom() throws {
        let set = try ConfigurationSettings.resolve(commandLine: ["cache-key-secret": Self.secret.hexString],
                                                    environment: [:])
        #expect(set.cacheKeySecret == Self.secret)
        let fromEnvironment = try ConfigurationSettings.resolve(
            commandLine: [:], environment: ["LAYOUTD_CACHE_KEY_SECRET": "ffeeddccbbaa99887766554433221100"])
        #expect(fromEnvironment.cacheKeySecret?.hexString == "ffeeddccbbaa99887766554433221100")
        #expect(try ConfigurationSettings.resolve(commandLine: ["cache-key-secret": "random"], environment: [:])
            .cacheKeySecret == nil)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationSettings.resolve(commandLine: ["cache-key-secret": "0123"], environment: [:])
        }
        #expect(ConfigurationSettings.setting("cache-key-secret")?.defaultValue == "random")
    }
}
