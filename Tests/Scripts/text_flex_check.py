#!/usr/bin/env python3
"""Check the text vectors where text items share a row (the baseline group) against CSS Flexbox.

For each baseline case with more than one leaf, asks a layoutd binary for each leaf's
max-content width (alone under alignItems flex-start in a very wide column) and min-content
width (the same in a column 0 px wide), then runs CSS Flexbox's algorithm on them (§9.2 step 3:
the flex basis of a text item with `flex-basis: auto` is its max-content width; §9.7: shrinking
weighted by basis × flexShrink, an item frozen at its automatic minimum size, `min-width: auto`
= min-content, §4.5) and compares the widths with Chromium's and with the service's.

Text leaves are sized this way by the engine (`FlexItemSizing.css`); before that, the 8 cases
where the items must shrink were kind `engine-flex` in known-differences.json, the engine
sizing them as Yoga does (no automatic minimum size, a row item's basis measured with the
row's width as an at-most limit). Exits 1 unless CSS's algorithm on the service's measures
gives Chromium's widths (1/32 px) and the service gives the same in every case.

Not run by CI (needs a layoutd binary; starts it on 127.0.0.1:PORT):
    python3 Tests/Scripts/text_flex_check.py [--layoutd .build/debug/layoutd] [--port 18512]
"""
import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import time

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "text-browser")
EPSILON = 1 / 32


def css_shrink(row, basis, minimum):
    """CSS Flexbox §9.7 for items with flexShrink 1 and no margins: the items' main sizes."""
    size, frozen = list(basis), [False] * len(basis)
    if sum(basis) <= row:
        return size
    while True:
        free = row - sum(size[i] if frozen[i] else basis[i] for i in range(len(basis)))
        weight = sum(basis[i] for i in range(len(basis)) if not frozen[i])
        if weight == 0:
            return size
        target = [size[i] if frozen[i] else basis[i] + free * basis[i] / weight for i in range(len(basis))]
        violations = [i for i in range(len(basis)) if not frozen[i] and target[i] < minimum[i]]
        if not violations:
            return target
        for i in violations:
            size[i], frozen[i] = minimum[i], True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layoutd", default=".build/debug/layoutd")
    ap.add_argument("--port", type=int, default=18512)
    args = ap.parse_args()
    cases = [c for c in json.load(open(os.path.join(FIXTURES, "baseline.json")))["cases"]
             if len(c["request"]["root"].get("children", [])) > 1]
    server = subprocess.Popen([args.layoutd, "serve", "--host", "127.0.0.1", "--port", str(args.port),
                               "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", args.port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit("text_flex_check.py: layoutd did not start")
        conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)

        def post(request):
            conn.request("POST", "/compute", json.dumps(request), {"Content-Type": "application/json"})
            return json.loads(conn.getresponse().read())

        agree = 0
        for case in cases:
            root = case["request"]["root"]
            inherited = {k: v for k, v in root["style"].items() if k not in ("width", "flexDirection", "alignItems")}

            def width(leaf, column):
                request = {"config": {"pointScaleFactor": 0, "useWebDefaults": True},
                           "root": {"style": dict(inherited, width=column, flexDirection="column",
                                                  alignItems="flex-start"), "children": [leaf]}}
                return post(request)["root"]["children"][0]["width"]

            leaves = root["children"]
            maximum = [width(leaf, 100000) for leaf in leaves]
            minimum = [width(leaf, 0) for leaf in leaves]
            css = css_shrink(root["style"]["width"], maximum, minimum)
            chromium = [case["expected"]["frame"]["width"]] + [o["frame"]["width"] for o in case["expected"]["others"]]
            service = [c["width"] for c in post(case["request"])["root"]["children"]]
            ok = all(abs(a - b) <= EPSILON for a, b in zip(css, chromium))
            same = all(abs(a - b) <= EPSILON for a, b in zip(css, service))
            agree += ok and same
            fmt = lambda xs: ", ".join(f"{x:.3f}" for x in xs)
            print(f"{case['id']}: row {root['style']['width']} px; max-content {fmt(maximum)}; min-content "
                  f"{fmt(minimum)}; CSS flexbox on these {fmt(css)}; Chromium {fmt(chromium)}; service "
                  f"{fmt(service)}: CSS {'agrees with' if ok else 'DIFFERS from'} Chromium, the service "
                  f"{'agrees with' if same else 'DIFFERS from'} CSS")
        print(f"{agree}/{len(cases)} cases: CSS flexbox on the service's text measures gives Chromium's widths, "
              "and the service gives them")
        sys.exit(0 if agree == len(cases) else 1)
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
