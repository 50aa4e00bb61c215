#!/usr/bin/env python3
"""Differential test vectors from two real Yogas: 3.2.1 (PyPI `pyyoga` 0.1.0) and main (PyPI
`yoga-python` 0.1.5, whose build pins facebook/yoga cfdacac0e3c2).

Generates random flexbox trees from fixed seeds, lays each out with both Yogas, keeps the trees
on which the two agree (a tree on which they differ has no single Yoga answer: it is counted and
dropped), and writes those cases in the format of shared/conformance/FORMAT.md, `expected`
frames included. The output is committed, so the Swift test
(Tests/LayoutEngineTests/YogaDifferentialTests.swift) needs no Python.

`yoga-python` needs Python >= 3.12; `pyyoga` installs there too, so one venv holds both:

    python3.13 -m venv yoga-venv
    yoga-venv/bin/pip install --only-binary :all: pyyoga==0.1.0 yoga-python==0.1.5
    yoga-venv/bin/python Tests/Scripts/yoga_diff_vectors.py [--cases 10000] [--seed 2026]
        [--sample 1000] [--out PATH] [--all-out PATH]

The same arguments always give the same file (Python's `random` with a fixed seed per case).
`--sample N` commits N of the agreeing cases, evenly spread over the run (plus every case named
in REGRESSION_CASES); `--all-out` also writes every agreeing case. The committed fixture is
`--cases 10000 --seed 2026 --sample 1000` (the defaults).

Only values that both Yogas and our FORMAT.md support are generated: no `static`
position, no `display: contents`, no `content-box`, no percent gaps, no `auto` insets, no
`overflow: scroll`, no intrinsic sizing keywords, no `space-evenly` for the align properties
(3.2.1's YGAlign has none).

Config: Yoga has no CSS automatic minimum size; a flex item's undefined min size is simply no
minimum. Our engine spells that behaviour as the errata bit `min-size-undefined-instead-of-auto`,
so every case records that errata, the default pointScaleFactor 1 and no web defaults (both
Yogas run with their default config: errata none, scale 1).
"""

import argparse
import json
import math
import os
import random
import sys

import pyyoga as yg
from pyyoga import Align, Direction, Display, Edge, FlexDirection, Gutter, Justify, Overflow
from pyyoga import PositionType, Wrap

try:
    import yoga as yg_main  # PyPI yoga-python: Yoga main (Python >= 3.12)
except ImportError:
    yg_main = None

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(SCRIPT_DIR, "..", "Fixtures", "yoga-diff", "yoga-3.2.1-and-main.json")
YOGA_MAIN = "yoga-python 0.1.5 (Yoga main cfdacac0e3c2)"

# Cases (by seed, then index) that once disagreed with our engine, found by `--cases 10000`;
# always written as regression cases whatever `--sample` picks.
REGRESSION_CASES = {2026: [1446, 1636, 2212, 6251, 8887, 9313, 9653]}

# --------------------------------------------------------------------------- enum spellings
FLEX_DIRECTIONS = {"column": FlexDirection.Column, "column-reverse": FlexDirection.ColumnReverse,
                   "row": FlexDirection.Row, "row-reverse": FlexDirection.RowReverse}
JUSTIFY = {"flex-start": Justify.FlexStart, "center": Justify.Center, "flex-end": Justify.FlexEnd,
           "space-between": Justify.SpaceBetween, "space-around": Justify.SpaceAround,
           "space-evenly": Justify.SpaceEvenly}
ALIGN = {"auto": Align.Auto, "flex-start": Align.FlexStart, "center": Align.Center,
         "flex-end": Align.FlexEnd, "stretch": Align.Stretch, "baseline": Align.Baseline,
         "space-between": Align.SpaceBetween, "space-around": Align.SpaceAround}
WRAP = {"nowrap": Wrap.NoWrap, "wrap": Wrap.Wrap, "wrap-reverse": Wrap.WrapReverse}
POSITION = {"relative": PositionType.Relative, "absolute": PositionType.Absolute}
DISPLAY = {"flex": Display.Flex, "none": getattr(Display, "None")}
OVERFLOW = {"visible": Overflow.Visible, "hidden": Overflow.Hidden}
DIRECTION = {"inherit": Direction.Inherit, "ltr": Direction.LTR, "rtl": Direction.RTL}

# style key -> Yoga edge, for the edge families
EDGE_SUFFIX = {"": Edge.All, "Left": Edge.Left, "Top": Edge.Top, "Right": Edge.Right,
               "Bottom": Edge.Bottom, "Start": Edge.Start, "End": Edge.End,
               "Horizontal": Edge.Horizontal, "Vertical": Edge.Vertical}
INSET_EDGE = {"left": Edge.Left, "top": Edge.Top, "right": Edge.Right, "bottom": Edge.Bottom,
              "start": Edge.Start, "end": Edge.End}
BORDER_EDGE = {"borderWidth": Edge.All, "borderLeftWidth": Edge.Left, "borderTopWidth": Edge.Top,
               "borderRightWidth": Edge.Right, "borderBottomWidth": Edge.Bottom,
               "borderStartWidth": Edge.Start, "borderEndWidth": Edge.End}
GAP_GUTTER = {"gap": Gutter.All, "rowGap": Gutter.Row, "columnGap": Gutter.Column}


# ------------------------------------------------------------------ applying a style to Yoga
def set_length(node, name, value, edge=None):
    """Sets a points / "N%" / "auto" value through pyyoga's low-level setters."""
    raw = node._node
    args = [] if edge is None else [edge]
    if value == "auto":
        getattr(raw, f"set_{name}_auto")(*args)
    elif isinstance(value, str) and value.endswith("%"):
        getattr(raw, f"set_{name}_percent")(*args, float(value[:-1]))
    else:
        getattr(raw, f"set_{name}")(*args, float(value))


def apply_style(node, style):
    raw = node._node
    for key, value in style.items():
        if key == "flexDirection": raw.set_flex_direction(FLEX_DIRECTIONS[value])
        elif key == "justifyContent": raw.set_justify_content(JUSTIFY[value])
        elif key == "alignItems": raw.set_align_items(ALIGN[value])
        elif key == "alignSelf": raw.set_align_self(ALIGN[value])
        elif key == "alignContent": raw.set_align_content(ALIGN[value])
        elif key == "flexWrap": raw.set_flex_wrap(WRAP[value])
        elif key == "position": raw.set_position_type(POSITION[value])
        elif key == "display": raw.set_display(DISPLAY[value])
        elif key == "overflow": raw.set_overflow(OVERFLOW[value])
        elif key == "direction": raw.set_direction(DIRECTION[value])
        elif key == "flexGrow": raw.set_flex_grow(float(value))
        elif key == "flexShrink": raw.set_flex_shrink(float(value))
        elif key == "aspectRatio": raw.set_aspect_ratio(float(value))
        elif key == "flexBasis": set_length(node, "flex_basis", value)
        elif key in ("width", "height"): set_length(node, key, value)
        elif key in ("minWidth", "minHeight", "maxWidth", "maxHeight"):
            set_length(node, key[:3] + "_" + key[3:].lower(), value)
        elif key in INSET_EDGE: set_length(node, "position", value, INSET_EDGE[key])
        elif key.startswith("margin"): set_length(node, "margin", value, EDGE_SUFFIX[key[6:]])
        elif key.startswith("padding"): set_length(node, "padding", value, EDGE_SUFFIX[key[7:]])
        elif key in BORDER_EDGE: raw.set_border(BORDER_EDGE[key], float(value))
        elif key in GAP_GUTTER: raw.set_gap(GAP_GUTTER[key], float(value))
        else: raise KeyError(f"style key {key} has no Yoga mapping")


# ------------------------------------------------------- the intrinsic-text measure function
def intrinsic_text_measure(text, flex_direction_is_column):
    """The `intrinsic-text` measurer of shared/conformance/yoga/README.md."""
    words = text.split(" ")
    width_of = lambda s: len(s) * 10.0
    text_width = width_of(text)
    widest_word = max(width_of(w) for w in words)

    def measure(width, wm, height, hm):  # modes: 0 undefined, 1 exactly, 2 at most
        if wm == 1:
            measured_w = width
        elif wm == 2:
            measured_w = min(text_width, width)
        else:
            measured_w = text_width
        wrap_w = measured_w if flex_direction_is_column else max(measured_w, widest_word)
        if text_width <= wrap_w:
            lines = 1
        else:
            lines, line_len = 1, 0.0
            for w in words:
                ww = width_of(w)
                if ww > wrap_w:
                    lines += 1 + (1 if line_len > 0 else 0)
                    line_len = 0.0
                elif line_len + ww <= wrap_w:
                    line_len += ww + 10
                else:
                    lines += 1
                    line_len = ww + 10
            if line_len == 0:
                lines -= 1
        measured_h = lines * 10.0
        if hm == 1:
            measured_h = height
        elif hm == 2:
            measured_h = min(measured_h, height)
        return (measured_w, measured_h)

    return measure


# ------------------------------------------------------------------------- random generation
WORDS = ["a", "ab", "abc", "lorem", "ipsum", "dolor", "sit", "amet", "wide", "x"]


def rand_points(r, lo, hi):
    """Mostly whole numbers; sometimes halves and thirds, so pixel rounding is exercised."""
    v = r.randint(lo, hi)
    roll = r.random()
    if roll < 0.10:
        return v + 0.5
    if roll < 0.15:
        return round(v + 1.0 / 3.0, 3)
    return v


def rand_length(r, lo, hi, percent=0.25, auto=0.0):
    roll = r.random()
    if roll < auto:
        return "auto"
    if roll < auto + percent:
        return f"{r.choice([10, 20, 25, 30, 33, 50, 60, 75, 100])}%"
    return rand_points(r, lo, hi)


def rand_edges(r, family, style, lo, hi, percent, auto):
    """Sets a few edges of margin/padding, through the shorthand, physical and logical keys."""
    keys = [family + s for s in ["", "Left", "Top", "Right", "Bottom", "Start", "End",
                                 "Horizontal", "Vertical"]]
    for key in r.sample(keys, r.choice([1, 1, 2, 3])):
        style[key] = rand_length(r, lo, hi, percent, auto)


def random_style(r, depth, is_root):
    s = {}
    p = r.random

    def maybe(prob, key, fn):
        if p() < prob:
            s[key] = fn()

    maybe(0.55, "flexDirection", lambda: r.choice(list(FLEX_DIRECTIONS)))
    maybe(0.35, "justifyContent", lambda: r.choice(list(JUSTIFY)))
    maybe(0.35, "alignItems", lambda: r.choice(["flex-start", "center", "flex-end", "stretch",
                                                  "stretch", "baseline"]))
    if not is_root:
        maybe(0.25, "alignSelf", lambda: r.choice(["auto", "flex-start", "center", "flex-end",
                                                     "stretch", "baseline"]))
    maybe(0.25, "flexWrap", lambda: r.choice(["wrap", "wrap", "wrap-reverse", "nowrap"]))
    if s.get("flexWrap") in ("wrap", "wrap-reverse") or p() < 0.1:
        maybe(0.6, "alignContent", lambda: r.choice(["flex-start", "center", "flex-end", "stretch",
                                                       "space-between", "space-around"]))
    if not is_root:
        maybe(0.35, "flexGrow", lambda: r.choice([0, 1, 1, 2, 0.5, 3]))
        maybe(0.35, "flexShrink", lambda: r.choice([0, 1, 1, 2, 0.5]))
        maybe(0.25, "flexBasis", lambda: rand_length(r, 0, 120, 0.3, 0.15))
    size_prob = 0.6 if is_root else 0.45
    maybe(size_prob, "width", lambda: rand_length(r, 0, 220, 0.25 if not is_root else 0.1, 0.05))
    maybe(size_prob, "height", lambda: rand_length(r, 0, 220, 0.25 if not is_root else 0.1, 0.05))
    maybe(0.12, "minWidth", lambda: rand_length(r, 0, 120, 0.25))
    maybe(0.12, "minHeight", lambda: rand_length(r, 0, 120, 0.25))
    maybe(0.12, "maxWidth", lambda: rand_length(r, 0, 200, 0.25))
    maybe(0.12, "maxHeight", lambda: rand_length(r, 0, 200, 0.25))
    if p() < 0.3:
        rand_edges(r, "margin", s, -10, 20, 0.15, 0.2 if not is_root else 0.0)
    if p() < 0.3:
        rand_edges(r, "padding", s, 0, 15, 0.15, 0.0)
    if p() < 0.15:
        key = r.choice(list(BORDER_EDGE))
        s[key] = r.choice([1, 2, 3, 5, 0.5])
    if not is_root and p() < 0.15:
        s["position"] = "absolute"
    if not is_root and (s.get("position") == "absolute" or p() < 0.1):
        for key in r.sample(list(INSET_EDGE), r.choice([0, 1, 2, 2, 3, 4])):
            s[key] = rand_length(r, -10, 60, 0.25)
    if p() < 0.15:
        key = r.choice(list(GAP_GUTTER))
        s[key] = rand_points(r, 0, 15)
    maybe(0.08, "aspectRatio", lambda: r.choice([0.5, 1, 1.5, 2, 0.75]))
    if not is_root:
        maybe(0.05, "display", lambda: "none")
    maybe(0.05, "overflow", lambda: "hidden")
    maybe(0.05, "direction", lambda: r.choice(["ltr", "rtl"]))
    return s


def random_case(seed, index, attempt=0):
    r = random.Random((seed * 100003 + index) * 101 + attempt)
    # Skewed towards small trees so the file stays small; a few reach 40 nodes.
    count = min(40, 1 + int(r.expovariate(1 / 9.0)))
    nodes = []  # dicts: id, style, children, depth

    def new_node(depth, parent):
        nid = "root" if parent is None else f"{parent['id']}_child{len(parent['children'])}"
        node = {"id": nid, "style": random_style(r, depth, parent is None), "children": [],
                "depth": depth}
        if parent is not None:
            parent["children"].append(node)
        nodes.append(node)
        return node

    root = new_node(0, None)
    for _ in range(count - 1):
        parents = [n for n in nodes if n["depth"] < 5 and len(n["children"]) < 8]
        # prefer recent nodes a little, so trees get some depth
        parent = r.choice(parents[-4:] if r.random() < 0.4 else parents)
        new_node(parent["depth"] + 1, parent)

    # Some leaves carry text measured by the intrinsic-text measurer.
    for n in nodes:
        if not n["children"] and n is not root and r.random() < 0.25:
            # Upstream's measurer tests for `column` exactly; keep column-reverse off text
            # leaves so a reading of "column" that includes it cannot matter.
            if n["style"].get("flexDirection") == "column-reverse":
                n["style"]["flexDirection"] = "column"
            n["measure"] = {"kind": "intrinsic-text",
                            "text": " ".join(r.choice(WORDS) for _ in range(r.randint(1, 5)))}

    available = {"width": None, "height": None}
    if r.random() < 0.5:
        available["width"] = r.choice([100, 150, 200, 250, 300, 375])
    if r.random() < 0.4:
        available["height"] = r.choice([100, 200, 300, 500])
    direction = "rtl" if r.random() < 0.35 else "ltr"
    return root, available, direction


# ----------------------------------------------------------------------------- Yoga layout
def build_yoga(spec, config):
    """A pyyoga (Yoga 3.2.1) tree for `spec`; each spec node keeps its Yoga node in `_yoga`."""
    node = yg.Node(config)
    apply_style(node, spec["style"])
    for i, child in enumerate(spec["children"]):
        node.insert_child(build_yoga(child, config), i)
    if "measure" in spec:
        is_column = spec["style"].get("flexDirection", "column") == "column"
        measure = intrinsic_text_measure(spec["measure"]["text"], is_column)
        node.set_measure_func(lambda w, wm, h, hm: measure(w, int(wm), h, int(hm)))
    spec["_yoga"] = node
    return node


def main_enum(value):
    """The yoga-python member spelled like a pyyoga one (`None` is `None_` there)."""
    enum = getattr(yg_main, type(value).__name__)
    return getattr(enum, value.name if value.name != "None" else "None_")


def apply_style_main(node, style):
    """`apply_style` for yoga-python. An `auto` size or flex basis is left at Yoga's default
    (auto): yoga-python 0.1.5 turns an assigned YGValueAuto flex basis into 0 points."""
    def length(value):
        if isinstance(value, str) and value.endswith("%"):
            return yg_main.YGValuePercent(float(value[:-1]))
        return yg_main.YGValuePoint(float(value))

    enum_keys = {"flexDirection": ("flex_direction", FLEX_DIRECTIONS),
                 "justifyContent": ("justify_content", JUSTIFY),
                 "alignItems": ("align_items", ALIGN), "alignSelf": ("align_self", ALIGN),
                 "alignContent": ("align_content", ALIGN), "flexWrap": ("flex_wrap", WRAP),
                 "position": ("position_type", POSITION), "display": ("display", DISPLAY),
                 "overflow": ("overflow", OVERFLOW), "direction": ("direction", DIRECTION)}
    sizes = {"width": "width", "height": "height", "minWidth": "min_width",
             "minHeight": "min_height", "maxWidth": "max_width", "maxHeight": "max_height",
             "flexBasis": "flex_basis"}
    for key, value in style.items():
        if key in enum_keys:
            attr, table = enum_keys[key]
            setattr(node, attr, main_enum(table[value]))
        elif key in ("flexGrow", "flexShrink", "aspectRatio"):
            setattr(node, {"flexGrow": "flex_grow", "flexShrink": "flex_shrink",
                           "aspectRatio": "aspect_ratio"}[key], float(value))
        elif key in sizes:
            if value == "auto":
                continue  # the default
            setattr(node, sizes[key], length(value))
        elif key in INSET_EDGE: node.set_position(main_enum(INSET_EDGE[key]), length(value))
        elif key.startswith("margin"):
            edge = main_enum(EDGE_SUFFIX[key[6:]])
            if value == "auto":
                node.set_margin_auto(edge)
            else:
                node.set_margin(edge, length(value))
        elif key.startswith("padding"):
            node.set_padding(main_enum(EDGE_SUFFIX[key[7:]]), length(value))
        elif key in BORDER_EDGE: node.set_border(main_enum(BORDER_EDGE[key]), float(value))
        elif key in GAP_GUTTER: node.set_gap(main_enum(GAP_GUTTER[key]), float(value))
        else: raise KeyError(f"style key {key} has no Yoga mapping")


def build_yoga_main(spec, config):
    """A yoga-python (Yoga main) tree for `spec`, kept in each spec node's `_yoga_main`."""
    node = yg_main.Node(config)
    apply_style_main(node, spec["style"])
    for i, child in enumerate(spec["children"]):
        node.insert_child(build_yoga_main(child, config), i)
    if "measure" in spec:
        is_column = spec["style"].get("flexDirection", "column") == "column"
        measure = intrinsic_text_measure(spec["measure"]["text"], is_column)
        node.set_measure_func(lambda _n, w, wm, h, hm: measure(w, wm.value, h, hm.value))
    spec["_yoga_main"] = node
    return node


def layout(spec, available, direction, which):
    """Lays `spec` out with one Yoga ("3.2.1" or "main"); its frames in pre-order."""
    if which == "main":
        config = yg_main.Config()
        root = build_yoga_main(spec, config)
        root.calculate_layout(available["width"] if available["width"] is not None else math.nan,
                              available["height"] if available["height"] is not None else math.nan,
                              main_enum(DIRECTION[direction]))
        key = "_yoga_main"
    else:
        config = yg.Config()
        config.point_scale_factor = 1.0
        root = build_yoga(spec, config)
        root.calculate_layout(available["width"], available["height"], DIRECTION[direction])
        key = "_yoga"
    out = []

    def walk(s):
        n = s[key]
        out.append((n.layout_left, n.layout_top, n.layout_width, n.layout_height))
        for c in s["children"]:
            walk(c)
    walk(spec)
    root.free_recursive()
    return out


def same_frames(a, b, tolerance=0.01):
    return len(a) == len(b) and all(abs(x - y) <= tolerance for fa, fb in zip(a, b)
                                    for x, y in zip(fa, fb))


def has_nan(frames_):
    return any(math.isnan(v) for f in frames_ for v in f)


def number(v):
    """A float32 layout value as compact JSON: whole numbers as ints."""
    if math.isnan(v):
        raise ValueError("NaN in layout")
    r = round(v, 4)
    return int(r) if r == int(r) else r


def expected_frames(spec, flat):
    """The `expected` tree of FORMAT.md from pre-order frames."""
    it = iter(flat)

    def walk(s):
        left, top, width, height = next(it)
        out = {"id": s["id"], "left": number(left), "top": number(top),
               "width": number(width), "height": number(height)}
        if s["children"]:
            out["children"] = [walk(c) for c in s["children"]]
        return out
    return walk(spec)


def wire_node(spec):
    out = {"id": spec["id"], "style": spec["style"]}
    if "measure" in spec:
        out["measure"] = spec["measure"]
    if spec["children"]:
        out["children"] = [wire_node(c) for c in spec["children"]]
    return out


def tags_of(spec, acc):
    s = spec["style"]
    if s.get("position") == "absolute": acc.add("absolute")
    if s.get("flexWrap") in ("wrap", "wrap-reverse"): acc.add("wrap")
    if any(v == "auto" for k, v in s.items() if k.startswith("margin")): acc.add("autoMargin")
    if any(isinstance(v, str) and v.endswith("%") for v in s.values()): acc.add("percent")
    if "aspectRatio" in s: acc.add("aspectRatio")
    if s.get("display") == "none": acc.add("displayNone")
    if any(k in GAP_GUTTER for k in s): acc.add("gap")
    if "baseline" in (s.get("alignItems"), s.get("alignSelf")): acc.add("baseline")
    if any(k in ("minWidth", "minHeight", "maxWidth", "maxHeight") for k in s): acc.add("minMax")
    if "measure" in spec: acc.add("measure")
    for c in spec["children"]:
        tags_of(c, acc)
    return acc


def count(spec):
    return 1 + sum(count(c) for c in spec["children"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--sample", type=int, default=1000,
                    help="agreeing cases to write to --out, evenly spread (0: all)")
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--all-out", help="also write every agreeing case here")
    args = ap.parse_args()
    if yg_main is None:
        print("yoga-python (Yoga main) is not installed; see the docstring", file=sys.stderr)
        return 2

    agreeing = []
    yogas_differ = []
    redrawn = 0
    for i in range(args.cases):
        # A tree a Yoga leaves with a NaN frame (it happens under display: none) has no defined
        # answer to compare against: draw another tree for this case.
        for attempt in range(100):
            root, available, direction = random_case(args.seed, i, attempt)
            old = layout(root, available, direction, "3.2.1")
            new = layout(root, available, direction, "main")
            if not has_nan(old) and not has_nan(new):
                break
            redrawn += 1
        if not same_frames(old, new):
            yogas_differ.append(i)
            continue
        agreeing.append({
            "name": f"yoga_s{args.seed}_{i:05d}",
            "source": f"yoga_diff_vectors.py --seed {args.seed}, case {i}, attempt {attempt}",
            "config": {"pointScaleFactor": 1, "useWebDefaults": False,
                       "experimentalFeatures": [],
                       "errata": "min-size-undefined-instead-of-auto"},
            "available": available,
            "direction": direction,
            "root": wire_node(root),
            "expected": expected_frames(root, old),
            "tags": sorted(tags_of(root, set())),
            "_index": i,
            "_nodes": count(root),
        })

    print(f"{args.cases} trees (seed {args.seed}, {redrawn} redrawn for NaN frames): "
          f"{len(agreeing)} agree between Yoga 3.2.1 and main, {len(yogas_differ)} differ")
    if args.all_out:
        write(agreeing, args.all_out)
    sample = agreeing
    if args.sample and args.sample < len(agreeing):
        step = len(agreeing) / args.sample
        picked = {int(k * step) for k in range(args.sample)}
        sample = [c for k, c in enumerate(agreeing)
                  if k in picked or c["_index"] in REGRESSION_CASES.get(args.seed, [])]
    write(sample, args.out)
    return 0


def write(cases, path):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        # One case per line: small, and diffs stay readable.
        f.write("[\n")
        f.write(",\n".join(json.dumps({k: v for k, v in c.items() if not k.startswith("_")},
                                       separators=(",", ":")) for c in cases))
        f.write("\n]\n")
    nodes = sum(c["_nodes"] for c in cases)
    print(f"wrote {len(cases)} cases, {nodes} nodes, {os.path.getsize(path)} bytes to {path}")


if __name__ == "__main__":
    status = main()
    sys.stdout.flush()
    # pyyoga 0.1.0 aborts in interpreter shutdown when measure callbacks are still attached
    # ("PyThreadState_Get: ... GIL is released"); skip the shutdown.
    os._exit(status)
