#!/usr/bin/env python3
"""Check the shaping model behind the Chromium text vectors with HarfBuzz (uharfbuzz).

For every line of Tests/Fixtures/text-browser (single-font cases, textAlign other than
justify, lines of one direction), the line's text is shaped with HarfBuzz on the same font
file and its advance compared with the line's width in Chromium (within 1/32 px). The model:

- HarfBuzz with the font's default features (kerning, ligatures, Arabic joining);
- letterSpacing added after every character, except that with letterSpacing not 0 the
  ligature features `liga` and `clig` are off, and characters of a word in a cursive script
  (Arabic here, punctuation attached to it included) get none: Chromium shapes word by word
  and skips letter spacing in cursive runs; the spaces between the words still get it.

`--plain` checks the naive model instead (default features, letter spacing after every
character), to show what each rule is worth. Prints the counts and every line that differs.

    pip install uharfbuzz && python3 Tests/Scripts/text_vectors_shaping_check.py [--plain]
"""
import argparse
import collections
import glob
import json
import os
import re

import uharfbuzz as hb

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "text-browser")
FILES = {("DejaVu Sans", 400): "DejaVuSans.ttf", ("DejaVu Sans", 700): "DejaVuSans-Bold.ttf",
         ("DejaVu Serif", 400): "DejaVuSerif.ttf", ("DejaVu Serif", 700): "DejaVuSerif-Bold.ttf",
         ("DejaVu Sans Mono", 400): "DejaVuSansMono.ttf", ("DejaVu Sans Mono", 700): "DejaVuSansMono-Bold.ttf"}
RTL = re.compile("[\u0590-\u06ff]")
CURSIVE = re.compile("[\u0600-\u06ff]")
LTR = re.compile("[A-Za-z0-9\u0370-\u04ff]")


def advance(font, size, text, features):
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(font, buf, features)
    return sum(p.x_advance for p in buf.glyph_positions) / font.face.upem * size


def line_width(font, size, text, spacing, plain):
    if plain or not spacing:
        return advance(font, size, text, {}) + spacing * len(text)
    width = advance(font, size, text, {"liga": False, "clig": False})
    for word in re.split(r"(\s+)", text):
        if not CURSIVE.search(word):
            width += spacing * len(word)
    return width


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plain", action="store_true")
    args = ap.parse_args()
    fonts = {k: hb.Font(hb.Face(hb.Blob.from_file_path(os.path.join(FONT_DIR, f)))) for k, f in FILES.items()}
    counts = collections.Counter()
    for path in sorted(glob.glob(os.path.join(FIXTURES, "*.json"))):
        if path.endswith("known-differences.json"):
            continue
        for case in json.load(open(path, encoding="utf-8"))["cases"]:
            root = case["request"]["root"]
            leaf = root["children"][0]
            style = {**root["style"], **leaf.get("style", {})}
            if not isinstance(leaf["text"], str) or style.get("textAlign") == "justify":
                continue
            family = style.get("fontFamily", "DejaVu Sans")
            family = next(n for n in (family if isinstance(family, list) else [family]) if n.startswith("DejaVu"))
            weight = 700 if style.get("fontWeight") in (700, "bold") else 400
            spacing = style.get("letterSpacing", 0)
            collapses = style.get("whiteSpace", "normal") not in ("pre", "pre-wrap")
            for line in case["expected"]["lines"]:
                # The extents keep trailing spaces under pre only (they neither hang nor collapse).
                text = line["text"] if style.get("whiteSpace") == "pre" else line["text"].rstrip(" \t\n")
                if collapses:
                    text = re.sub(r"\s+", " ", text).strip()
                if not text:
                    continue
                if RTL.search(text) and LTR.search(text):
                    counts["skipped (mixed direction)"] += 1
                    continue
                kind = "with letterSpacing" if spacing else "without letterSpacing"
                delta = line_width(fonts[(family, weight)], style["fontSize"], text, spacing, args.plain) - line["width"]
                if abs(delta) <= 1 / 32:
                    counts[kind + ": agree"] += 1
                else:
                    counts[kind + ": differ"] += 1
                    print(f"{case['id']}: {text!r} HarfBuzz - Chromium = {delta:+.4f} px "
                          f"({family} {weight} {style['fontSize']} px, letterSpacing {spacing})")
    for kind, n in sorted(counts.items()):
        print(f"{kind}: {n}")


if __name__ == "__main__":
    main()
