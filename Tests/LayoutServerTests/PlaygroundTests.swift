import Foundation
import LayoutServer
import Testing

/// The playground page at `/` and its assets under `/playground/`, against a live server. (The
/// page's behaviour in a browser is Tests/Scripts/playground_browser.py.)
@Suite struct PlaygroundTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/LayoutServer/Playground")

    @Test func rootAnswersThePage() throws {
        try LiveServer.with { server in
            let response = try server.get("/")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/html; charset=utf-8")
            #expect(response.text.contains("<title>layoutd playground</title>"))
            #expect(response.text.contains(#"<script type="module" src="/playground/main.js">"#))
            #expect(response.header("Cache-Control") == "no-cache")
            #expect(response.header("Content-Security-Policy")?.hasPrefix("default-src 'self'") == true)
        }
    }

    /// Every file of the folder is served, byte for byte, with the type of its extension: the
    /// build plugin embedded all of them and the binary serves the ones on disk.
    @Test func everyFileIsServedAsOnDiskWithItsType() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }
        #expect(names.contains("index.html") && names.contains("main.js") && names.contains("playground.css"))
        let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
                     "css": "text/css; charset=utf-8"]
        try LiveServer.with { server in
            for name in names {
                let path = name == "index.html" ? "/" : "/playground/" + name
                let response = try server.get(path)
                let onDisk = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
                #expect(response.status == 200, "\(path)")
                #expect(response.body == onDisk, "\(path) differs from \(name) on disk")
                #expect(response.header("Content-Type") == types[String(name.split(separator: ".").last!)], "\(path)")
                #expect(response.header("X-Content-Type-Options") == "nosniff", "\(path)")
            }
        }
    }

    @Test func theEntityTagRevalidates() throws {
        try LiveServer.with { server in
            let first = try server.get("/playground/main.js")
            let tag = try #require(first.header("ETag"))
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 18)
            let again = try server.client.send("GET", "/playground/main.js", headers: [("If-None-Match", tag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == tag)
            let other = try server.client.send("GET", "/playground/main.js", headers: [("If-None-Match", #""0000000000000000""#)])
            #expect(other.status == 200)
            #expect(try server.get("/").header("ETag") != tag, "the page and an asset share a tag")
        }
    }

    @Test func headAnswersHeadersOnly() throws {
        try LiveServer.with { server in
            let response = try server.get("/playground/playground.css", method: "HEAD")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/css; charset=utf-8")
            #expect(response.body.isEmpty)
        }
    }

    @Test func unknownAssetsAndOtherMethodsAreRefused() throws {
        try LiveServer.with { server in
            let missing = try server.get("/playground/nothing.js")
            #expect(missing.status == 404)
            #expect(missing.error?["code"] as? String == "not-found")
            #expect(try server.get("/playground/").status == 404)
            #expect(try server.get("/index.html").status == 404)
            let post = try server.post("/", json: "{}")
            #expect(post.status == 405)
            #expect(post.header("Allow") == "GET, HEAD")
        }
    }
}
