#!/usr/bin/env python3
"""Shrinks the Yoga differential cases our engine disagrees on, to find out why.

For each case (all disagreeing ones of the case file, or the names given), it greedily drops
subtrees, style keys, measure functions and the available size for as long as both Yogas
(3.2.1 from pyyoga and main from yoga-python, see yoga_diff_vectors.py) still agree with each
other and our engine (`layout-bench --dump`) still disagrees with them, then prints the
smallest tree with both answers.

    swift build -c release --scratch-path .build-bench --product layout-bench
    yoga-venv/bin/python Tests/Scripts/yoga_diff_minimize.py [--file CASES.json] [CASE_NAME...]

The case file defaults to the committed fixture; `yoga_diff_vectors.py --all-out PATH` writes
every agreeing case of a run. `LAYOUT_BENCH=path` picks another layout-bench build.
"""
import copy
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yoga_diff_vectors as vectors  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BENCH = os.environ.get("LAYOUT_BENCH", os.path.join(ROOT, ".build-bench", "release", "layout-bench"))
FIXTURE = vectors.DEFAULT_OUT


def spec_of(node):
    """The generator's node form (children always present) from a wire node."""
    out = {"id": node["id"], "style": dict(node.get("style", {})),
           "children": [spec_of(c) for c in node.get("children", [])]}
    if "measure" in node:
        out["measure"] = node["measure"]
    return out


def yoga_frames(case, which="3.2.1"):
    """One Yoga's pre-order frames for `case`."""
    return vectors.layout(spec_of(case["root"]), case["available"], case["direction"], which)


def our_frames(cases):
    """Our engine's pre-order frames for each case, through one layout-bench process."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(cases, f)
        path = f.name
    try:
        text = subprocess.run([BENCH, "--dump", path], capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    result = {}
    for line in text.splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        name, frames = line.split("\t", 1)
        result[name] = [tuple(float32(float(x)) for x in f.split()) for f in frames.split(";")]
    return result


def float32(x):
    """`x` as the Float it was printed from: Swift prints a Float's shortest round-trip digits
    (322961504 as 3.229615e+08), which differ from the Float's own value as a double."""
    return struct.unpack("f", struct.pack("f", x))[0]


def disagrees(case):
    yoga = yoga_frames(case)
    if vectors.has_nan(yoga) or not vectors.same_frames(yoga, yoga_frames(case, "main")):
        return False  # no single defined Yoga answer: not a useful reduction
    ours = our_frames([case]).get(case["name"])
    if ours is None or len(ours) != len(yoga):
        return False  # decoding failed: not the disagreement we are after
    return any(abs(a - b) > 0.01 for fa, fb in zip(ours, yoga) for a, b in zip(fa, fb))


def nodes(node):
    yield node
    for c in node.get("children", []):
        yield from nodes(c)


def candidates(case):
    """Smaller variants of `case`, biggest cuts first."""
    root = case["root"]
    # drop a subtree
    for parent in nodes(root):
        for i in range(len(parent.get("children", []))):
            c = copy.deepcopy(case)
            p = next(n for n in nodes(c["root"]) if n["id"] == parent["id"])
            del p["children"][i]
            if not p["children"]:
                del p["children"]
            yield c
    # drop a measure function, a style key
    for node in nodes(root):
        if "measure" in node:
            c = copy.deepcopy(case)
            del next(n for n in nodes(c["root"]) if n["id"] == node["id"])["measure"]
            yield c
        for key in list(node.get("style", {})):
            c = copy.deepcopy(case)
            del next(n for n in nodes(c["root"]) if n["id"] == node["id"])["style"][key]
            yield c
    for axis in ("width", "height"):
        if case["available"][axis] is not None:
            c = copy.deepcopy(case)
            c["available"][axis] = None
            yield c
    if case["direction"] == "rtl":
        c = copy.deepcopy(case)
        c["direction"] = "ltr"
        yield c


def minimize(case):
    case = {k: case[k] for k in ("name", "config", "available", "direction", "root")}
    changed = True
    while changed:
        changed = False
        for smaller in candidates(case):
            if disagrees(smaller):
                case, changed = smaller, True
                break
    return case


def show(case):
    yoga = yoga_frames(case)
    ours = our_frames([case])[case["name"]]
    print(f"{case['name']}: available {case['available']}, {case['direction']}")
    i = 0

    def walk(n, depth):
        nonlocal i
        mark = "" if all(abs(a - b) <= 0.01 for a, b in zip(ours[i], yoga[i])) else "   <-- differs"
        text = f" text={n['measure']['text']!r}" if "measure" in n else ""
        print(f"  {'  ' * depth}{n['id']} {json.dumps(n.get('style', {}))}{text}")
        print(f"  {'  ' * depth}  yoga {fmt(yoga[i])}  ours {fmt(ours[i])}{mark}")
        i += 1
        for c in n.get("children", []):
            walk(c, depth + 1)
    walk(case["root"], 0)


def expected_frames(node):
    """A case's `expected` tree as pre-order frames."""
    out = [(node["left"], node["top"], node["width"], node["height"])]
    for c in node.get("children", []):
        out += expected_frames(c)
    return out


def fmt(f):
    return "(" + ", ".join(f"{v:g}" for v in f) + ")"


def main():
    if vectors.yg_main is None:
        print("yoga-python (Yoga main) is not installed; see yoga_diff_vectors.py", file=sys.stderr)
        return 2
    argv = sys.argv[1:]
    path = FIXTURE
    if argv[:1] == ["--file"]:
        path, argv = argv[1], argv[2:]
    cases = json.load(open(path))
    if argv:
        wanted = [c for c in cases if c["name"] in argv]
    else:
        ours = our_frames(cases)
        wanted = [c for c in cases if c["name"] not in ours
                  or not vectors.same_frames(ours[c["name"]], expected_frames(c["expected"]))]
    if not argv:
        print(f"{len(cases) - len(wanted)}/{len(cases)} cases of {path} agree with our engine")
    print(f"{len(wanted)} case(s) to shrink")
    for case in wanted:
        if not disagrees(case):
            print(f"{case['name']}: agrees now")
            continue
        show(minimize(case))
        print()
    return 0


if __name__ == "__main__":
    status = main()
    sys.stdout.flush()
    os._exit(status)  # pyyoga aborts at interpreter shutdown with measure callbacks attached
