// One example tree per layout model, with the available width it is shown at. The text
// example is offered only when the server lays out text (it answers `GET /fonts`).

export const examples = [
  {
    name: "flex",
    title: "flex — a card (FlexLayout / Yoga)",
    width: 360,
    tree: {
      id: "card",
      style: { flexDirection: "column", padding: 16, gap: 12 },
      children: [
        {
          id: "header",
          style: { flexDirection: "row", alignItems: "center", gap: 12 },
          children: [
            { id: "avatar", style: { width: 48, height: 48 } },
            { id: "title", style: { flexGrow: 1, height: 20 } },
          ],
        },
        { id: "body", style: { height: 80 } },
        {
          id: "actions",
          style: { flexDirection: "row", justifyContent: "flex-end", gap: 8 },
          children: [
            { id: "cancel", style: { width: 72, height: 32 } },
            { id: "ok", style: { width: 72, height: 32 } },
          ],
        },
      ],
    },
  },
  {
    name: "stack",
    title: "stack — three buttons spaced between (StackViewLayout)",
    width: 240,
    tree: {
      type: "stack", id: "buttons", direction: "row", justifyContent: "spaceBetween", padding: 10,
      children: [
        { type: "stack-item", id: "b1", sizeThatFits: { width: 60, height: 40 }, shrink: 1 },
        { type: "stack-item", id: "b2", sizeThatFits: { width: 60, height: 40 }, shrink: 1, margin: { left: 10 } },
        { type: "stack-item", id: "b3", sizeThatFits: { width: 60, height: 30 }, alignSelf: "center" },
      ],
    },
  },
  {
    name: "core-layout",
    title: "core-layout — a bar and an icon in a column (Core Layout)",
    width: 160,
    tree: {
      type: "core-layout", identifier: "root", container: { primaryAxis: "vertical" }, padding: 8,
      children: [
        { type: "core-layout", identifier: "bar", size: { minHeight: 44 } },
        { type: "core-layout", identifier: "icon", size: { mode: "absolute", width: 44, height: 44 }, margin: { top: 8 } },
      ],
    },
  },
  {
    name: "constraints",
    title: "constraints — an icon and a title after it (Auto Layout)",
    width: 320,
    tree: {
      type: "constraints", id: "row", style: { height: 60 },
      items: [{ id: "icon" }, { id: "title", intrinsicSize: { width: 120, height: 20 } }],
      constraints: [
        "icon.leading == container.leading + 16",
        "icon.width == 40",
        "icon.height == 40",
        "icon.centerY == container.centerY",
        { first: "title.leading", second: "icon.trailing", constant: 8, priority: 750, label: "title after icon" },
        "title.centerY == icon.centerY",
        "title.trailing <= container.trailing - 16",
      ],
    },
  },
  {
    name: "fixflex",
    title: "fixflex — a table cell (FixFlex)",
    width: 320,
    tree: {
      type: "fixflex", id: "cell", style: { height: 74 },
      items: [
        { id: "icon" },
        { id: "title", intrinsicSize: { width: 150, height: 24 } },
        { id: "subtitle", intrinsicSize: { width: 200, height: 22 } },
        { id: "chevron" },
      ],
      stacks: [
        { axis: "h", intents: [15, { kind: "fix", view: "icon", value: 44 }, 15, { kind: "flex", views: ["title", "subtitle"] }, 15, { kind: "fix", view: "chevron", value: 20 }, 15] },
        { axis: "v", intents: [15, { kind: "fix", view: "icon", value: 44 }, { kind: "flex", min: 15 }] },
        { axis: "v", intents: [15, { kind: "flex", view: "title" }, { kind: "flex", view: "subtitle" }, 15] },
        { axis: "v", intents: [{ kind: "fill" }, { kind: "fix", view: "chevron", value: 30 }, { kind: "fill" }] },
      ],
    },
  },
  {
    name: "flexible-spaces",
    title: "flexible-spaces — free space split 2 : 1 : 2 (FlexibleLayout)",
    width: 200,
    tree: {
      type: "flexible-spaces", id: "column", style: { height: 200 },
      items: [
        { id: "first", intrinsicSize: { width: 50, height: 40 } },
        { id: "second", intrinsicSize: { width: 50, height: 40 } },
      ],
      constraints: ["first.centerX == container.centerX", "second.centerX == container.centerX"],
      groups: [{
        axis: "v",
        spaces: [
          { from: "container.top", to: "first.top", coefficient: 2 },
          { from: "first.bottom", to: "second.top", coefficient: 1 },
          { from: "second.bottom", to: "container.bottom", coefficient: 2 },
        ],
      }],
    },
  },
];

export const textExample = {
  name: "text",
  title: "text — a title and a paragraph (shaped with the server's fonts)",
  width: 280,
  tree: {
    id: "card",
    style: { flexDirection: "column", padding: 12, gap: 6, fontSize: 14 },
    children: [
      { id: "title", text: "Layout as a service", style: { fontSize: 20, fontWeight: 700 } },
      { id: "body", text: "Send a tree as JSON, get every box's frame back: flexbox, stacks, constraints and text." },
    ],
  },
};

/** The text an example puts in the editor. */
export function exampleText(example) {
  return JSON.stringify(example.tree, null, 2);
}
