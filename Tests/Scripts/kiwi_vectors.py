#!/usr/bin/env python3
"""Generate differential test vectors for the Swift SimplexSolver with kiwisolver.

Random linear systems (fixed seeds) with mixed kiwi strengths are solved by kiwisolver; the
systems and kiwi's solutions go to Tests/Fixtures/constraints/kiwi-vectors.json, which
ConstraintKiwiVectorTests replays. Only systems with a unique optimum are kept: every variable
is pinned by a weak constraint with a random weight (so ties between equal weights are
improbable) and each system is re-solved in several shuffled constraint orders; a system whose
solutions differ between orders is ambiguous and dropped. Systems that kiwi reports
unsatisfiable are kept with the index of the failing constraint.

Usage: pip install kiwisolver && python3 Tests/Scripts/kiwi_vectors.py
"""
import json
import os
import random

import kiwisolver as kiwi

REQUIRED = 1001001000.0
STRONG, MEDIUM, WEAK = 1e6, 1e3, 1.0
SYSTEMS = 320
OUT = os.path.join(os.path.dirname(__file__), "..", "Fixtures", "constraints", "kiwi-vectors.json")


def random_strength(rng):
    r = rng.random()
    if r < 0.3:
        return REQUIRED
    base = rng.choice([STRONG, MEDIUM, WEAK])
    # A random factor in [1, 10) breaks ties between constraints of one strength.
    return round(base * rng.uniform(1, 10), 3)


def make_system(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 8)
    constraints = []
    for v in range(n):  # weak pins: every variable has a preferred value
        constraints.append({"terms": [[v, 1.0]], "constant": -float(rng.randint(-50, 150)),
                            "op": "==", "strength": round(WEAK * rng.uniform(0.1, 0.9), 4)})
    for _ in range(rng.randint(1, 3 * n)):
        k = rng.randint(1, min(3, n))
        vs = rng.sample(range(n), k)
        terms = [[v, float(rng.choice([-3, -2, -1, -0.5, 0.5, 1, 2, 3]))] for v in vs]
        constraints.append({"terms": terms, "constant": float(rng.randint(-100, 100)),
                            "op": rng.choice(["==", "<=", ">=", ">=", "<="]),
                            "strength": random_strength(rng)})
    # Pins first, as generated, then the rest shuffled into the pins' midst.
    rng.shuffle(constraints)
    edits = []
    if rng.random() < 0.35:
        for v in rng.sample(range(n), rng.randint(1, min(2, n))):
            edits.append({"variable": v, "strength": rng.choice([STRONG, MEDIUM * 5, WEAK * 50]),
                          "suggest": [float(rng.randint(-100, 200)) for _ in range(rng.randint(1, 3))]})
    return {"id": seed, "variables": n, "constraints": constraints, "edits": edits}


def solve(system, order):
    vs = [kiwi.Variable("v%d" % i) for i in range(system["variables"])]
    s = kiwi.Solver()
    for index in order:
        c = system["constraints"][index]
        expr = sum((coef * vs[v] for v, coef in c["terms"]), 0.0) + c["constant"]
        if c["op"] == "==":
            cn = expr == 0
        elif c["op"] == "<=":
            cn = expr <= 0
        else:
            cn = expr >= 0
        try:
            s.addConstraint(cn | c["strength"])
        except kiwi.UnsatisfiableConstraint:
            return ("unsat", index)
    for e in system["edits"]:
        s.addEditVariable(vs[e["variable"]], e["strength"])
        for value in e["suggest"]:
            s.suggestValue(vs[e["variable"]], value)
    s.updateVariables()
    return ("ok", [v.value() for v in vs])


def main():
    systems = []
    unsat = 0
    ambiguous = 0
    seed = 0
    while len(systems) < SYSTEMS:
        seed += 1
        system = make_system(seed)
        m = len(system["constraints"])
        kind, result = solve(system, list(range(m)))
        if kind == "unsat":
            if unsat >= SYSTEMS // 8:
                continue
            system["unsatisfiableAt"] = result
            system["solution"] = None
            unsat += 1
            systems.append(system)
            continue
        rng = random.Random(seed * 7919)
        unique = True
        for _ in range(4):
            order = list(range(m))
            rng.shuffle(order)
            k2, other = solve(system, order)
            if k2 != "ok" or any(abs(a - b) > 1e-6 for a, b in zip(result, other)):
                unique = False
                break
        if not unique:
            ambiguous += 1
            continue
        system["unsatisfiableAt"] = None
        system["solution"] = [round(x, 9) for x in result]
        systems.append(system)
    doc = {"generator": "Tests/Scripts/kiwi_vectors.py", "kiwisolver": kiwi.__version__,
           "weights": {"required": REQUIRED, "strong": STRONG, "medium": MEDIUM, "weak": WEAK},
           "note": "constraint: sum(coef * v[i]) + constant (op) 0 at kiwi strength; edits are "
                   "added after all constraints, suggestions applied in order",
           "systems": systems}
    with open(OUT, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print("wrote %d systems (%d unsatisfiable, %d ambiguous dropped) to %s, %d bytes"
          % (len(systems), unsat, ambiguous, OUT, os.path.getsize(OUT)))


if __name__ == "__main__":
    main()
