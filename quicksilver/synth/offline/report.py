"""The human-readable report of a spec: the notes a generated file's header carries and the
synthesizer returns, one per quantity and per parameter, saying how each was understood and how it
is drawn (the sampling policy, in Mercury's random mode or DPE's perf mode).
"""

from __future__ import annotations

from typing import Any

from quicksilver.synth.offline.char_sentences import char_notes
from quicksilver.synth.offline.constraints import describe_alphabet, fmt, fmt_form, fmt_range


def describe_quantity(item: dict[str, Any], size_cap: int, cap_note: str) -> tuple[str, str | None]:
    """A quantity of the spec (``name``, ``label``, ``size``, ``bounds``, and ``cap``, ``mod``,
    ``ne`` when set) as a note: its range and conditions; and, for a size whose stated maximum is
    over the cap, the note that says so (else None)."""
    bounds = item["bounds"]
    const_lo = [-b["rest"] for b in bounds if b["coef"] == 1 and not isinstance(b["rest"], dict)]
    const_hi = [b["rest"] for b in bounds if b["coef"] == -1 and not isinstance(b["rest"], dict)]
    los = [fmt(max(const_lo))] if const_lo else []
    his = [fmt(min(const_hi))] if const_hi else []
    for b in bounds:
        a, rest = b["coef"], b["rest"]
        if a in (1, -1) and not isinstance(rest, dict):
            continue
        if a > 0:
            los.append(fmt_form(_neg(rest)) if a == 1 else f"ceil({fmt_form(_neg(rest))} / {a})")
        else:
            his.append(fmt_form(rest) if a == -1 else f"floor({fmt_form(rest)} / {-a})")
    label = item["label"]
    text = f"{label} in {fmt_range(los, his)}"
    capped = None
    if item["size"]:
        cap = size_cap
        if "cap" in item:  # a free n whose length is a * n + c
            cap = (cap - item["cap"][1]) // item["cap"][0]
        if const_hi and min(const_hi) > cap:
            capped = f"{label} capped at {cap} of the stated {fmt(min(const_hi))}"
        text += f", {cap_note}"
    if "mod" in item:
        m, r = item["mod"]
        text += f", {'even' if (m, r) == (2, 0) else 'odd' if m == 2 else f'% {m} == {r}'}"
    if "ne" in item:
        text += ", " + ", ".join(b["text"] for b in item["ne"])
    return text, capped


def param_notes(
    params: list[dict[str, Any]],
    qnotes: dict[str, str],
    sizes: set[str],
    *,
    perf: bool,
    cap_note: str,
) -> list[str]:
    """One note per parameter of the spec: its kind, its dimensions (each quantity's note from
    ``qnotes``; ``sizes``: the quantities drawn as sizes), its values and how they are drawn."""
    out = []
    for p in params:
        head = f"{p['name']} ({p['type']}): "
        if p["kind"] == "quantity":
            how = _size_policy(perf) if p["q"] in sizes else _scalar_policy(perf)
            out.append(head + f"integer {qnotes.get(p['q'], p['q'])}, {how}")
            continue
        leaf = describe_leaf(p["leaf"])
        extras = []
        if p.get("distinct"):
            d = p["distinct"]
            extras.append(
                "distinct strings"
                if d["level"] == "string"
                else "distinct values" + (" within each list" if d["scope"] == "each" else "")
            )
        if p.get("sorted"):
            order = "non-decreasing" if p["sorted"] == "asc" else "non-increasing"
            extras.append(f"sorted ({order})")
        extras += char_notes(p)
        tail = "".join(f"; {e}" for e in extras)
        if p["kind"] == "scalar":
            out.append(head + leaf + tail)
            continue
        shape = []
        for d in p["dims"]:
            if "q" in d:
                shape.append(qnotes.get(d["q"], d["q"]))
            else:
                extra = f", their sum at most {fmt(d['sum_max'])}" if "sum_max" in d else ""
                rng = f"[{fmt(d['lo'])}, {fmt(d['hi'])}]"
                shape.append(f"{d['name']} each in {rng}, {cap_note}{extra}")
        if "cols" in p:
            fields = p["fields"]
            what = f"{shape[0]}; rows [{', '.join(fields)}]; " + "; ".join(
                f"{f}: {describe_leaf(c)}" for f, c in zip(fields, p["cols"], strict=True)
            )
            for a, b, op in p.get("pairs", ()):
                what += f"; {fields[a]} {op} {fields[b]}"
            if p.get("unique_rows"):
                key = ", ".join(fields[j] for j in p.get("unique_key", ()))
                what += f"; no two rows hold the same {key or 'values'}"
            if p.get("tree_edges"):
                what += (
                    f"; {fields[0]}, {fields[1]}: the edges of a random tree over every value of "
                    f"{fields[0]}'s range (~10% a path)"
                )
        elif p["kind"] == "tree":
            how_shaped = "" if perf else " (~10% path-shaped)"
            what = f"a random binary tree{how_shaped}, node count {shape[0]}; values {leaf}"
            if p.get("tree_shape"):  # tree_shapes.py: the perfect one keeps 2^k - 1 nodes
                kept = " (then the largest 2^k - 1 not above it)" * (p["tree_shape"] == "perfect")
                what = (
                    f"a {p['tree_shape']} binary tree, node count {shape[0]}{kept}; values {leaf}"
                )
        elif p["join"] and len(shape) == 1:
            what = f"a string, length {shape[0]}; characters: {leaf}"
        else:
            dims = "; ".join(shape)
            what = f"{dims}; {'characters' if p['leaf']['type'] == 'char' else 'values'} {leaf}"
        out.append(head + what + tail)
    return out


def _neg(form: Any) -> Any:
    if isinstance(form, dict):
        return {"const": -form["const"], "terms": {k: -v for k, v in form["terms"].items()}}
    return -form


def _scalar_policy(perf: bool = False) -> str:
    if perf:
        return (
            "min(its max, scale) when the range spans >= 3 orders of magnitude from >= 0, "
            "else random"
        )
    return "log-uniform in magnitude when the range spans >= 3 orders of magnitude, else uniform"


def _size_policy(perf: bool = False) -> str:
    return "a size: min(its max, scale)" if perf else "a size: uniform"


def describe_leaf(leaf: dict[str, Any]) -> str:
    t = leaf["type"]
    if t == "bool":
        return "true/false uniformly"
    if t == "char":
        return describe_alphabet(leaf["alphabet"])
    if t == "word":
        return "one of the words " + ", ".join(repr(w) for w in leaf["set"])
    if t == "float":
        lo = "(" if leaf["lo_strict"] else "["
        hi = ")" if leaf["hi_strict"] else "]"
        return f"floats uniform in {lo}{leaf['lo']}, {leaf['hi']}{hi}"
    if "set" in leaf:
        return "from {" + ", ".join(str(v) for v in leaf["set"]) + "}"
    rng = fmt_range([fmt_form(x) for x in leaf["lo"]], [fmt_form(x) for x in leaf["hi"]])
    return f"integers uniform in {rng}"
