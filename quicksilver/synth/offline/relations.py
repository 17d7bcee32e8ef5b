"""Relations between the elements of two lists at one index: ``0 <= l[i] < r[i] < n``,
``0 <= rocks[i] <= capacity[i]``, ``original[i] != changed[i]`` (issue 26).

Two lists of one length whose items are related index by index (``a[i] op b[i]``, ``op`` one of
``<``, ``<=``, ``!=``) are drawn each as before, then made to hold the relation item by item
(the runtime's ``_zip``): an ordered pair of integers shares one range (every bound of either
applies to both, as the two fields of an ordered row do), so swapping two items that are out of
order meets every bound, and an item equal to its partner where they must differ is drawn
again. ``!=`` between characters or between strings of one length changes one character of
the second. The lists may carry no other rule on their values (order, distinctness, fixed
positions, ...), which the changes could break; such a statement is reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.synth.offline.constraints import Lin, Ref, Unsupported
from quicksilver.synth.offline.facts import Facts, LeafInfo

Acts = list[Callable[[], None]]  # as in comparisons.py, which reads these relations
ZIP_OPS = ("<", "<=", "!=")


def zip_relation(
    facts: Facts, ra: Ref | None, op: str, rb: Ref | None, line: str, acts: Acts
) -> bool:
    """``a[i] op b[i]`` between the items of two different lists at one index, queued as a
    zip; False when it is no such relation (the caller reports it as before)."""
    if ra is None or rb is None or op not in ZIP_OPS:
        return False
    names = []
    for ref in (ra, rb):
        if len(ref.params) != 1 or ref.col >= 0:
            return False
        p = facts.by_name[ref.params[0]]
        item = ref.kind == "leaf" and p.depth == 1 and not p.join
        string = ref.kind == "container" and p.join and p.depth == 2 and ref.depth == 1
        if p.tree or not (item or string) or (string and op != "!="):
            return False
        names.append(p.name)
    a, b = names
    if a == b or not _one_index(line, a, b):
        return False
    acts.append(partial(facts.zips.append, (a, b, op, line)))
    return True


def _one_index(line: str, a: str, b: str) -> bool:
    """Both lists indexed by the same single name (``l[i] < r[i]``, not ``l[i] < r[j]``)."""
    found = set()
    for name in (a, b):
        found |= set(re.findall(rf"(?<![\w.]){re.escape(name)}\[\s*([A-Za-z_]\w*)\s*\]", line))
    return len(found) == 1


def share_ranges(facts: Facts) -> None:
    """The two lists of an ordered zip share one range (every bound of either applies to
    both), so that swapping two items out of order keeps both in range."""
    for a, b, op, _line in facts.zips:
        if op == "!=":
            continue
        ia, ib = facts.leaf[a], facts.leaf[b]
        lo = [*ia.lo, *(x for x in ib.lo if x not in ia.lo)]
        hi = [*ia.hi, *(x for x in ib.hi if x not in ia.hi)]
        ia.lo, ib.lo = list(lo), list(lo)
        ia.hi, ib.hi = list(hi), list(hi)


def zip_specs(facts: Facts, params: list[dict[str, Any]], problems: list[str]) -> list[list[Any]]:
    """The spec's ``zips`` ([a, b, op] each), or a problem for each one the runtime cannot
    keep: lists of different lengths, a list with another rule on its values, a list in two
    zips, an ordered pair that is not of integers in a range."""
    by_name = {p["name"]: p for p in params}
    out: list[list[Any]] = []
    seen: set[str] = set()
    for a, b, op, line in facts.zips:
        pa, pb = by_name[a], by_name[b]
        why = _zip_problem(facts, pa, pb, op) or (
            "a list in two relations with others" if {a, b} & seen else None
        )
        if why:
            problems.append(f'"{line}": {why}')
            continue
        seen |= {a, b}
        out.append([a, b, op])
    return out


def _zip_problem(facts: Facts, pa: dict[str, Any], pb: dict[str, Any], op: str) -> str | None:
    if pa["dims"][0] != pb["dims"][0]:
        return "a relation item by item between lists that need not have one length"
    for p in (pa, pb):
        info: LeafInfo = facts.leaf[p["name"]]
        extra = [k for k in ("sorted", "distinct") if p.get(k)]
        extra += [
            k
            for k in ("pins", "apart", "lead", "spaces", "values_sum_max", "square", "below_index")
            if k in p
        ]
        if extra or info.ne or p["kind"] != "list":
            return f"a relation item by item with {p['name']}, which has other rules ({extra})"
    if op == "!=":
        if pa["leaf"]["type"] != pb["leaf"]["type"] or pa.get("join") != pb.get("join"):
            return "an inequality between items of different kinds"
        if pb["leaf"]["type"] == "float":
            return "an inequality between floating-point items"
        return None  # strings of different lengths differ already
    if any(p["leaf"]["type"] != "int" or "set" in p["leaf"] for p in (pa, pb)):
        return "an order item by item between lists that are not integers in a range"
    return None


def index_bound(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``0 <= nextVisit[i] <= i``, ``0 <= parent[i] < i``: each value at most its own index
    (plus a constant). The list's values are bounded by its last index as well (a range the
    schedule knows); the runtime draws a value above its index again below it. Only a
    constant least value that index 0 leaves room for is read."""
    m = re.fullmatch(
        r"(?P<lo>-?\d+) (?P<lop><=|<) (?P<x>[A-Za-z_]\w*)\[i\] (?P<op><=|<) i"
        r"(?: (?P<sign>[-+]) (?P<k>\d+))?",
        text,
    )
    if not m:
        return False
    p = facts.by_name.get(m["x"])
    if p is None or p.depth != 1 or p.tree or p.join or p.leaf != "int":
        raise Unsupported(f"a bound by the index on {m['x']}, which is not a list of integers")
    k = int(m["k"] or 0) * (-1 if m["sign"] == "-" else 1) - (m["op"] == "<")
    lo = int(m["lo"]) + (m["lop"] == "<")
    if lo > k:
        raise Unsupported("a bound by the index that leaves the first item no value")
    info = facts.leaf[p.name]
    length = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
    acts.append(partial(info.lo.append, (Lin(Fraction(lo)), False, line)))
    acts.append(partial(info.hi.append, (length + Lin(Fraction(k - 1)), False, line)))
    acts.append(partial(setattr, info, "below_index", (k, line)))
    return True
