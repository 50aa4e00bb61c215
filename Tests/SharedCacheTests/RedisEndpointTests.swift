import SharedCache
import Testing

@Suite struct RedisEndpointTests {
    @Test func readsHostPortAndDatabase() {
        #expect(RedisEndpoint(url: "redis://cache:6380/2") == RedisEndpoint(host: "cache", port: 6380, database: 2))
        #expect(RedisEndpoint(url: "redis://127.0.0.1") == RedisEndpoint(host: "127.0.0.1"))
        #expect(RedisEndpoint(url: "redis://[::1]:7000/") == RedisEndpoint(host: "::1", port: 7000))
        #expect(RedisEndpoint(url: "redis://:secret@r:1/0") == RedisEndpoint(host: "r", port: 1, password: "secret"))
        #expect(RedisEndpoint(url: "redis://me:secret@r") == RedisEndpoint(host: "r", user: "me", password: "secret"))
    }

    @Test func refusesWhatIsNotARedisURL() {
        for url in ["", "cache:6379", "http://cache", "redis://", "redis://h:0", "redis://h:70000", "redis://h:x",
                    "redis://h/db", "rediss://h:6379"] {
            #expect(RedisEndpoint(url: url) == nil, "\(url)")
        }
    }

    @Test func descriptionHidesThePassword() {
        #expect(RedisEndpoint(url: "redis://:secret@r:1/3")!.description == "redis://***@r:1/3")
    }
}
