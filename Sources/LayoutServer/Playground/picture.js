// The picture: one absolutely positioned div per box of `/compute`'s answer, nested as the
// tree is (frames are relative to the parent), each tied to its node in the request by a
// JSON pointer so hovering shows the node and clicking selects its text.

/** The boxes of `answer` ({root: frames}) for the request tree `tree` (the editor's parsed
 *  JSON), as one element, and the boxes drawn; `onHover(box|null)` and `onSelect(box)` get a
 *  box: {element, id, pointer, frame, absolute, style}. A text leaf's `lines` (asked for with
 *  `"textLines": true`) are written inside its box where they were measured. */
export function drawPicture(answer, tree, { onHover, onSelect, direction = "ltr" }) {
  const canvas = document.createElement("div");
  canvas.className = "canvas";
  const root = answer.root;
  canvas.style.width = `${Math.max(0, root.left + root.width)}px`;
  canvas.style.height = `${Math.max(0, root.top + root.height)}px`;
  const boxes = new Map();
  // `pointer` is the JSON the box stands for (selected on click); `base` is where its
  // children are described (the same, except for an item with a nested node).
  const place = (frame, { node, pointer, base = pointer }, parent, origin, depth) => {
    const element = document.createElement("div");
    element.className = "box";
    element.style.left = `${frame.left}px`;
    element.style.top = `${frame.top}px`;
    element.style.width = `${frame.width}px`;
    element.style.height = `${frame.height}px`;
    element.style.setProperty("--hue", String((205 + depth * 47) % 360));
    element.dataset.pointer = pointer;
    if (frame.id !== undefined) element.dataset.id = frame.id;
    const absolute = { left: origin.left + frame.left, top: origin.top + frame.top };
    const lines = Array.isArray(frame.lines) ? drawLines(frame, node, direction) : null;
    if (lines) element.append(lines.element);
    const corner = frame.id === undefined ? null
      : labelCorner(frame, String(frame.id), [...(frame.children ?? []), ...(lines?.boxes ?? [])]);
    if (corner) {
      const label = document.createElement("span");
      label.className = `label ${corner}`;
      label.textContent = frame.id;
      element.append(label);
    }
    boxes.set(element, {
      element, id: frame.id, pointer, depth,
      frame: { left: frame.left, top: frame.top, width: frame.width, height: frame.height },
      absolute: { ...absolute, width: frame.width, height: frame.height },
      style: styleOf(node),
    });
    parent.append(element);
    const children = childNodes(node, base);
    (frame.children ?? []).forEach((child, i) => {
      place(child, children[i] ?? { pointer: `${base}/children/${i}` }, element, absolute, depth + 1);
    });
  };
  place(root, { node: tree, pointer: "" }, canvas, { left: 0, top: 0 }, 0);

  // The innermost box under the pointer is the one hovered, not its ancestors too.
  let hovered = null;
  canvas.addEventListener("mouseover", (event) => {
    const element = event.target.closest(".box");
    if (element === hovered) return;
    hovered?.classList.remove("hover");
    hovered = element;
    hovered?.classList.add("hover");
    onHover(hovered ? boxes.get(hovered) : null);
  });
  canvas.addEventListener("mouseleave", () => {
    hovered?.classList.remove("hover");
    hovered = null;
    onHover(null);
  });
  canvas.addEventListener("click", (event) => {
    const element = event.target.closest(".box");
    if (!element) return;
    canvas.querySelectorAll(".box.selected").forEach((box) => box.classList.remove("selected"));
    element.classList.add("selected");
    onSelect(boxes.get(element));
  });
  return { canvas, boxes: [...boxes.values()] };
}

/** A text leaf's lines, each its text in a small font clipped to its line box, placed in the
 *  leaf's content box (`lines` are relative to it); and the line boxes in the leaf's frame. */
function drawLines(frame, node, direction) {
  const inset = contentInset(node?.style, direction);
  const element = document.createElement("div");
  element.className = "text-lines";
  element.style.left = `${inset.left}px`;
  element.style.top = `${inset.top}px`;
  const boxes = [];
  for (const line of frame.lines) {
    const span = document.createElement("span");
    span.className = "text-line";
    span.textContent = line.text;
    span.dir = direction;
    span.style.left = `${line.left}px`;
    span.style.top = `${line.top}px`;
    span.style.width = `${line.width}px`;
    span.style.height = `${line.height}px`;
    span.style.lineHeight = `${line.height}px`;
    span.style.fontSize = `${Math.max(7, Math.min(13, Math.round(line.height * 0.6)))}px`;
    element.append(span);
    boxes.push({ left: inset.left + line.left, top: inset.top + line.top, width: line.width, height: line.height });
  }
  return { element, boxes };
}

/** The padding and border left of and above a node's content box, from the fixed lengths of
 *  its style. A percentage counts as 0 here (the width it resolves against, the parent's
 *  content box, is not in the answer), so lines under percentage padding are drawn offset
 *  by it; the service itself places them right. */
function contentInset(style, direction) {
  const s = style && typeof style === "object" ? style : {};
  const first = (...keys) => {
    for (const key of keys) if (s[key] !== undefined) return typeof s[key] === "number" ? s[key] : 0;
    return 0;
  };
  const leading = direction === "rtl" ? "End" : "Start";
  return {
    left: first("paddingLeft", `padding${leading}`, "paddingHorizontal", "padding")
      + first("borderLeftWidth", `border${leading}Width`, "borderWidth"),
    top: first("paddingTop", "paddingVertical", "padding") + first("borderTopWidth", "borderWidth"),
  };
}

/** The corner of a box where its id fits without covering a child or a line of text
 *  ("top-left", ...), or null. */
function labelCorner(frame, text, covering) {
  const width = Math.min(text.length * labelCharacterWidth + 4, frame.width);
  const height = labelLineHeight + 2;
  if (frame.width < 20 || frame.height < height) return null;
  const corners = {
    "top-left": [0, 0], "bottom-left": [0, frame.height - height],
    "top-right": [frame.width - width, 0], "bottom-right": [frame.width - width, frame.height - height],
  };
  for (const [name, [x, y]] of Object.entries(corners)) {
    const covered = covering.some((c) =>
      c.left < x + width && c.left + c.width > x && c.top < y + height && c.top + c.height > y);
    if (!covered) return name;
  }
  return null;
}

// The label font's metrics (10px monospace, 12px lines; see playground.css).
const labelCharacterWidth = 6.1;
const labelLineHeight = 12;

/** The request nodes whose frames come back as a node's children, with the pointer of the
 *  JSON each stands for: `children` of flex, stack and Core Layout nodes; `items` of the
 *  constraint kinds (an item's nested `node`, when it has one, holds its own children). */
function childNodes(node, pointer) {
  if (!node || typeof node !== "object") return [];
  if (Array.isArray(node.children)) {
    return node.children.map((child, i) => ({ node: child, pointer: `${pointer}/children/${i}` }));
  }
  if (Array.isArray(node.items)) {
    return node.items.map((item, i) => {
      const itemPointer = `${pointer}/items/${i}`;
      if (item && typeof item.node === "object" && item.node !== null) {
        return { node: item.node, pointer: itemPointer, base: `${itemPointer}/node` };
      }
      return { node: item, pointer: itemPointer };
    });
  }
  return [];
}

/** What to show of a node: its `style`, and the other members that shape it (a stack's
 *  `direction`, a Core Layout `size`, an item's `intrinsicSize`), without its children. */
function styleOf(node) {
  if (!node || typeof node !== "object") return null;
  const shown = {};
  for (const [key, value] of Object.entries(node)) {
    if (!structuralKeys.has(key)) shown[key] = value;
  }
  const keys = Object.keys(shown);
  return keys.length === 1 && keys[0] === "style" ? shown.style : shown;
}

const structuralKeys = new Set(["id", "identifier", "children", "items", "node", "constraints", "stacks", "groups"]);
