#!/usr/bin/env python3
"""Writes the request bodies of run.sh into DIR (stdlib only).

  tree1000.template  a 1,000-node /compute request whose root width and padding are the
                     placeholders @W@ and @P@ (uncached.lua puts new numbers there per request,
                     so every request has a different structural hash and is a cache miss)
  tree1000.json      the same request with a root width of 400, for layout-bench
  batch.json         a /compute/batch body: 16 small distinct trees (cached after the first)
"""
import json
import sys


def list_item(i):
    """One row of a list: 1 + 8 nodes."""
    buttons = [{"id": f"button-{i}-{k}", "style": {"width": 24, "height": 24, "marginLeft": 4}}
               for k in range(4)]
    return {
        "id": f"item-{i}",
        "style": {"flexDirection": "row", "alignItems": "center", "padding": 6,
                  "marginBottom": 4, "height": 44},
        "children": [
            {"id": f"icon-{i}", "style": {"width": 32, "height": 32}},
            {"id": f"title-{i}", "style": {"flexGrow": 1, "flexShrink": 1, "marginLeft": 8},
             "measure": {"kind": "fixed", "width": 90 + i % 40, "height": 16}},
            {"id": f"detail-{i}", "style": {"flexShrink": 1, "marginLeft": 8},
             "measure": {"kind": "fixed", "width": 40 + i % 7, "height": 14}},
            *buttons,
            {"id": f"badge-{i}", "style": {"width": "10%", "height": 16, "marginLeft": 6}},
        ],
    }


def tree1000():
    items = [list_item(i) for i in range(111)]  # 1 + 111 * 9 = 1,000 nodes
    return {"available": {"width": None, "height": None}, "direction": "ltr",
            "root": {"id": "root", "style": {"width": "@W@", "padding": "@P@"}, "children": items}}


def count(node):
    return 1 + sum(count(c) for c in node.get("children", []))


def small(width):
    return {"available": {"width": width, "height": None},
            "root": {"id": "bar", "style": {"flexDirection": "row", "padding": 10},
                     "children": [{"id": "icon", "style": {"width": 80, "height": 40}},
                                  {"id": "label", "style": {"flexGrow": 1, "marginLeft": 10},
                                   "measure": {"kind": "fixed", "width": 100, "height": 20}}]}}


def main():
    out = sys.argv[1]
    tree = tree1000()
    assert count(tree["root"]) == 1000
    text = json.dumps(tree, separators=(",", ":")).replace('"@W@"', "@W@").replace('"@P@"', "@P@")
    with open(f"{out}/tree1000.template", "w") as f:
        f.write(text)
    with open(f"{out}/tree1000.json", "w") as f:
        f.write(text.replace("@W@", "400").replace("@P@", "8"))
    with open(f"{out}/batch.json", "w") as f:
        json.dump([small(200 + 10 * k) for k in range(16)], f, separators=(",", ":"))


main()
