// The tree editor: a textarea with line numbers and a layer behind it that marks a range
// (the place an error points at). The layer has the textarea's metrics and follows its scroll.

export class Editor {
  constructor({ source, gutter, marks }) {
    this.source = source;
    this.gutter = gutter;
    this.marks = marks;
    this.mark = null;
    source.addEventListener("input", () => { this.mark = null; this.refresh(); });
    source.addEventListener("scroll", () => this.followScroll());
    // Tab indents (two spaces) instead of leaving the editor; Escape then Tab still leaves.
    let tabLeaves = false;
    source.addEventListener("keydown", (event) => {
      if (event.key === "Escape") { tabLeaves = true; return; }
      const leave = tabLeaves;
      tabLeaves = false;
      if (event.key !== "Tab" || leave || event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return;
      event.preventDefault();
      // Through the editing commands, so undo and the input event work as for typing.
      document.execCommand("insertText", false, "  ");
    });
    this.refresh();
  }

  get text() { return this.source.value; }

  set text(value) {
    this.source.value = value;
    this.mark = null;
    this.refresh();
  }

  /** Marks `[start, end)` (an error's place) and scrolls it into view without moving the
   *  caret, so typing is not interrupted; null clears the mark. */
  showMark(range) {
    this.mark = range && { start: range.start, end: Math.max(range.end, range.start + 1) };
    this.refresh();
    if (this.mark) this.scrollTo(this.mark.start);
  }

  /** Selects `[start, end)` and scrolls it into view (a box clicked in the picture). */
  select(start, end) {
    this.source.focus({ preventScroll: true });
    this.source.setSelectionRange(start, end);
    this.scrollTo(start);
  }

  /** Scrolls so the line of `index` is visible, a few lines from the top when it was not. */
  scrollTo(index) {
    const line = this.text.slice(0, index).split("\n").length - 1;
    const lineHeight = parseFloat(getComputedStyle(this.source).lineHeight);
    const top = line * lineHeight;
    const { scrollTop, clientHeight } = this.source;
    if (top < scrollTop || top + 2 * lineHeight > scrollTop + clientHeight) {
      this.source.scrollTop = Math.max(0, top - 3 * lineHeight);
    }
    this.followScroll();
  }

  refresh() {
    const text = this.text;
    const lines = text.split("\n").length;
    const markLine = this.mark ? text.slice(0, this.mark.start).split("\n").length : 0;
    const numbers = document.createDocumentFragment();
    for (let n = 1; n <= lines; n++) {
      const span = document.createElement("span");
      span.textContent = n;
      if (n === markLine) span.className = "error-line";
      numbers.append(span, "\n");
    }
    this.gutter.replaceChildren(numbers);
    if (this.mark) {
      const mark = document.createElement("mark");
      mark.textContent = text.slice(this.mark.start, this.mark.end) || " ";
      // A trailing newline keeps the layer as tall as the textarea's content.
      this.marks.replaceChildren(text.slice(0, this.mark.start), mark, text.slice(this.mark.end) + "\n");
    } else {
      this.marks.replaceChildren(text + "\n");
    }
    this.followScroll();
  }

  followScroll() {
    this.marks.scrollTop = this.source.scrollTop;
    this.marks.scrollLeft = this.source.scrollLeft;
    this.gutter.scrollTop = this.source.scrollTop;
  }
}
