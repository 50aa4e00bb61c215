// The playground: the editor's tree is posted to `/compute` (debounced) with the width and
// direction of the controls; the answer is drawn beside it, or its error is shown at the
// place its pointer names. Everything goes to this page's own server.

import { Editor } from "./editor.js";
import { drawPicture } from "./picture.js";
import { valueRanges, rangeOf, lineAndColumn, indexOfByteOffset } from "./json-source.js";
import { fragmentOf, stateOf } from "./share.js";
import { examples, textExample, exampleText } from "./examples.js";

const $ = (id) => document.getElementById(id);
const editor = new Editor({ source: $("source"), gutter: $("gutter"), marks: $("marks") });
const picture = $("picture");
const exampleSelect = $("example");
const widthInput = $("width");
const shownExamples = [...examples];
const debounceMilliseconds = 150;

let timer = null;
let latestRequest = 0;
let answersShown = 0;
let selectedPointer = null;
let selectedBox = null;
let drawnBoxes = [];
let errorRange = null;

// MARK: controls

const direction = () => document.querySelector('input[name="direction"]:checked').value;

function setDirection(value) {
  document.querySelector(`input[name="direction"][value="${value}"]`).checked = true;
}

function setWidth(width) {
  if (width > Number(widthInput.max)) widthInput.max = String(Math.ceil(width));
  widthInput.value = String(width);
  $("width-value").value = widthInput.value;
}

function addExampleOption(example) {
  const option = document.createElement("option");
  option.value = example.name;
  option.textContent = example.title;
  exampleSelect.append(option);
}

function loadExample(example) {
  exampleSelect.value = example.name;
  editor.text = exampleText(example);
  setWidth(example.width);
  selectedPointer = null;
  update();
}

function loadState({ text, width, direction }) {
  exampleSelect.value = shownExamples.find((e) => exampleText(e) === text)?.name ?? "";
  editor.text = text;
  if (width) setWidth(width);
  setDirection(direction);
  selectedPointer = null;
  update();
}

function schedule() {
  clearTimeout(timer);
  // An answer still on its way is for an older text: it will not be shown.
  latestRequest++;
  picture.dataset.state = "pending";
  timer = setTimeout(update, debounceMilliseconds);
}

// MARK: computing and showing

/** Posts the tree; the request is the editor's text spliced in as `root`, so the service's
 *  errors (a byte offset, a pointer under `/root`) locate places in that text. */
async function update() {
  clearTimeout(timer);
  const request = ++latestRequest;
  const text = editor.text;
  const prefix = `{"available":{"width":${Number(widthInput.value)},"height":null},` +
    `"direction":"${direction()}","textLines":true,"root":`;
  $("share-link").href = new URL(fragmentOf({ text, width: Number(widthInput.value), direction: direction() }),
    location.href).href;
  picture.dataset.state = "pending";
  const started = performance.now();
  let response, answer;
  try {
    response = await fetch("/compute", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: prefix + text + "\n}",
    });
    answer = await response.json();
  } catch (error) {
    if (request === latestRequest) showError({ message: `no answer from the server (${error.message})` }, "", text);
    return;
  }
  if (request !== latestRequest) return; // a newer edit is on its way
  const milliseconds = (performance.now() - started).toFixed(1);
  if (response.ok && answer.root) {
    showPicture(answer, text);
    const cache = response.headers.get("X-Cache");
    $("status").textContent = `${picture.dataset.boxes} boxes · ${milliseconds} ms${cache ? ` · cache ${cache}` : ""}`;
  } else {
    showError(answer.error ?? { message: `HTTP ${response.status}` }, prefix, text);
    $("status").textContent = `${response.status} · ${milliseconds} ms`;
  }
}

function showPicture(answer, text) {
  let tree = null;
  try { tree = JSON.parse(text); } catch { /* the service read it; draw without styles */ }
  const { canvas, boxes } = drawPicture(answer, tree, { onHover: inspect, onSelect: selectInEditor, direction: direction() });
  picture.replaceChildren(canvas);
  // The selection stays on the same node, with its new frame.
  drawnBoxes = boxes;
  selectedBox = boxes.find((box) => box.pointer === selectedPointer) ?? null;
  selectedBox?.element.classList.add("selected");
  inspect(null);
  errorRange = null;
  editor.showMark(null);
  $("error").hidden = true;
  picture.dataset.boxes = String(boxes.length);
  delete picture.dataset.errorPointer;
  picture.dataset.state = "ok";
  picture.dataset.generation = String(++answersShown);
}

/** Shows the error's message and marks the text its pointer (or byte offset) names. */
function showError(error, prefix, text) {
  $("error-message").textContent = error.code ? `${error.code}: ${error.message}` : error.message;
  errorRange = null;
  if (typeof error.pointer === "string" && (error.pointer === "/root" || error.pointer.startsWith("/root/"))) {
    errorRange = rangeOf(valueRanges(text), error.pointer.slice("/root".length));
  } else if (typeof error.offset === "number") {
    const index = Math.min(Math.max(indexOfByteOffset(prefix + text, error.offset) - prefix.length, 0), text.length);
    errorRange = { start: index, end: index + 1, exact: true };
  }
  const location = $("error-location");
  if (errorRange) {
    const { line, column } = lineAndColumn(text, errorRange.start);
    // A pointer to a member that is not there (a missing key) is shown at its object.
    const place = errorRange.exact ? "" : " (its object)";
    location.textContent = `${error.pointer ?? `byte ${error.offset}`} — line ${line}, column ${column}${place}`;
    location.dataset.line = String(line);
    location.dataset.column = String(column);
    location.hidden = false;
  } else {
    location.textContent = error.pointer ?? "";
    location.hidden = !error.pointer;
  }
  editor.showMark(errorRange);
  $("error").hidden = false;
  picture.dataset.errorPointer = error.pointer ?? "";
  picture.dataset.state = "error";
  picture.dataset.generation = String(++answersShown);
}

// MARK: inspecting and selecting boxes

function inspect(box) {
  box ??= selectedBox;
  const inspector = $("inspector");
  inspector.hidden = !box;
  if (!box) return;
  const { frame, absolute } = box;
  $("inspect-id").textContent = box.id ?? "(no id)";
  $("inspect-pointer").textContent = "/root" + box.pointer;
  $("inspect-frame").textContent = `left ${frame.left}, top ${frame.top}, ${frame.width} × ${frame.height}`;
  $("inspect-absolute").textContent = `x ${absolute.left}, y ${absolute.top}`;
  $("inspect-style").textContent = box.style ? JSON.stringify(box.style, null, 1) : "";
}

/** The box of the innermost node whose JSON holds the caret becomes the selected one. */
function selectAtCaret() {
  const caret = $("source").selectionStart;
  const ranges = valueRanges(editor.text);
  let innermost = null, innermostLength = Infinity;
  for (const box of drawnBoxes) {
    const range = ranges.get(box.pointer);
    if (range && range.start <= caret && caret <= range.end && range.end - range.start < innermostLength) {
      innermost = box;
      innermostLength = range.end - range.start;
    }
  }
  selectedBox?.element.classList.remove("selected");
  selectedBox = innermost;
  selectedPointer = innermost?.pointer ?? null;
  selectedBox?.element.classList.add("selected");
  inspect(null);
}

function selectInEditor(box) {
  selectedBox = box;
  selectedPointer = box.pointer;
  inspect(box);
  const range = valueRanges(editor.text).get(box.pointer);
  if (range) editor.select(range.start, range.end);
}

// MARK: wiring

$("source").addEventListener("input", () => { exampleSelect.value = ""; schedule(); });
widthInput.addEventListener("input", () => { $("width-value").value = widthInput.value; schedule(); });
for (const radio of document.querySelectorAll('input[name="direction"]')) radio.addEventListener("change", update);
exampleSelect.addEventListener("change", () => {
  const example = shownExamples.find((e) => e.name === exampleSelect.value);
  if (example) loadExample(example);
});
// Moving the caret (by key or click, not by a box's click) selects the node it is in.
$("source").addEventListener("keyup", (event) => {
  if (event.key.startsWith("Arrow") || event.key === "Home" || event.key === "End") selectAtCaret();
});
$("source").addEventListener("mouseup", selectAtCaret);
if (navigator.clipboard) {
  const copy = $("copy-link");
  copy.hidden = false;
  copy.addEventListener("click", () => {
    navigator.clipboard.writeText($("share-link").href)
      .then(() => { $("status").textContent = "link copied"; })
      .catch((error) => { $("status").textContent = `could not copy the link (${error.message})`; });
  });
}
$("error-location").addEventListener("click", () => {
  if (errorRange) editor.select(errorRange.start, errorRange.end);
});
window.addEventListener("hashchange", () => {
  const state = stateOf(location.hash);
  if (state) loadState(state);
});

for (const example of examples) addExampleOption(example);
// Text examples only where the server lays out text.
fetch("/fonts").then((response) => {
  if (!response.ok) return;
  shownExamples.push(textExample);
  addExampleOption(textExample);
}).catch(() => {});

const shared = stateOf(location.hash);
if (shared) loadState(shared); else loadExample(examples[0]);
