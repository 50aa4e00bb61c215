#!/usr/bin/env python3
"""Times kiwisolver on linear systems exported by solver-bench.

Input (argv[1]): {"systems": [{"name", "variables", "iterations",
  "constraints": [{"terms": [[var, coef]], "constant", "op", "priority", "weight"}]}]}
Priority 1000 maps to kiwi's required strength; lower priorities to weight * 1000**(p/334)
(kiwi has one weighted objective, so this approximates the Swift solver's strict priority
levels). Prints JSON {"kiwisolver": version, "results": {name: {"ns": ns_per_solve,
"values": [...]}}} on stdout.
"""
import json
import sys
import time

import kiwisolver as kiwi


def strength(c):
    if c["priority"] >= 1000:
        return kiwi.strength.required
    return min(c["weight"] * 1000.0 ** (c["priority"] / 334.0), 1e9)


def build(system, vs):
    s = kiwi.Solver()
    for c in system["constraints"]:
        expr = sum((coef * vs[v] for v, coef in c["terms"]), 0.0) + c["constant"]
        op = c["op"]
        cn = (expr == 0) if op == "==" else ((expr <= 0) if op == "<=" else (expr >= 0))
        s.addConstraint(cn | c["_strength"])
    s.updateVariables()
    return s


def main():
    doc = json.load(open(sys.argv[1]))
    results = {}
    for system in doc["systems"]:
        for c in system["constraints"]:
            c["_strength"] = strength(c)
        vs = [kiwi.Variable("v%d" % i) for i in range(system["variables"])]
        build(system, vs)  # warm up
        n = system["iterations"]
        start = time.perf_counter_ns()
        for _ in range(n):
            build(system, vs)
        ns = (time.perf_counter_ns() - start) / n
        results[system["name"]] = {"ns": ns, "values": [v.value() for v in vs]}
    print(json.dumps({"kiwisolver": kiwi.__version__, "results": results}))


if __name__ == "__main__":
    main()
