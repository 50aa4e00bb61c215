#!/usr/bin/env python3
"""Generate text layout vectors with headless Chromium as the oracle.

Text cases come from fixed seeds (one seed per group: Latin with punctuation and hyphens, long
words, runs of spaces, Greek, Cyrillic, Hebrew, Arabic, mixed direction, rich-text spans, and a
grid of every shipped face at several sizes). Each case is one text leaf in a column flex
container of a fixed width (alignItems stretch or flex-start), written as a `/compute` request
in the service's wire format; the baseline, flexclamp (min and max widths of text items) and
fitrow (a row sized to fit its text items) groups put two or three leaves in a row, and the
mixrow group puts text beside boxes and containers that are not text. Every group becomes ONE HTML page that lays out the same boxes in
Chromium, with `@font-face` rules on the DejaVu files of /usr/share/fonts/truetype/dejavu (the
files the service ships) under family names no system font has, so nothing falls back. The
page's script reads each leaf's `getBoundingClientRect()` and, with one Range per character,
the lines: the characters that have a rect, grouped by line, and the extent of their rects.
Results come back through `--dump-dom` in a <pre id="out">. The vectors go to
Tests/Fixtures/text-browser/<group>.json (format: FORMAT.md there), with the Chromium version
and each font file's sha256 in the header.

Usage (Debian):
    apt-get install chromium-headless-shell fonts-dejavu-core && pip install fonttools
    python3 Tests/Scripts/text_browser_vectors.py [--keep-html DIR]
"""
import argparse
import hashlib
import html
import json
import os
import random
import re
import subprocess
import sys
import tempfile

from fontTools.ttLib import TTFont

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "text-browser")
CHROMIUM = ["chromium-headless-shell", "chromium"]

# The six shipped faces: (wire family, weight) -> file.
FACES = {
    ("DejaVu Sans", 400): "DejaVuSans.ttf",
    ("DejaVu Sans", 700): "DejaVuSans-Bold.ttf",
    ("DejaVu Serif", 400): "DejaVuSerif.ttf",
    ("DejaVu Serif", 700): "DejaVuSerif-Bold.ttf",
    ("DejaVu Sans Mono", 400): "DejaVuSansMono.ttf",
    ("DejaVu Sans Mono", 700): "DejaVuSansMono-Bold.ttf",
}
FAMILIES = ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"]
DEFAULT_FAMILY = "DejaVu Sans"
# A family name that no machine has: lists starting with it must fall through to the next name.
MISSING_FAMILY = "Oracle Missing Family"


def css_family(name):
    """The page's @font-face name for a wire family (unique, so no system font can answer)."""
    return "Oracle " + name if name in FAMILIES else name


# --- Text sources ---------------------------------------------------------------------------

LATIN = ("The quick brown fox jumps over the lazy dog. Well-known state-of-the-art e-mail "
         "services don't always agree: (parentheses), [brackets], \"quotes\", 'single', semi;colons, "
         "commas, full stops... question? exclamation! 3.14159 1,000,000 50% off — dashes – and "
         "naïve café résumé coöperate façade. Layout engines measure, break and place text; "
         "browsers shape each word with kerning (AV, To, Wa, Ty, Yo, LT) and hang trailing spaces. "
         "A well-tempered self-contained thirty-two-year-old mother-in-law re-enters.").split()
LONG_WORDS = ["Supercalifragilisticexpialidocious", "antidisestablishmentarianism",
              "pneumonoultramicroscopicsilicovolcanoconiosis", "https://example.com/a/very/long/path?query=value&x=1",
              "Donaudampfschifffahrtsgesellschaftskapitän", "floccinaucinihilipilification",
              "hippopotomonstrosesquippedaliophobia", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
              "user.name+tag@example-domain.org", "0123456789012345678901234567890123456789"]
GREEK = ("Καλημέρα κόσμε! Η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο. Ξεσκεπάζω "
         "την ψυχοφθόρα βδελυγμία. Τάχιστη αλώπηξ βαφής ψημένη γη, δρασκελίζει υπέρ νωθρού κυνός.").split()
CYRILLIC = ("Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация "
            "южных губерний даст мощный толчок подъёму сельского хозяйства. В чащах юга жил бы "
            "цитрус? Да, но фальшивый экземпляр! Быстрая-пребыстрая съёмка — всё чётко.").split()
HEBREW = ("שלום עולם, זהו טקסט לבדיקה של שבירת שורות. דג סקרן שט בים מאוכזב ולפתע מצא חברה. "
          "הקפיצה המהירה של השועל החום מעל הכלב העצלן! עברית נכתבת מימין לשמאל.").split()
ARABIC = ("مرحبا بالعالم هذا نص لاختبار تقسيم الأسطر والتشكيل في المتصفح. نص حكيم له سر قاطع "
          "وذو شأن عظيم مكتوب على ثوب أخضر ومغلف بجلد أزرق. الكتابة العربية من اليمين إلى اليسار.").split()
BIDI_LATIN = ["HarfBuzz", "ICU", "2024", "v1.2", "CSS", "OK", "layoutd", "42"]

SCRIPT_WORDS = {"latin": LATIN, "greek": GREEK, "cyrillic": CYRILLIC, "hebrew": HEBREW, "arabic": ARABIC}


class Coverage:
    """Which code points each shipped face maps (cases must not need a fallback font)."""

    def __init__(self):
        self.cmaps = {face: set(TTFont(os.path.join(FONT_DIR, f)).getBestCmap()) for face, f in FACES.items()}

    def covers(self, face, text):
        cmap = self.cmaps[face]
        return all(ord(c) in cmap or c in "\n" for c in text)


# --- Case generation ------------------------------------------------------------------------

def words_from(rng, words, count, start=None):
    start = rng.randrange(len(words)) if start is None else start
    return [words[(start + i) % len(words)] for i in range(count)]


def join_words(rng, words, space_runs=0.0):
    out = []
    for i, w in enumerate(words):
        if i:
            out.append(" " * (rng.randint(2, 5) if rng.random() < space_runs else 1))
        out.append(w)
    return "".join(out)


def line_height(rng, size, kind=None):
    kind = kind or rng.choice(["normal", "normal", "px", "percent"])
    if kind == "normal":
        return "normal"
    if kind == "px":
        return round(size * rng.uniform(1.0, 2.0) * 2) / 2
    return f"{rng.choice([100, 115, 120, 125, 150, 175, 200])}%"


# Wire keys whose CSS value is the number in px, and those whose value is the same word (or
# number) in CSS.
CSS_PX = {"fontSize": "font-size", "letterSpacing": "letter-spacing", "width": "width",
          "height": "height", "minWidth": "min-width", "maxWidth": "max-width", "paddingLeft": "padding-left",
          "paddingRight": "padding-right", "marginLeft": "margin-left", "columnGap": "column-gap"}
CSS_SAME = {"fontWeight": "font-weight", "textAlign": "text-align", "whiteSpace": "white-space",
            "overflowWrap": "overflow-wrap", "flexDirection": "flex-direction", "alignItems": "align-items",
            "flexGrow": "flex-grow", "flexShrink": "flex-shrink", "flexWrap": "flex-wrap"}


def css_value(key, value):
    """The CSS declaration for a wire style key (text keys and the container's flex keys)."""
    if key == "fontFamily":
        names = value if isinstance(value, list) else [value]
        return "font-family", ", ".join(f'"{css_family(n)}"' for n in names)
    if key == "lineHeight":
        return "line-height", value if isinstance(value, str) else f"{value}px"
    if key in CSS_PX:
        return CSS_PX[key], f"{value}px"
    if key == "maxLines":  # with textOverflow ellipsis: WebKit's line clamp, which Chromium ships
        return "-webkit-line-clamp", f"{value};display:-webkit-box;-webkit-box-orient:vertical;overflow:hidden"
    if key == "textOverflow":
        return "text-overflow", value
    return CSS_SAME[key], str(value)


def css_style(style):
    return ";".join("%s:%s" % css_value(k, v) for k, v in style.items())


def text_leaves(node, inherited=None):
    """(leaf, style it inherits) for every text leaf under `node` (the root's style included)."""
    style = {**(inherited or {}), **node.get("style", {})}
    if "children" not in node:
        return [(node, inherited or {})]
    return [pair for child in node["children"] for pair in text_leaves(child, style)]


def first_leaf(case):
    """The leaf whose lines a case records (id "text")."""
    return next(leaf for leaf, _ in text_leaves(case["request"]["root"]) if leaf["id"] == "text")


def faces_used(case):
    """Every (family, weight) a case's text may be set in: its inherited style and its spans'."""

    def face(style):
        fam = style.get("fontFamily", DEFAULT_FAMILY)
        fam = next(n for n in (fam if isinstance(fam, list) else [fam]) if n in FAMILIES)
        w = style.get("fontWeight", 400)
        return fam, 700 if w in ("bold", 700) else 400

    used = []
    for leaf, inherited in text_leaves(case["request"]["root"]):
        base = {**inherited, **leaf.get("style", {})}
        if isinstance(leaf["text"], str):
            used.append((face(base), leaf["text"]))
        else:
            used += [(face({**base, **span.get("style", {})}), span["text"]) for span in leaf["text"]]
    return used


class Generator:
    def __init__(self, coverage):
        self.coverage = coverage
        self.cases = []

    def make(self, group, n, text, *, family, weight, size, lh="normal", letter=0.0, align="start",
             ws="normal", wrap="normal", width=200, align_items="stretch", direction="ltr", rng=None,
             tags=()):
        """One case. Text keys go on the leaf or (inherited) on the container, as `rng` picks."""
        text_style = {"fontFamily": family, "fontSize": size, "fontWeight": weight, "lineHeight": lh}
        if letter:
            text_style["letterSpacing"] = letter
        if align != "start":
            text_style["textAlign"] = align
        if ws != "normal":
            text_style["whiteSpace"] = ws
        if wrap != "normal":
            text_style["overflowWrap"] = wrap
        if family == DEFAULT_FAMILY and rng and rng.random() < 0.2:
            del text_style["fontFamily"]  # the default family
        container = {"width": width, "flexDirection": "column", "alignItems": align_items}
        leaf_style = {}
        for k, v in text_style.items():
            if rng and rng.random() < 0.35 and k != "lineHeight":
                container[k] = v  # inherited from the container
            else:
                leaf_style[k] = v
        leaf = {"id": "text", "text": text}
        if leaf_style:
            leaf["style"] = leaf_style
        case = {
            "id": f"{group}-{n:03d}",
            "group": group,
            "tags": sorted(set(tags) | {align_items == "stretch" and "stretch" or "fit-content",
                                        f"ws:{ws}", f"wrap:{wrap}", f"align:{align}",
                                        "lh:" + ("normal" if lh == "normal" else "percent" if isinstance(lh, str) else "px")}
                           | ({"letterSpacing"} if letter else set())),
            "request": {
                "config": {"pointScaleFactor": 0, "useWebDefaults": True},
                "available": {"width": None, "height": None},
                "direction": direction,
                "textLines": True,
                "root": {"id": "box", "style": container, "children": [leaf]},
            },
        }
        for face, t in faces_used(case):
            if not self.coverage.covers(face, t):
                return False
        self.cases.append(case)
        return True


def params(rng, **fixed):
    size = fixed.pop("size", None) or rng.choice([rng.randint(10, 32), rng.randint(10, 32), rng.randint(20, 64) / 2])
    p = dict(
        family=rng.choice(FAMILIES), weight=rng.choice([400, 700, 400, "bold", "normal"]), size=size,
        lh=line_height(rng, size),
        letter=0 if rng.random() < 0.7 else rng.choice([0.5, 1, 2, -0.5, 1.5]),
        align=rng.choice(["start", "start", "left", "right", "center", "end", "justify"]),
        ws=rng.choice(["normal"] * 5 + ["nowrap", "pre", "pre-wrap", "pre-line"]),
        wrap=rng.choice(["normal"] * 4 + ["break-word", "anywhere"]),
        width=rng.choice([rng.randint(40, 420), rng.randint(80, 300)]),
        align_items=rng.choice(["stretch", "flex-start"]),
    )
    p.update(fixed)
    return p


def leaf_style(rng, largest, kinds=None):
    """A leaf's own font, size (10 px to `largest`) and lineHeight (of `kinds` when given)."""
    size = rng.randint(10, largest)
    return {"fontFamily": rng.choice(FAMILIES), "fontSize": size, "fontWeight": rng.choice([400, 700]),
            "lineHeight": line_height(rng, size, rng.choice(kinds) if kinds else None)}


def add_box_case(g, group, n, tags, box_style, children):
    """A case of several leaves: `children` of the box of `box_style`. False when a face used
    lacks a character."""
    case = {
        "id": f"{group}-{n:03d}", "group": group, "tags": tags,
        "request": {
            "config": {"pointScaleFactor": 0, "useWebDefaults": True},
            "available": {"width": None, "height": None}, "direction": "ltr", "textLines": True,
            "root": {"id": "box", "style": box_style, "children": children},
        },
    }
    if not all(g.coverage.covers(face, t) for face, t in faces_used(case)):
        return False
    g.cases.append(case)
    return True


def generate(coverage):
    g = Generator(coverage)

    # Every shipped face at sizes across 10-32 px, lineHeight normal: the metrics grid.
    rng = random.Random(9001)
    n = 0
    for (family, weight) in FACES:
        for size in [10, 11, 13, 16, 19, 24, 32]:
            text = join_words(rng, words_from(rng, LATIN, rng.randint(4, 14)))
            g.make("faces", n, text, family=family, weight=weight, size=size, width=rng.randint(90, 360),
                   align_items=["stretch", "flex-start"][n % 2], rng=rng, tags=["face-grid"])
            n += 1

    # Latin with punctuation and hyphens, every parameter drawn.
    rng = random.Random(9002)
    n = 0
    while n < 110:
        p = params(rng)
        text = join_words(rng, words_from(rng, LATIN, rng.randint(1, 24)))
        n += g.make("latin", n, text, rng=rng, **p)

    # Long words (and URLs) against narrow boxes, under every overflowWrap.
    rng = random.Random(9003)
    n = 0
    while n < 36:
        p = params(rng, wrap=["normal", "break-word", "anywhere"][n % 3], width=rng.randint(40, 220))
        words = words_from(rng, LATIN, rng.randint(0, 5)) + [rng.choice(LONG_WORDS)] + words_from(rng, LATIN, rng.randint(0, 4))
        n += g.make("longwords", n, join_words(rng, words), rng=rng, tags=["long-word"], **p)

    # Runs of spaces, leading and trailing spaces and newlines, under every whiteSpace.
    rng = random.Random(9004)
    n = 0
    while n < 45:
        ws = ["normal", "nowrap", "pre", "pre-wrap", "pre-line"][n % 5]
        p = params(rng, ws=ws)
        words = words_from(rng, LATIN, rng.randint(2, 16))
        text = join_words(rng, words, space_runs=0.4)
        if rng.random() < 0.5:
            text = " " * rng.randint(1, 4) + text
        if rng.random() < 0.5:
            text = text + " " * rng.randint(1, 4)
        if rng.random() < 0.6:
            cut = [m.start() for m in re.finditer(" ", text)]
            for i in rng.sample(cut, min(len(cut), rng.randint(1, 3))):
                text = text[:i] + "\n" + text[i + 1:]
        n += g.make("spaces", n, text, rng=rng, tags=["spaces"], **p)

    # Greek and Cyrillic: every face covers them.
    for group, seed in [("greek", 9005), ("cyrillic", 9006)]:
        rng = random.Random(seed)
        n = 0
        while n < 30:
            p = params(rng)
            n += g.make(group, n, join_words(rng, words_from(rng, SCRIPT_WORDS[group], rng.randint(1, 18))),
                        rng=rng, tags=[group], **p)

    # Hebrew (DejaVu Sans only) and Arabic (Sans and Sans Mono), half of them in rtl boxes.
    for group, seed, families in [("hebrew", 9007, ["DejaVu Sans"]), ("arabic", 9008, ["DejaVu Sans", "DejaVu Sans Mono"])]:
        rng = random.Random(seed)
        n = 0
        while n < 30:
            p = params(rng, family=rng.choice(families), direction=rng.choice(["ltr", "rtl"]))
            n += g.make(group, n, join_words(rng, words_from(rng, SCRIPT_WORDS[group], rng.randint(1, 16))),
                        rng=rng, tags=[group, "rtl-script", "dir:" + p["direction"]], **p)

    # Mixed direction: Hebrew or Arabic with Latin words and numbers.
    rng = random.Random(9009)
    n = 0
    while n < 24:
        script = rng.choice(["hebrew", "arabic"])
        p = params(rng, family="DejaVu Sans", direction=rng.choice(["ltr", "rtl"]))
        words = words_from(rng, SCRIPT_WORDS[script], rng.randint(2, 12))
        for _ in range(rng.randint(1, 3)):
            words.insert(rng.randrange(len(words) + 1), rng.choice(BIDI_LATIN))
        n += g.make("bidi", n, join_words(rng, words), rng=rng, tags=["bidi", script, "dir:" + p["direction"]], **p)

    # Rich text: spans that change weight, family or (with lineHeight normal) size.
    rng = random.Random(9010)
    n = 0
    while n < 36:
        p = params(rng)
        spans = []
        for _ in range(rng.randint(2, 4)):
            span = {"text": join_words(rng, words_from(rng, LATIN, rng.randint(1, 6))) + rng.choice([" ", " ", ""])}
            style = {}
            if rng.random() < 0.5:
                style["fontWeight"] = rng.choice([400, 700])
            if rng.random() < 0.35:
                style["fontFamily"] = rng.choice(FAMILIES)
            if p["lh"] == "normal" and rng.random() < 0.35:
                style["fontSize"] = rng.randint(10, 32)
            if style:
                span["style"] = style
            spans.append(span)
        if n % 6 == 0:  # a family list whose first name is missing
            p["family"] = [MISSING_FAMILY, rng.choice(FAMILIES)]
        n += g.make("spans", n, spans, rng=rng, tags=["spans"], **p)
    # Clamping: maxLines with an ellipsis on text that wraps past it (and some that does not).
    rng = random.Random(9012)
    n = 0
    while n < 24:
        p = params(rng, ws="normal", align="start", letter=0)
        text = join_words(rng, words_from(rng, LATIN, rng.randint(4, 30)))
        g.make("clamp", n, text, rng=rng, tags=["clamp"], **p)
        case = g.cases[-1]
        case["request"]["root"]["children"][0].setdefault("style", {}).update(
            {"maxLines": rng.randint(1, 3), "textOverflow": "ellipsis"})
        n += 1

    # Baseline alignment: two or three short text leaves in a row, alignItems baseline, each in
    # its own font, size and lineHeight; the first leaf's lines and every leaf's frame.
    rng = random.Random(9011)
    n = 0
    while n < 30:
        leaves = []
        for k in range(rng.randint(2, 3)):
            style = leaf_style(rng, 32)
            leaves.append({"id": "text" if k == 0 else f"text{k + 1}",
                           "text": join_words(rng, words_from(rng, LATIN, rng.randint(1, 3))), "style": style})
        box = {"width": rng.randint(60, 160) if n % 5 == 4 else 480, "flexDirection": "row", "alignItems": "baseline"}
        n += add_box_case(g, "baseline", n, ["baseline"] + (["wraps"] if n % 5 == 4 else []), box, leaves)

    # Text items with min and max widths in a row of a fixed width (some growing): the flex base
    # size is the max-content width, not clamped by them (CSS Flexbox §9.2 step 3); §9.7 shares
    # the free space from it and scales shrinking by it.
    rng = random.Random(9013)
    n = 0
    while n < 30:
        leaves = []
        for k in range(rng.randint(2, 3)):
            style = leaf_style(rng, 24, ["normal", "px"])
            if k == 0 or rng.random() < 0.4:
                style[rng.choice(["maxWidth", "maxWidth", "minWidth"])] = rng.randint(30, 220)
            if rng.random() < 0.3:
                style["flexGrow"] = rng.choice([1, 2])
            leaves.append({"id": "text" if k == 0 else f"text{k + 1}",
                           "text": join_words(rng, words_from(rng, LATIN, rng.randint(2, 9))), "style": style})
        box = {"width": rng.randint(120, 480), "flexDirection": "row", "alignItems": "flex-start"}
        n += add_box_case(g, "flexclamp", n, ["flex-clamp"], box, leaves)

    # A row with no width (id "row") in a column that does not stretch it, so it is sized to fit
    # its content: min(max-content, max(min-content, the column's width)). Mostly in columns
    # narrower than its text items' min-content widths together, where it grows past the column;
    # one in four wraps (its min-content width is then its widest item's).
    rng = random.Random(9014)
    n = 0
    while n < 30:
        leaves = []
        for k in range(rng.randint(2, 3)):
            style = leaf_style(rng, 24, ["normal", "px"])
            if k > 0 and rng.random() < 0.3:
                style["marginLeft"] = rng.randint(2, 12)
            if rng.random() < 0.15:
                style["flexShrink"] = 0
            words = words_from(rng, LATIN, rng.randint(1, 5))
            if rng.random() < 0.25:
                words.insert(rng.randrange(len(words) + 1), rng.choice(LONG_WORDS[:3]))
            leaves.append({"id": "text" if k == 0 else f"text{k + 1}", "text": join_words(rng, words), "style": style})
        row = {"flexDirection": "row", "alignItems": "flex-start"}
        if rng.random() < 0.4:
            row["paddingLeft"] = row["paddingRight"] = rng.randint(1, 12)
        if rng.random() < 0.3:
            row["columnGap"] = rng.randint(2, 10)
        if n % 4 == 3:  # several lines: as wide as its widest item's min-content width at least
            row["flexWrap"] = "wrap"
        box = {"width": rng.randint(40, 160) if n % 3 else rng.randint(160, 400), "flexDirection": "column",
               "alignItems": "flex-start"}
        n += add_box_case(g, "fitrow", n, ["fit-content-row"], box, [{"id": "row", "style": row, "children": leaves}])

    # Text beside items that are not text: empty boxes (some with a width) and containers
    # holding text, in a row sized to fit (as fitrow) or of a fixed width. CSS gives every item
    # of such a row its min-content contribution (§9.9.1) and its automatic minimum (§4.5).
    rng = random.Random(9015)
    n = 0
    while n < 30:
        items = []
        for k in range(rng.randint(2, 3)):
            words = words_from(rng, LATIN, rng.randint(1, 4))
            if rng.random() < 0.3:
                words.insert(rng.randrange(len(words) + 1), rng.choice(LONG_WORDS[:3]))
            leaf = {"id": "text" if k == 0 else f"text{k + 1}", "text": join_words(rng, words),
                    "style": leaf_style(rng, 24, ["normal", "px"])}
            if k == 0:
                items.append(leaf)
                continue
            if rng.random() < 0.5:
                style = {"height": rng.randint(4, 30)}
                if rng.random() < 0.7:
                    style["width"] = rng.randint(10, 90)
                items.append({"id": f"item{k + 1}", "style": style, "children": []})
            else:
                side = rng.randint(0, 24)
                style = {"flexDirection": rng.choice(["row", "column"]), "paddingLeft": side, "paddingRight": side}
                items.append({"id": f"item{k + 1}", "style": style, "children": [leaf]})
            if rng.random() < 0.25:
                items[-1]["style"]["flexShrink"] = 0
            if rng.random() < 0.2:
                items[-1]["style"]["minWidth"] = rng.randint(0, 40)
        rng.shuffle(items)
        row = {"flexDirection": "row", "alignItems": "flex-start"}
        if n % 2:  # a row of a fixed width
            row["width"] = rng.randint(80, 360)
        box = {"width": rng.randint(40, 160), "flexDirection": "column", "alignItems": "flex-start"}
        n += add_box_case(g, "mixrow", n, ["mixed-row"] + ([] if n % 2 else ["fit-content-row"]), box,
                          [{"id": "row", "style": row, "children": items}])
    return g.cases


# --- The page -------------------------------------------------------------------------------

PAGE_SCRIPT = r"""
const WS = /^[ \t\n\r\f]$/;
function glyphRect(range) {
  // The widest rect of a one-character range; a collapsed space has only empty ones.
  let best = null;
  for (const r of range.getClientRects()) if (!best || r.width > best.width) best = r;
  return best;
}
function fontKey(node) {
  const s = getComputedStyle(node.parentElement);
  return s.fontFamily + "|" + s.fontWeight + "|" + s.fontSize;
}
function measure(leaf) {
  const origin = leaf.getBoundingClientRect();
  const walker = document.createTreeWalker(leaf, NodeFilter.SHOW_TEXT);
  const lines = [];
  let line = null;
  // Where newlines are kept, each one ends a paragraph, and a paragraph with no visible
  // character is still one (empty) line.
  let paragraphHasLine = false, forceNew = false;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const key = fontKey(node), data = node.data;
    // Where white space collapses, a newline is a space like any other; elsewhere it is a
    // forced break, content of neither line.
    const whiteSpace = getComputedStyle(node.parentElement).whiteSpace;
    const keepsNewlines = /^(pre|pre-wrap|pre-line|break-spaces)$/.test(whiteSpace);
    for (let i = 0; i < data.length; i++) {
      const ch = data[i];
      if (ch === "\n" && keepsNewlines) {
        if (!paragraphHasLine) {
          const range = document.createRange();
          range.setStart(node, i); range.setEnd(node, i + 1);
          const r = glyphRect(range);
          lines.push({text: "", tops: {}, top: r ? r.top : NaN, bottom: r ? r.bottom : NaN, ink: []});
        }
        paragraphHasLine = false;
        forceNew = true;
        continue;
      }
      const shown = ch === "\n" ? " " : ch;
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const r = glyphRect(range);
      if (!r) continue;
      const space = WS.test(ch);
      if (space && r.width === 0) continue;  // collapsed (or hanging with no advance)
      // Same font on the same line => same top; a new line starts when a font seen on this
      // line moves down, or a new font's rect centre lies below everything on the line.
      const fresh = !line || forceNew || (key in line.tops ? r.top > line.tops[key] + 0.5
                                               : (r.top + r.bottom) / 2 > line.bottom);
      if (fresh) {
        line = {text: "", tops: {}, top: r.top, bottom: r.bottom, ink: [], pre: whiteSpace === "pre"};
        lines.push(line);
      }
      forceNew = false;
      paragraphHasLine = true;
      if (!(key in line.tops)) line.tops[key] = r.top;
      line.text += shown;
      line.top = Math.min(line.top, r.top);
      line.bottom = Math.max(line.bottom, r.bottom);
      line.ink.push({space, left: r.left, right: r.right});
    }
  }
  return {
    frame: {width: origin.width, height: origin.height},
    origin: origin,
    lines: lines.map(l => {
      // The extent of the line without its trailing white space where that hangs or
      // collapses (everywhere but in white-space: pre).
      let ink = l.ink;
      let end = ink.length;
      while (end > 0 && ink[end - 1].space && !l.pre) end--;
      ink = ink.slice(0, end);
      const left = ink.length ? Math.min(...ink.map(g => g.left)) : 0;
      const right = ink.length ? Math.max(...ink.map(g => g.right)) : 0;
      return {text: l.text, left: left - origin.left, width: right - left,
              top: l.top - origin.top, height: l.bottom - l.top};
    }),
  };
}
async function run() {
  await Promise.all([...document.fonts].map(f => f.load()));
  const out = {fonts: [...document.fonts].map(f => [f.family, f.weight, f.status]), cases: {}};
  for (const box of document.querySelectorAll(".box")) {
    const leaf = box.querySelector('[data-id="text"]');
    const b = box.getBoundingClientRect();
    const p = leaf.parentElement.getBoundingClientRect();
    const m = measure(leaf);
    // Lines past a line clamp are hidden: keep the first ones.
    const clamp = parseInt(getComputedStyle(leaf).webkitLineClamp);
    const clamped = clamp > 0 && m.lines.length > clamp;
    if (clamped) m.lines = m.lines.slice(0, clamp);
    // The leaves after the first: their frames only, relative to their container.
    const others = [...box.querySelectorAll("[data-id]")].filter(el => !["text", "row"].includes(el.dataset.id)).map(el => {
      const r = el.getBoundingClientRect(), q = el.parentElement.getBoundingClientRect();
      return {id: el.dataset.id, frame: {left: r.left - q.left, top: r.top - q.top, width: r.width, height: r.height}};
    });
    // A container between the box and the leaves: its frame.
    const rowElement = box.querySelector('[data-id="row"]');
    const rr = rowElement && rowElement.getBoundingClientRect();
    out.cases[box.id] = {
      container: {width: b.width, height: b.height},
      row: rr && {left: rr.left - b.left, top: rr.top - b.top, width: rr.width, height: rr.height},
      frame: {left: m.origin.left - p.left, top: m.origin.top - p.top, width: m.frame.width, height: m.frame.height},
      lines: m.lines,
      others,
      clamped,
    };
  }
  document.getElementById("out").textContent = JSON.stringify(out);
}
run();
"""


def leaf_html(leaf):
    text = leaf["text"]
    if isinstance(text, str):
        return html.escape(text)
    return "".join(f'<span style="{html.escape(css_style(s.get("style", {})))}">{html.escape(s["text"])}</span>'
                   for s in text)


def node_html(node):
    """A leaf's div, or a flex container's holding its children's."""
    style = css_style(node.get("style", {}))
    if "children" in node:
        return (f'<div data-id="{node["id"]}" style="display:flex;{html.escape(style)}">'
                + "".join(node_html(child) for child in node["children"]) + "</div>")
    return f'<div data-id="{node["id"]}" style="{html.escape(style)}">{leaf_html(node)}</div>'


def page(cases):
    faces = "\n".join(
        f'@font-face{{font-family:"{css_family(fam)}";src:url("file://{FONT_DIR}/{f}") format("truetype");'
        f'font-weight:{w};font-style:normal}}'
        for (fam, w), f in FACES.items())
    boxes = []
    for case in cases:
        req = case["request"]
        root = req["root"]
        # The service's defaults, spelled out: DejaVu Sans, and Chromium's own for the rest.
        outer = {"fontFamily": DEFAULT_FAMILY, **root["style"]}
        leaves = "".join(node_html(child) for child in root["children"])
        boxes.append(
            f'<div class="slot" dir="{req["direction"]}"><div class="box" id="{case["id"]}" '
            f'style="display:flex;{html.escape(css_style(outer))}">{leaves}</div></div>')
    return (f'<!doctype html><html><head><meta charset="utf-8"><style>{faces}\n'
            "body{margin:0}.slot{margin:0 0 8px 0;font-kerning:auto}</style></head><body>\n"
            + "\n".join(boxes) + f'\n<pre id="out"></pre><script>{PAGE_SCRIPT}</script></body></html>')


def chromium():
    for name in CHROMIUM:
        try:
            version = subprocess.run([name, "--version"], capture_output=True, text=True, check=True).stdout.strip()
            return name, version
        except (OSError, subprocess.CalledProcessError):
            continue
    sys.exit("text_browser_vectors: no chromium-headless-shell or chromium on PATH")


def run_page(binary, path):
    dom = subprocess.run(
        [binary, "--no-sandbox", "--headless", "--disable-gpu", "--font-render-hinting=none",
         "--allow-file-access-from-files", "--virtual-time-budget=5000", "--dump-dom", "file://" + path],
        capture_output=True, text=True, timeout=300, check=True).stdout
    match = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
    if not match or not match.group(1):
        sys.exit(f"text_browser_vectors: {path} produced no results")
    return json.loads(html.unescape(match.group(1)))


def check_lines(case, lines):
    """Every non-space character of the text is in exactly one line, in order."""
    leaf = first_leaf(case)
    text = leaf["text"]
    text = text if isinstance(text, str) else "".join(span["text"] for span in text)
    if "maxLines" in leaf.get("style", {}):
        text = text[:len("".join(l["text"] for l in lines)) + text.count(" ")]
        if not re.sub(r"\s", "", text).startswith(re.sub(r"\s", "", "".join(l["text"] for l in lines))):
            sys.exit(f"text_browser_vectors: {case['id']}: the clamped lines are not the text's start")
        return
    if re.sub(r"\s", "", text) != re.sub(r"\s", "", "".join(l["text"] for l in lines)):
        sys.exit(f"text_browser_vectors: {case['id']}: the lines {[l['text'] for l in lines]} lose characters of {text!r}")


def round64(x):
    """Chromium's geometry is in 1/64 px; keep the vectors short and exact."""
    return round(x * 64) / 64


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep-html", help="also write each group's page to this folder")
    args = ap.parse_args()
    binary, version = chromium()
    fonts = {f: hashlib.sha256(open(os.path.join(FONT_DIR, f), "rb").read()).hexdigest() for f in FACES.values()}
    cases = generate(Coverage())
    groups = {}
    for case in cases:
        groups.setdefault(case["group"], []).append(case)
    os.makedirs(OUT_DIR, exist_ok=True)
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for group, members in groups.items():
            path = os.path.join(args.keep_html or tmp, f"{group}.html")
            with open(path, "w", encoding="utf-8") as f:
                f.write(page(members))
            result = run_page(binary, path)
            bad = [f for f in result["fonts"] if f[2] != "loaded"]
            if bad:
                sys.exit(f"text_browser_vectors: fonts not loaded in {group}: {bad}")
            vectors = []
            for case in members:
                got = result["cases"][case["id"]]
                check_lines(case, got["lines"])
                vectors.append({
                    "id": case["id"],
                    "tags": case["tags"],
                    "request": case["request"],
                    "expected": {
                        "container": {k: round64(v) for k, v in got["container"].items()},
                        **({"row": {k: round64(v) for k, v in got["row"].items()}} if got.get("row") else {}),
                        "frame": {k: round64(v) for k, v in got["frame"].items()},
                        "lines": [{"text": l["text"], **{k: round64(l[k]) for k in ("left", "top", "width", "height")}}
                                  for l in got["lines"]],
                        **({"others": [{"id": o["id"], "frame": {k: round64(v) for k, v in o["frame"].items()}}
                                       for o in got["others"]]} if got["others"] else {}),
                        **({"clamped": True} if got["clamped"] else {}),
                    },
                })
            doc = {
                "source": f"{version}, headless, --font-render-hinting=none; Tests/Scripts/text_browser_vectors.py",
                "fonts": fonts,
                "group": group,
                "cases": vectors,
            }
            with open(os.path.join(OUT_DIR, f"{group}.json"), "w", encoding="utf-8") as f:
                f.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
            total += len(vectors)
            print(f"{group}: {len(vectors)} cases")
    print(f"{total} cases from {version}")


if __name__ == "__main__":
    main()
