#!/usr/bin/env python3
"""Turns FORMAT.md case files into the line format read by yoga_cases_bench.c: one Yoga C API
call per line, so the C program can build any case's tree with Yoga and time it.

    cases_to_ops.py FILE.json... > cases.ops

Format (whitespace separated; `mt` takes the rest of its line):
    case NAME | config PSF WEBDEFAULTS ERRATA | avail W H | dir D
    node PARENT          next node in pre-order, PARENT = pre-order index or -1
    s FN VALUE           FN(node, float)          e.g. YGNodeStyleSetWidth
    se FN EDGE VALUE     FN(node, int, float)     edges and gutters
    sa FN                FN(node)                 e.g. YGNodeStyleSetWidthAuto
    sea FN EDGE          FN(node, int)            e.g. YGNodeStyleSetMarginAuto
    si FN INT            FN(node, int)            enums
    mb W H               benchmark-leaf measure;  mt TEXT  intrinsic-text measure
    x L T W H            expected frame of the current node
    end
Enum numbers are Yoga 3.2.1's (checked against pyyoga's enums).
"""
import json
import sys

ENUMS = {
    "flexDirection": ("YGNodeStyleSetFlexDirection", ["column", "column-reverse", "row", "row-reverse"]),
    "justifyContent": ("YGNodeStyleSetJustifyContent",
                       ["flex-start", "center", "flex-end", "space-between", "space-around", "space-evenly"]),
    "alignItems": ("YGNodeStyleSetAlignItems", None),
    "alignSelf": ("YGNodeStyleSetAlignSelf", None),
    "alignContent": ("YGNodeStyleSetAlignContent", None),
    "flexWrap": ("YGNodeStyleSetFlexWrap", ["nowrap", "wrap", "wrap-reverse"]),
    "position": ("YGNodeStyleSetPositionType", ["static", "relative", "absolute"]),
    "display": ("YGNodeStyleSetDisplay", ["flex", "none", "contents"]),
    "overflow": ("YGNodeStyleSetOverflow", ["visible", "hidden", "scroll"]),
    "direction": ("YGNodeStyleSetDirection", ["inherit", "ltr", "rtl"]),
    "boxSizing": ("YGNodeStyleSetBoxSizing", ["border-box", "content-box"]),
}
ALIGN = ["auto", "flex-start", "center", "flex-end", "stretch", "baseline", "space-between",
         "space-around"]
FLOATS = {"flex": "YGNodeStyleSetFlex", "flexGrow": "YGNodeStyleSetFlexGrow",
          "flexShrink": "YGNodeStyleSetFlexShrink", "aspectRatio": "YGNodeStyleSetAspectRatio"}
LENGTHS = {"width": "Width", "height": "Height", "minWidth": "MinWidth", "minHeight": "MinHeight",
           "maxWidth": "MaxWidth", "maxHeight": "MaxHeight", "flexBasis": "FlexBasis"}
EDGES = {"": 8, "Left": 0, "Top": 1, "Right": 2, "Bottom": 3, "Start": 4, "End": 5,
         "Horizontal": 6, "Vertical": 7}
INSETS = {"left": 0, "top": 1, "right": 2, "bottom": 3, "start": 4, "end": 5}
GUTTERS = {"columnGap": 0, "rowGap": 1, "gap": 2}
# Yoga 3.2.1 errata bits. It has no automatic minimum size, which is what Yoga main's
# `min-size-undefined-instead-of-auto` bit asks for, so that name maps to no bit here.
ERRATA = {"none": 0, "stretch-flex-basis": 1, "absolute-position-without-insets-excludes-padding": 2,
          "absolute-percent-against-inner-size": 4, "min-size-undefined-instead-of-auto": 0,
          "classic": 0x7FFFFFFE, "all": 0x7FFFFFFF}


def length(out, name, value, edge=None):
    e = "" if edge is None else f" {edge}"
    kind = "se" if edge is not None else "s"
    if value == "auto":
        out.append(f"{'sea' if edge is not None else 'sa'} YGNodeStyleSet{name}Auto{e}")
    elif isinstance(value, str) and value.endswith("%"):
        out.append(f"{kind} YGNodeStyleSet{name}Percent{e} {float(value[:-1])!r}")
    elif isinstance(value, (int, float)):
        out.append(f"{kind} YGNodeStyleSet{name}{e} {float(value)!r}")
    else:
        raise ValueError(f"{name}: value {value!r} has no Yoga 3.2.1 C call here")


def style_ops(style, out):
    for key, value in style.items():
        if key in ENUMS:
            fn, names = ENUMS[key]
            out.append(f"si {fn} {(names or ALIGN).index(value)}")
        elif key in FLOATS:
            out.append(f"s {FLOATS[key]} {float(value)!r}")
        elif key in LENGTHS:
            length(out, LENGTHS[key], value)
        elif key in INSETS:
            length(out, "Position", value, INSETS[key])
        elif key.startswith("margin"):
            length(out, "Margin", value, EDGES[key[6:]])
        elif key.startswith("padding"):
            length(out, "Padding", value, EDGES[key[7:]])
        elif key.startswith("border") and key.endswith("Width"):
            out.append(f"se YGNodeStyleSetBorder {EDGES[key[6:-5]]} {float(value)!r}")
        elif key in GUTTERS:
            length(out, "Gap", value, GUTTERS[key])
        else:
            raise ValueError(f"style key {key} is not handled")


def node_ops(node, parent, expected, out, counter):
    index = counter[0]
    counter[0] += 1
    out.append(f"node {parent}")
    style_ops(node.get("style", {}), out)
    m = node.get("measure")
    if m:
        if m["kind"] == "benchmark-leaf":
            out.append(f"mb {float(m['width'])!r} {float(m['height'])!r}")
        elif m["kind"] == "intrinsic-text":
            out.append(f"mt {m['text']}")
        else:
            raise ValueError(f"measure kind {m['kind']}")
    if expected:
        out.append("x " + " ".join(repr(float(expected[k])) for k in ("left", "top", "width", "height")))
    exp_children = (expected or {}).get("children", [])
    for i, child in enumerate(node.get("children", [])):
        node_ops(child, index, exp_children[i] if i < len(exp_children) else None, out, counter)


def short_name(name):
    # bench-trees.json's bench_<tree>_ltr, printed as yoga_bench.c and layout-bench print it
    if name.startswith("bench_"):
        name = name[len("bench_"):]
        if name.endswith("_ltr"):
            name = name[:-4]
    return name


def main():
    for path in sys.argv[1:]:
        data = json.load(open(path))
        for case in data if isinstance(data, list) else [data]:
            out = [f"case {short_name(case.get('name', 'unnamed'))}"]
            try:
                cfg = case.get("config", {})
                if cfg.get("experimentalFeatures"):
                    raise ValueError("experimental features")
                out.append(f"config {float(cfg.get('pointScaleFactor', 1))!r} "
                           f"{1 if cfg.get('useWebDefaults') else 0} {ERRATA[cfg.get('errata', 'none')]}")
                av = case.get("available") or {}
                w, h = av.get("width"), av.get("height")
                out.append("avail " + " ".join("nan" if v is None else repr(float(v)) for v in (w, h)))
                out.append(f"dir {2 if case.get('direction') == 'rtl' else 1}")
                node_ops(case["root"], -1, case.get("expected"), out, [0])
            except (ValueError, KeyError) as e:
                print(f"# skipped {case.get('name')}: {e}", file=sys.stderr)
                continue
            out.append("end")
            print("\n".join(out))


if __name__ == "__main__":
    main()
