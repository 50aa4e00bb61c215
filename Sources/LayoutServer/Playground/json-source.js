// Where each value of a JSON text is: a map from JSON pointer (RFC 6901) to the value's text
// range, so an error's pointer from the service can be shown at its place in the editor.

/** The text ranges of every value in `text`, by pointer: {start, end, keyStart}. Parsing
 *  stops at the first syntax error; the values before it keep their ranges. */
export function valueRanges(text) {
  const ranges = new Map();
  let i = 0;
  const space = () => { while (i < text.length && " \t\r\n".includes(text[i])) i++; };
  const fail = () => { throw new SyntaxError(`unexpected input at ${i}`); };
  const expect = (c) => { space(); if (text[i] !== c) fail(); i++; };

  const string = () => {
    space();
    const start = i;
    if (text[i] !== '"') fail();
    for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    if (i >= text.length) fail();
    i++;
    return JSON.parse(text.slice(start, i));
  };

  const value = (pointer, keyStart) => {
    space();
    const start = i;
    if (text[i] === "{") {
      i++; space();
      if (text[i] === "}") i++;
      else for (;;) {
        space();
        const memberStart = i;
        const key = string();
        expect(":");
        value(pointer + "/" + escapeToken(key), memberStart);
        space();
        if (text[i] === ",") { i++; continue; }
        expect("}");
        break;
      }
    } else if (text[i] === "[") {
      i++; space();
      if (text[i] === "]") i++;
      else for (let index = 0; ; index++) {
        value(pointer + "/" + index);
        space();
        if (text[i] === ",") { i++; continue; }
        expect("]");
        break;
      }
    } else if (text[i] === '"') {
      string();
    } else {
      while (i < text.length && /[-+.\w]/.test(text[i])) i++;
      if (i === start) fail();
    }
    // A duplicate key keeps its first range, as the service points at the first.
    if (!ranges.has(pointer)) ranges.set(pointer, { start, end: i, keyStart: keyStart ?? start });
  };

  try { value(""); } catch (error) { if (!(error instanceof SyntaxError)) throw error; }
  return ranges;
}

/** A pointer's token with `~` and `/` escaped. */
export function escapeToken(key) {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The range of `pointer` in `ranges`, or of its nearest ancestor that has one (a missing key
 *  is shown at its object); `exact` says which. */
export function rangeOf(ranges, pointer) {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf("/"))) {
    const range = ranges.get(p);
    if (range) return { ...range, exact: p === pointer };
    if (p === "") return null;
  }
}

/** The 1-based line and column of a text index. */
export function lineAndColumn(text, index) {
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  return { line, column: index - before.lastIndexOf("\n") };
}

/** The UTF-16 index in `text` of a UTF-8 byte offset (the service counts bytes). */
export function indexOfByteOffset(text, offset) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    if (bytes >= offset) return i;
    const code = text.codePointAt(i);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (code >= 0x10000) i++;
  }
  return text.length;
}
