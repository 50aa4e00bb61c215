// The share link: the editor's text, the available width and the direction in the URL
// fragment (`#tree=<base64url of the UTF-8 text>&width=320&direction=rtl`), never sent to
// the server.

/** The fragment that reproduces `state` ({text, width, direction}). */
export function fragmentOf({ text, width, direction }) {
  const params = new URLSearchParams();
  params.set("tree", base64url(new TextEncoder().encode(text)));
  params.set("width", String(width));
  if (direction !== "ltr") params.set("direction", direction);
  return "#" + params.toString();
}

/** The state a fragment carries, or null when it carries no tree (or an unreadable one). */
export function stateOf(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  const tree = params.get("tree");
  if (!tree) return null;
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(unbase64url(tree));
  } catch {
    return null;
  }
  const width = Number(params.get("width"));
  return {
    text,
    width: Number.isFinite(width) && width > 0 ? width : null,
    direction: params.get("direction") === "rtl" ? "rtl" : "ltr",
  };
}

function base64url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function unbase64url(text) {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
