#!/usr/bin/env python3
"""Sort the service's disagreements with the Chromium text vectors by cause.

Reads the report TextBrowserVectorTests writes (TEXT_VECTORS_REPORT=FILE) and gives every
disagreeing case the causes found so far, by the evidence in its numbers:

- fit-content width: under alignItems flex-start Chromium's wrapped leaf is the container's
  width, the service's narrower (it shrinks to the widest line);
- fit-content below min-content: Chromium's fit-content box is wider than the container (the
  longest word; break-word does not lower min-content), the service's is not;
- letterSpacing beside Arabic: a line with the same text has another width;
- fixed lineHeight rounding: the same lines, a height off by at most 1/64 px per line;
- height at the container's width: a fit-content box wider than its container (min-content)
  with Chromium's lines but the height of the text broken at the container's width;
- text items sharing a row (baseline cases): Chromium's items fill or overflow the row
  (kind engine-flex: the engine's flex algorithm; see text_flex_check.py);
- no break after "/" (a Chromium quirk): the service ends a line after "/", Chromium never does.

Cases it cannot place are printed and left out (write their reason by hand); the cases in
MANUAL keep the reasons written there. `--write` replaces the cases of
Tests/Fixtures/text-browser/known-differences.json with the result.

    TEXT_VECTORS_REPORT=/tmp/report.json swift test --filter TextBrowserVectorTests
    python3 Tests/Scripts/text_known_differences.py /tmp/report.json [--write]
"""
import argparse
import collections
import glob
import json
import os
import re
import sys

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "text-browser")
KNOWN = os.path.join(FIXTURES, "known-differences.json")
EPSILON = 1 / 32
ARABIC = re.compile("[\u0600-\u06ff]")

MANUAL = {
}


def vectors():
    cases = {}
    for path in glob.glob(os.path.join(FIXTURES, "*.json")):
        if path != KNOWN:
            for case in json.load(open(path, encoding="utf-8"))["cases"]:
                cases[case["id"]] = case
    return cases


def causes(case, reasons, answer):
    """(open causes, quirk causes) of one disagreement."""
    root = case["request"]["root"]
    leaf = root["children"][0]
    style = {**root["style"], **leaf.get("style", {})}
    width = style["width"]
    fit = "fit-content" in case["tags"]
    expected = case["expected"]
    ours = answer["root"]["children"][0]
    kinds = {r.split(":")[0] for r in reasons}
    text = leaf["text"] if isinstance(leaf["text"], str) else "".join(s["text"] for s in leaf["text"])
    found, quirks, engine = [], [], []

    if fit and expected["frame"]["width"] > width + EPSILON and ours["width"] < expected["frame"]["width"] - EPSILON:
        found.append("fit-content below min-content: CSS fit-content is max(min-content, min(max-content, "
                     "available)), so Chromium's box is as wide as the longest word "
                     f"({expected['frame']['width']:.2f} px in a {width} px container) and keeps it whole; the "
                     "service's box is narrower"
                     + (" (overflowWrap break-word does not lower min-content, only anywhere does)"
                        if style.get("overflowWrap") == "break-word" else ""))
    elif fit and abs(expected["frame"]["width"] - width) < 1e-6 and ours["width"] < width - EPSILON \
            and (len(expected["lines"]) > 1 or expected.get("clamped")):
        found.append("fit-content width: a wrapped leaf under alignItems flex-start takes the available width in CSS "
                     f"(min(max-content, max(min-content, available)) = {width} px); the service shrinks it to its "
                     "widest line")

    if expected.get("others") and root["style"].get("flexDirection") == "row":
        widths = [expected["frame"]["width"]] + [o["frame"]["width"] for o in expected["others"]]
        if sum(widths) >= width - EPSILON:
            engine.append("text items sharing a row: Chromium never shrinks a text item below its min-content "
                          "width (min-width: auto, CSS Flexbox §4.5; the row overflows instead) and shares the "
                          "shrinking by flex basis × flexShrink, the basis being the max-content width, as the "
                          "engine does for text leaves (FlexItemSizing.css); the service's items end up other widths "
                          f"(Chromium: {', '.join(f'{w:.2f}' for w in widths)} px in a {width} px row). "
                          "Tests/Scripts/text_flex_check.py compares CSS's algorithm on the service's own text "
                          "measures with Chromium and with the service")

    same = [(o, e) for o, e in zip(ours.get("lines", []), expected["lines"])
            if o["text"].strip() == e["text"].strip() and e["text"].strip()]
    wider = [(o, e) for o, e in same if abs(o["width"] - e["width"]) > EPSILON]
    if style.get("letterSpacing") and ARABIC.search(text) and wider:
        o, e = wider[0]
        found.append(f'letterSpacing beside Arabic: the line "{e["text"].strip()}" is {o["width"] - e["width"]:+.2f} px '
                     "wider in the service; Chromium adds no letter spacing to any character of a word shaped in a "
                     "cursive-script run (CSS Text 3 §8.2; punctuation attached to the word included) and adds it to "
                     "spaces and to words in other scripts")

    if "height" in kinds and "line count" not in kinds:
        lines = len(expected["lines"])
        delta = ours["height"] - expected["frame"]["height"]
        if style["lineHeight"] != "normal" and abs(delta) <= lines / 64 + 1e-9:
            found.append(f"fixed lineHeight rounding: Chromium rounds it to the nearest 1/64 px per line "
                         f"({style['lineHeight']} of {style['fontSize']} px is {expected['frame']['height'] / lines:.6f} "
                         "px), the service rounds down")
        elif fit and expected["frame"]["width"] > width + EPSILON:
            found.append(f"height at the container's width: the box is min-content wide "
                         f"({expected['frame']['width']:.2f} px, wider than the {width} px container, as in Chromium) "
                         f"with Chromium's {lines} lines, but its height is that of the text broken at {width} px")
        elif fit:
            found.append(f"height from another measure: same {lines} lines as Chromium, but the height is that of the "
                         "lines broken at another width than the box's final width")

    if kinds & {"line count", "line text"} and "/" in text:
        if any(l["text"].strip().endswith("/") for l in ours.get("lines", [])) \
                and not any(l["text"].strip().endswith("/") for l in expected["lines"]):
            quirks.append("Chromium breaks between two ASCII characters by its own table (kAsciiLineBreakTable): never "
                          'after "/", so the URL is broken only where overflowWrap anywhere must; UAX #14 (LB31) '
                          'allows a break after "/", which the service takes')
    return found, quirks, engine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    cases = vectors()
    listed, unplaced = [], []
    counts = collections.Counter()
    for entry in json.load(open(args.report, encoding="utf-8")):
        if entry["reasons"] == ["line extents only"]:
            continue
        if entry["id"] in MANUAL:
            kind, reason = MANUAL[entry["id"]]
            listed.append({"id": entry["id"], "kind": kind, "reason": reason})
            continue
        found, quirks, engine = causes(cases[entry["id"]], entry["reasons"], entry["answer"])
        if not found and not quirks and not engine:
            unplaced.append(entry["id"])
            continue
        # The service's own errors first; then the engine's (Yoga's) flex algorithm; then Chromium's.
        kind = "open" if found else "engine-flex" if engine else "chromium-quirk"
        listed.append({"id": entry["id"], "kind": kind, "reason": "; ".join(found + engine + quirks)})
        counts.update(cause.split(":")[0][:48] for cause in found + engine + quirks)
    listed.sort(key=lambda c: c["id"])
    for reason, n in counts.most_common():
        print(f"{n:4d}  {reason}")
    print(f"{len(listed)} placed ({sum(c['kind'] == 'open' for c in listed)} open), not placed: {unplaced or 'none'}")
    if args.write:
        doc = json.load(open(KNOWN, encoding="utf-8"))
        doc["cases"] = listed
        with open(KNOWN, "w", encoding="utf-8") as f:
            f.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    if unplaced:
        sys.exit(1)


if __name__ == "__main__":
    main()
