"""Bounds that hold for some indexes only, and trees given by their parents.

- **A bound for a range of indexes** (``1 <= patience[i] <= 10^5 for 1 <= i < n``, ``0 <=
  parent[i] <= n - 1 for all i >= 1``, ``0 <= parents[i] <= n - 1 for i != 0``, ``... where i
  lies in the range [1, n - 1]``): a chain over the items ``x[i]`` of one list of integers, for
  the indexes from ``k`` to the list's end. The chain is read as the list's value range, and the
  spec's ``"head": k`` says the first ``k`` items are outside it: each of them must be a fixed
  position another line states (``patience[0] == 0``, ``parent[0] == -1``), which is then
  allowed outside the range. A quantifier that ends before the list's last index, or an item
  below ``k`` that no line fixes, is reported.
- **A tree given by its parents** (``parent represents a valid tree``, ``parents represents a
  valid binary tree``, ``Every room is reachable from room 0 ...``): a list of integers whose
  item ``i`` is the parent of node ``i``, the root 0 (its item a fixed value, ``parent[0] ==
  -1``), the others' values the nodes ``0 .. n - 1``. The spec's ``"parent_tree": {"binary":
  bool}``; the runtime (``runtime_quant._parent_tree``) draws a random rooted tree over the
  indexes (a path now and then), the checker (``checker_quant.py``) walks every node up to the
  root. Only where the values' range is exactly the nodes and no other rule is on the list.
- **Two lists in one chain** (``endTime[i] <= startTime[i + 1] where i lies in the range [0, n -
  2]`` with the zip ``startTime[i] < endTime[i]``): the spec's ``"chain": [a, op]`` on the
  second list; the runtime (``runtime_quant._chains``) sorts both lists' values into one chain
  ``a[0], b[0], a[1], ...``, and the schedule keeps the room its strict steps need
  (:func:`chain_room`).

These keys appear only where a statement states them, so every other spec is unchanged.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.synth.offline.comparisons import Acts, Comparisons
from quicksilver.synth.offline.constraints import Lin, Param, Ref, Unsupported
from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.quantities import Quantities


@dataclass
class QuantFacts:
    """What this module read about each list: the first index of a quantified bound, its last
    index (a form that must be the list's length minus one) and the line; a parent tree."""

    heads: dict[str, list[tuple[int, Lin | None, str]]] = field(default_factory=dict)
    trees: dict[str, tuple[bool, str]] = field(default_factory=dict)  # name -> (binary, line)
    # ``endTime[i] <= startTime[i + 1]`` for i up to n - 2: (b, op, a, the last i, line)
    chains: list[tuple[str, str, str, Lin | None, str]] = field(default_factory=list)


_STATE: weakref.WeakKeyDictionary[Facts, QuantFacts] = weakref.WeakKeyDictionary()


def state(facts: Facts) -> QuantFacts:
    """This module's facts beside ``facts`` (kept apart, so facts.py needs no field)."""
    if facts not in _STATE:
        _STATE[facts] = QuantFacts()
    return _STATE[facts]


# the index set of a quantifier: from k to the end, or from k to a stated last index
_QUANT = re.compile(
    r"(?P<chain>.+?),? (?:for (?:all |any |every |each )?(?:valid )?|where (?:all )?)"
    r"(?:(?P<var>[a-z])(?: (?P<op>>=|>|!=) (?P<k>\d+)| (?:lies |is )?in (?:the )?range "
    r"\[(?P<rk>\d+), (?P<rend>[^\[\]]+)\])"
    r"|(?P<lk>\d+) <= (?P<lvar>[a-z]) (?P<eop><=|<) (?P<end>.+?))"
    r"(?: \(0-indexed\))?"
)


def quantified_bound(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``LO <= x[i] <= HI for all i >= k`` (and the quantifiers above): the chain as the list's
    value range, and ``k`` its first index. False when the line has no such quantifier."""
    m = _QUANT.fullmatch(text)
    if not m:
        return False
    var = m["var"] or m["lvar"]
    if m["op"] == "!=" and m["k"] != "0":
        raise Unsupported("a bound for every index but one inside the list")
    k = int(m["k"] or m["rk"] or m["lk"] or 0) + (m["op"] in (">", "!="))
    end: Lin | None = None
    if m["end"] is not None:
        end = facts.parse(m["end"]) - Lin(Fraction(1 if m["eop"] == "<" else 0))
    elif m["rend"] is not None:
        end = facts.parse(m["rend"])
    chain = m["chain"]
    if _next_item(facts, chain, var, k, end, line, acts):
        return True
    names = set(re.findall(rf"([A-Za-z_]\w*)\[{var}\]", chain))
    if len(names) != 1 or re.search(rf"\[(?!{var}\])", chain) or re.search(r"\w_\w", chain):
        raise Unsupported(f"a quantified relation that is not a bound on one list's items {var}")
    (name,) = names
    p = facts.by_name.get(name)
    if p is None or p.depth != 1 or p.tree or p.join or p.leaf != "int":
        raise Unsupported(f"a bound for some indexes of {name}, which is not a list of integers")
    chain = re.sub(rf"\[{var}\]", "[i]", chain)
    if not Comparisons(facts).chain(chain, acts, line):
        raise Unsupported("a quantifier on no comparison")
    acts.append(partial(state(facts).heads.setdefault(name, []).append, (k, end, line)))
    return True


def _next_item(
    facts: Facts, chain: str, var: str, k: int, end: Lin | None, line: str, acts: Acts
) -> bool:
    """``endTime[i] <= startTime[i + 1]`` for every i but the last: each item of one list and
    the next item of another (which a zip ``startTime[i] < endTime[i]`` pairs with it): the
    two lists interleaved are one sorted chain. Recorded here; checked in :func:`quant_specs`."""
    m = re.fullmatch(rf"(\w+)\[{var}\] (<=|<) (\w+)\[{var} \+ 1\]", chain)
    if not m:
        return False
    b, op, a = m.groups()
    if a == b:
        raise Unsupported("an order between neighbours of one list for some indexes only")
    if k != 0 or end is None:
        raise Unsupported("an order between a list's items and another's next ones, not for all i")
    for name in (a, b):
        p = facts.by_name.get(name)
        if p is None or p.depth != 1 or p.tree or p.join or p.leaf != "int":
            raise Unsupported(f"an order between items of {name}, which is not a list of integers")
    acts.append(partial(state(facts).chains.append, (b, op, a, end, line)))
    return True


def _chain_zip(facts: Facts, b: str, a: str) -> str | None:
    """The order ``a[i] op b[i]`` of the zip that pairs the two lists, if one does."""
    ops = [op for x, y, op, _ln in facts.zips if (x, y) == (a, b) and op in ("<", "<=")]
    return ops[0] if len(ops) == 1 else None


def chain_room(facts: Facts) -> None:
    """The room an interleaved chain needs: its range holds a step up at each strict ``<`` (n
    of them within the pairs, n - 1 between them), so ``hi - lo`` is at least their number (a
    bound every valid input meets, given to the schedule; before it runs)."""
    for b, op, a, _end, line in state(facts).chains:
        within = _chain_zip(facts, b, a)
        if within is None:
            continue  # reported by quant_specs
        n = _length(facts, a)
        steps = n.scale(Fraction(within == "<")) + (n - Lin(Fraction(1))).scale(Fraction(op == "<"))
        info = facts.leaf[a]
        for lo, lo_strict, _l1 in info.lo:
            for hi, hi_strict, _l2 in info.hi:
                room = hi - lo - steps - Lin(Fraction(int(lo_strict) + int(hi_strict)))
                facts.lins.append((room, f"{line} (room for the chain of {a} and {b})"))


def parent_tree(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``parents represents a valid binary tree``, ``Every room is reachable from room 0``
    (of the one list of integers): the list gives each node's parent. ``X represents a valid
    tree`` of a list of integers is handed here by ``row_sentences.tree_rows``."""
    m = re.fullmatch(
        r"(?:the input is generated such that |it is guaranteed that )?(\w+) (?:represents?|"
        r"forms?|is) (?:a )?valid (binary )?tree",
        text,
        flags=re.I,
    )
    if m:
        name, binary = m.group(1), bool(m.group(2))
    elif re.fullmatch(
        r"(?:every|each|all(?: the)?) (\w+?)s? (?:is|are|can be) reachable from (?:the )?\1 0"
        r"(?: once all (?:the )?\1s are \w+)?",
        text,
        flags=re.I,
    ):
        lists = [p.name for p in facts.params if p.depth == 1 and p.leaf == "int" and not p.join]
        if len(lists) != 1:
            raise Unsupported("every node reachable from node 0, but not one list of integers")
        name, binary = lists[0], False
    else:
        return False
    p = facts.by_name.get(name)
    if p is None or not parent_list(p):
        return False
    acts.append(partial(state(facts).trees.__setitem__, name, (binary, line)))
    return True


def parent_list(p: Param) -> bool:
    """A list that can give a tree by its parents: one level of integers."""
    return p.depth == 1 and not p.tree and not p.join and p.leaf == "int"


def pinned_head(facts: Facts, name: str, path: list[int | None]) -> bool:
    """A fixed position below the first index of a quantified bound on ``name``'s values:
    the range does not hold there, so its value may lie outside it (shapes.py asks)."""
    heads = state(facts).heads.get(name)
    if not heads or len(path) != 1 or path[0] is None:
        return False
    return 0 <= path[0] < _first(heads)


def _first(heads: list[tuple[int, Lin | None, str]]) -> int:
    return min(k for k, _end, _line in heads)


_PLAIN = {"name", "type", "kind", "dims", "leaf", "join", "sorted", "distinct", "pins"}


def quant_specs(
    facts: Facts, q: Quantities, params: list[dict[str, Any]], problems: list[str], notes: list[str]
) -> None:
    """The params' ``head`` and ``parent_tree``, or a problem for each that cannot be drawn
    exactly as stated."""
    st = state(facts)
    by_name = {p["name"]: p for p in params}
    for name, heads in st.heads.items():
        out, k = by_name[name], _first(heads)
        why = _head_problem(facts, q, out, heads, k)
        if why:
            problems.append(f'"{heads[0][2]}": {why}')
            continue
        if k:
            out["head"] = k
            notes.append(f"{name}: its stated range holds from index {k}; the items before fixed")
    for b, op, a, end, line in st.chains:
        why = _chain_problem(facts, q, by_name, (b, a, end))
        if why:
            problems.append(f'"{line}": {why}')
            continue
        by_name[b]["chain"] = [a, op]
        within = _chain_zip(facts, b, a)
        notes.append(f"{a}[0] {within} {b}[0] {op} {a}[1] ...: both lists' values in one chain")
    for name, (binary, line) in st.trees.items():
        out = by_name[name]
        why = _tree_problem(facts, q, out)
        if why:
            problems.append(f'"{line}": {why}')
            continue
        out["parent_tree"] = {"binary": binary}
        notes.append(f"{name}: a random {'binary ' * binary}tree given by its parents, root 0")


def _length(facts: Facts, name: str) -> Lin:
    return Lin(Fraction(0), {Ref("q", key=facts.by_name[name].dim_key(0)): Fraction(1)})


def _is_last(facts: Facts, q: Quantities, name: str, form: Lin) -> bool:
    """``form`` is the list's last index (its length minus one) through the stated aliases."""
    got = q.to_cls(form - _length(facts, name) + Lin(Fraction(1)))
    return got is not None and got == ({}, 0)


def _head_problem(
    facts: Facts,
    q: Quantities,
    out: dict[str, Any],
    heads: list[tuple[int, Lin | None, str]],
    k: int,
) -> str | None:
    """Why the items from ``k`` on cannot hold the range and those before a fixed value."""
    name = out["name"]
    if any(end is not None and not _is_last(facts, q, name, end) for _k, end, _ln in heads):
        return "a bound for indexes that do not reach the list's end"
    if len({kk for kk, _end, _ln in heads}) > 1:
        return "bounds for different ranges of indexes"
    if not k:
        return None
    fixed = {tuple(pin[0]) for pin in out.get("pins", []) if len(pin) == 2}
    missing = [j for j in range(k) if (j,) not in fixed]
    if missing:
        return f"a bound from index {k} on, but no stated value for {name}[{missing[0]}]"
    if set(out) - _PLAIN - {"parent_tree"} or out.get("sorted") or out.get("distinct"):
        return "a bound for some indexes, with other rules on the list"
    if "set" in out["leaf"] or out["leaf"]["type"] != "int":
        return "a bound for some indexes of a list that is not of integers in a range"
    return None


def _chain_problem(
    facts: Facts,
    q: Quantities,
    by_name: dict[str, dict[str, Any]],
    chain: tuple[str, str, Lin | None],
) -> str | None:
    """Why two lists cannot be drawn as one interleaved chain: no zip orders their pairs, the
    quantifier is not every index but the last, or another rule is on either list."""
    b, a, end = chain
    if _chain_zip(facts, b, a) is None:
        return f"an order to the next item of {a}, with no order {a}[i] < {b}[i]"
    if end is None or not _is_last(facts, q, a, end + Lin(Fraction(1))):
        return "an order to the next item, not for every i but the last"
    for x in (a, b):
        out = by_name[x]
        if set(out) - _PLAIN or out.get("sorted") or out.get("distinct") or out.get("pins"):
            return "an order to the next item, with other rules on the lists"
        if "set" in out["leaf"] or out["leaf"]["type"] != "int":
            return "an order to the next item of lists that are not integers in a range"
    return None


def _tree_problem(facts: Facts, q: Quantities, out: dict[str, Any]) -> str | None:
    """Why the list cannot be drawn as a tree's parents: the root 0 must have a fixed value,
    the others' range must be exactly the nodes, and no other rule may be on the list."""
    name, leaf = out["name"], out["leaf"]
    if set(out) - _PLAIN - {"head"} or out.get("sorted") or out.get("distinct"):
        return "a tree given by its parents, with other rules on the list"
    if leaf["type"] != "int" or "set" in leaf or leaf.get("ne"):
        return "a tree given by its parents, whose values are not a range of nodes"
    if not any(len(pin) == 2 and pin[0] == [0] for pin in out.get("pins", [])):
        return f"a tree given by its parents, with no stated value for the root {name}[0]"
    info = facts.leaf[name]
    los = [(b + Lin(Fraction(1))) if strict else b for b, strict, _ln in info.lo]
    his = [(b - Lin(Fraction(1))) if strict else b for b, strict, _ln in info.hi]
    lo_ok = bool(los) and all(q.to_cls(b) == ({}, 0) for b in los)
    hi_ok = bool(his) and all(_is_last(facts, q, name, b) for b in his)
    if not (lo_ok and hi_ok):
        return f"a tree given by its parents, but {name}'s range is not 0 to {name}.length - 1"
    return None
