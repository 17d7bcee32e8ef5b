"""The emitted runtime's candidates for the worst-case search (:func:`_perf_variants`, DPE's
structured variants: docs/offline-synthesizer.md, "Structured variants"). Copied into every
generated generator with the rest of the runtime (:mod:`.runtime`), so it uses only builtin
types and the runtime's ``_ruled_values``."""

from __future__ import annotations

from quicksilver.synth.offline.runtime_occurs import _ruled_values


def _perf_variants(spec: dict) -> list:
    """The worst-case search's candidates for ``spec``: one structured variant of one argument
    each, only where every stated constraint still holds (no equal values where they must be
    distinct, no reordering of a list stated sorted, no extreme ends next to excluded values)."""
    out: list = []
    for p in spec["params"]:
        if p["kind"] in ("quantity", "scalar") or "cols" in p:
            continue
        leaf = p["leaf"]
        if leaf["type"] not in ("int", "char") or not (leaf.get("alphabet", "x") or "set" in leaf):
            continue  # booleans and floats: no structure worth a variant
        names = []
        if not p["sorted"]:
            names += ["sorted", "reversed", "alternating"]
        if not p["distinct"] and not _ruled_values(p):
            names += ["equal", "few"]
            if not leaf.get("ne"):
                names.append("extremes")
            bounds = leaf.get("lo", []) + leaf.get("hi", [])
            if (
                leaf["type"] == "int"
                and "set" not in leaf
                and not leaf.get("ne")
                and bounds
                and all(isinstance(b, int) for b in bounds)
                and max(leaf["lo"]) <= 0 <= min(leaf["hi"])
            ):
                names.append("zeros")
        if p["kind"] == "tree" and not p.get("bst"):
            names.append("bst")
        for v in names:
            out.append({"label": p["name"] + ":" + v, "values": {p["name"]: v}})
        if p["kind"] == "tree" or p.get("parent_tree"):  # a path: the deepest tree
            out.append({"label": p["name"] + ":path", "shape": {p["name"]: "path"}})
    for item in spec["quantities"]:
        if item["size"]:
            continue
        for skew in ("min", "sqrt", "half", "max"):
            out.append({"label": item["name"] + "=" + skew, "quantities": {item["name"]: skew}})
    return out
