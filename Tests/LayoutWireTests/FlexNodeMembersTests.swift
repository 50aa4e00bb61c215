import LayoutEngine
import Testing
@testable import LayoutWire

/// A patched node's members read straight from the document (`decodeDirectly`) equal what the
/// request decoder makes of them (`decodeAsRequest`), and the direct path leaves every other
/// node to the request decoder.
@Suite struct FlexNodeMembersTests {
    @Test(arguments: 0..<30) func directDecodingMatchesTheRequestDecoder(seed: UInt64) throws {
        var generator = RequestGenerator(seed: seed)
        for webDefaults in [false, true] {
            let config = LayoutConfig(useWebDefaults: webDefaults)
            let text = generator.node(depth: 3)
            guard case .object(let members) = JSONTree(try JSONValue.parse(text)) else {
                Issue.record("not an object: \(text)")
                continue
            }
            let direct = try #require(FlexNodeMembers.decodeDirectly(members, config: config), "\(text)")
            let whole = try #require(FlexNodeMembers.decodeAsRequest(members, config: config, limits: .default), "\(text)")
            #expect(direct.style == whole.style && direct.content == whole.content && direct.id == whole.id
                    && direct.paint == whole.paint, "\(text)")
        }
    }

    /// Members the direct path does not take: the request decoder answers for them (a value, or
    /// nil for what a patch cannot apply in place).
    @Test(arguments: [
        (#"{"style": {"backgroundColor": "red", "width": 3}}"#, true),
        (#"{"style": {"width": {"of": "a"}}}"#, false),
        (#"{"style": {"fontSize": 12}}"#, true),
        (#"{"text": "hi"}"#, false),
        (#"{"measure": {"kind": "intrinsic-text", "text": "a b"}}"#, true),
        (#"{"isIncludedInLayout": false}"#, true),
        (#"{"style": {"width": -1}}"#, false),
        (#"{"style": {"flexDirection": "sideways"}}"#, false),
        (#"{"measure": {"kind": "fixed", "width": 1, "height": 2}, "children": [{}]}"#, false),
        (#"{"type": "stack"}"#, false),
    ]) func otherMembersGoToTheRequestDecoder(text: String, decodes: Bool) throws {
        guard case .object(let members) = JSONTree(try JSONValue.parse(text)) else { throw WireError.syntax("not an object", at: 0) }
        #expect(FlexNodeMembers.decodeDirectly(members, config: LayoutConfig()) == nil)
        let answer = FlexNodeMembers.decode(.object(members), config: LayoutConfig(), limits: .default)
        #expect((answer != nil) == decodes, "\(text)")
    }
}
