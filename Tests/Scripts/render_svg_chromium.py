#!/usr/bin/env python3
"""/render's SVG in a real browser: headless Chromium (Selenium) shows every box where the
layout put it.

For each request below, `layoutd compute` gives the frames (relative to each parent) and
`layoutd render` the SVG (the same code as POST /render, without a server); Chromium opens the
SVG and every `<rect class="box">`'s box on screen (getBoundingClientRect, at scale 1 one CSS
pixel per point) must equal the node's absolute frame. A scale-2 rendering must show the same
boxes twice as large. Text leaves (the README card) are drawn as `<text>` runs: their texts
must spell the lines `/compute` answers with `"textLines": true`, and each run must take the
width it was measured at (Chromium's own box of the text against its `textLength`, which it
only stretches or narrows a little when the font is the one measured). Screenshots go to $RENDER_SCREENSHOTS (default /tmp/layoutd-render).
Prints a line per check and "N passed, M failed"; exits 1 on any failure.

    Tests/Scripts/render_svg_chromium.py .build/debug/layoutd
"""
import json
import os
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
SCREENSHOTS = os.environ.get("RENDER_SCREENSHOTS", "/tmp/layoutd-render")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
RESULTS = {"passed": 0, "failed": 0}

NESTED = {
    "available": {"width": 300, "height": None},
    "direction": "rtl",
    "root": {"id": "root", "style": {"width": 300, "padding": 12, "gap": 6, "borderWidth": 3},
             "children": [
                 {"id": "row", "style": {"flexDirection": "row", "padding": 4, "height": 60},
                  "children": [{"id": "a", "style": {"width": 50, "margin": 5}},
                               {"id": "b", "style": {"flexGrow": 1, "paddingStart": "10%"},
                                "children": [{"id": "b1", "style": {"height": 10.5, "marginTop": 7}}]}]},
                 {"id": "abs", "style": {"position": "absolute", "right": 8, "bottom": 8, "width": 30, "height": 20}},
                 {"id": "stack", "type": "stack", "direction": "row", "height": 30,
                  "children": [{"id": "s1", "type": "stack-item", "width": 40}, {"id": "s2", "type": "stack-item", "grow": 1}]}]},
}


def check(ok, label, detail=""):
    RESULTS["passed" if ok else "failed"] += 1
    print(f"{'PASS' if ok else 'FAIL'} {label}" + (f": {detail}" if detail else ""), flush=True)
    return ok


def absolute(node, x=0.0, y=0.0, out=None):
    """Absolute (x, y, width, height) by id, from /compute's parent-relative frames."""
    out = {} if out is None else out
    x, y = x + node["left"], y + node["top"]
    if "id" in node:
        out[node["id"]] = (x, y, node["width"], node["height"])
    for child in node.get("children", []):
        absolute(child, x, y, out)
    return out


def line_texts(node, out=None):
    """The texts of every text leaf's lines, in pre-order."""
    out = [] if out is None else out
    out.extend(line["text"] for line in node.get("lines", []))
    for child in node.get("children", []):
        line_texts(child, out)
    return out


def check_text(driver, layoutd, request, label):
    """The SVG's text runs spell the measured lines, each as wide as measured."""
    asked = json.loads(request)
    asked["textLines"] = True
    lines = line_texts(json.loads(run(layoutd, "compute", "-", stdin=json.dumps(asked).encode()))["root"])
    runs = driver.execute_script("""
        return [...document.querySelectorAll('text.text')].map(t => {
          const natural = t.cloneNode(true);
          natural.removeAttribute('textLength');
          t.parentNode.appendChild(natural);
          const width = natural.getComputedTextLength();
          natural.remove();
          return [t.textContent, parseFloat(t.getAttribute('textLength')), width];
        });""")
    if not lines:
        return
    drawn = "".join(text for text, _, _ in runs)
    check(drawn == "".join(lines), f"{label}: the text runs spell the measured lines",
          "" if drawn == "".join(lines) else f"{drawn!r} vs {''.join(lines)!r}")
    off = [f"{text!r}: measured {length}, Chromium {width:.3f}" for text, length, width in runs if abs(width - length) > 0.05]
    check(not off, f"{label}: Chromium's width of every run (DejaVu, no textLength) is the measured width", "; ".join(off[:5]))


def run(layoutd, *arguments, stdin):
    return subprocess.run([layoutd, *arguments], input=stdin, capture_output=True, check=True, timeout=60).stdout


def main():
    layoutd = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/layoutd"))
    os.makedirs(SCREENSHOTS, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--force-device-scale-factor=1",
                 "--window-size=1400,1000", "--allow-file-access-from-files"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    cases = [("nested", json.dumps(NESTED).encode())]
    with open(os.path.join(ROOT, "docs/render/card.json"), "rb") as card:
        cases.append(("card", card.read()))
    try:
        with tempfile.TemporaryDirectory() as scratch:
            for name, request in cases:
                frames = absolute(json.loads(run(layoutd, "compute", "-", stdin=request))["root"])
                for mode in ("wireframe", "paint"):
                    for scale in (1, 2):
                        path = os.path.join(scratch, f"{name}-{mode}-{scale}.svg")
                        run(layoutd, "render", "-", "-o", path, "--mode", mode, "--scale", str(scale), stdin=request)
                        driver.get("file://" + path)
                        boxes = driver.execute_script("""
                            const svg = document.documentElement.getBoundingClientRect();
                            return [...document.querySelectorAll('rect.box')].map(r => {
                              const b = r.getBoundingClientRect();
                              return [r.dataset.id, b.x - svg.x, b.y - svg.y, b.width, b.height];
                            });""")
                        label = f"{name} {mode} scale {scale}"
                        check(len(boxes) == len(frames), f"{label}: one box per node", f"{len(boxes)} boxes, {len(frames)} nodes")
                        wrong = []
                        for id_, x, y, width, height in boxes:
                            if id_ not in frames:
                                wrong.append(f"{id_}: no such node")
                                continue
                            want = tuple(v * scale for v in frames[id_])
                            if any(abs(a - b) > 0.01 for a, b in zip((x, y, width, height), want)):
                                wrong.append(f"{id_} at {(x, y, width, height)}, frame {want}")
                        check(not wrong, f"{label}: every box at its frame", "; ".join(wrong[:5]))
                        if mode == "paint" and scale == 1:
                            check_text(driver, layoutd, request, label)
                        driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}-{mode}-{scale}.png"))
    finally:
        driver.quit()
    print(f"render_svg_chromium: {RESULTS['passed']} passed, {RESULTS['failed']} failed (screenshots in {SCREENSHOTS})")
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
