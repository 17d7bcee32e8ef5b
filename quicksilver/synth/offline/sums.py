"""Sums over lists (issue 28): a sum of per-item lengths or of a list's values, bounded below and
above, fixed, or of a stated parity, in the many words LeetCode states it.

- **Totals in other words** (:func:`sum_wordings`, restated through :func:`~.wording.restate`
  as ``sum(x[i].length) <= B``, which the comparisons read): ``The total sum of
  words[i].length is less than or equal to B``, ``The sum of the lengths of all words[i] does
  not exceed B``, ``There will be at most B integers in all the arrays`` (of the one list of
  integer lists), ``The input is generated such that sum(words[i].length) <= B`` (a marker
  before a sum: only there).
- **A least sum of lengths** (``1 <= sum(nums[i].length) <= 1000`` where an item may be empty):
  kept as the per-item dimension's ``"sum_min"``; the schedule makes the item count large
  enough that the longest items reach it (:func:`least_length_sum`), and the runtime lengthens
  items until the sum does (``runtime_sums._grow_sum``).
- **A least, fixed or odd/even sum of values** (``1 <= sum(count) <= 10^9``, ``sum(nums) ==
  100``, ``sum(piles[i]) is odd``, ``The sum of balls is even``): the list's ``"values_sum"``
  (``{"min": s, "mod": [2, r]}``, beside ``values_sum_max`` for an upper bound), for a list of
  integers in one constant range with no order, distinctness or other rule on its values; the
  schedule keeps the list long enough to reach the least sum (and not empty for an odd one),
  and the runtime moves values toward an end of their range until the sum is one allowed
  (``runtime_sums._meet_sum``).

Not read (reported): a sum equal to or bounded by another size (``sum(pieces[i].length) ==
arr.length``, ``k <= sum(piles[i].length)``), a sum of the values of a grid or of rows, and a sum
of values bounding a scalar (``orders <= min(sum(inventory[i]), 10^9)``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from quicksilver.synth.offline.constraints import REF_RE, Lin, Unsupported
from quicksilver.synth.offline.facts import Facts

Acts = list[Callable[[], None]]  # as in comparisons.py, which calls value_sum_rule
Con = tuple[dict[str, int], int, str]

_AT_MOST = (
    r"(?:is less than or equal to|is smaller than or equal(?: to)?|is at most|does not exceed|"
    r"doesn't exceed|will not exceed|won't exceed|will be at most|is no more than|"
    r"is not greater than|is not more than|<=)"
)
_TOTAL = re.compile(
    rf"(?:the )?(?P<w>total sum|total|sum total|total length|sum) of (?:the )?(?P<l>lengths? of )?"
    rf"(?:all )?(?:the )?(?:strings (?:in|of) )?(?P<x>{REF_RE.pattern})(?:\.length)?"
    rf" {_AT_MOST} (?P<b>.+)",
    flags=re.I,
)
_IN_ALL = re.compile(
    r"there (?:will be|are|is) at most (?P<b>.+?) (?:integers|elements|numbers|values) "
    r"in all (?:of )?(?:the )?(?:arrays|lists|rows)",
    flags=re.I,
)
_MARKED = re.compile(
    r"(?:the )?(?:input|inputs|test cases?|tests?) (?:is|are|will be) generated "
    r"(?:such|so) that (?P<c>(?:sum\s*\(|the (?:total )?sum of |the total ).+)",
    flags=re.I,
)
_PARITY = re.compile(
    rf"(?:(?:the )?sum of (?:all )?(?:the )?(?:(?:values|elements|integers|numbers) (?:of|in) )?"
    rf"(?P<a>{REF_RE.pattern})|sum\s*\((?P<b>{REF_RE.pattern})\)) is (?P<k>even|odd)",
    flags=re.I,
)


def sum_wordings(text: str, facts: Facts) -> list[list[str]]:
    """A total in other words, restated as the chain ``sum(x[i].length) <= B`` (or the marked
    clause alone), for :func:`~.wording.restate`."""
    out: list[list[str]] = []
    m = _MARKED.fullmatch(text)
    if m:
        out.append([m["c"]])
    m = _TOTAL.fullmatch(text)
    if m:
        lengths = bool(m["l"]) or "length" in m["w"].lower() or ".length" in m["x"]
        x = _lengths(m["x"], facts) if lengths else m["x"]
        if lengths == x.endswith(".length"):  # lengths of a list of lists, or values
            out.append([f"sum({x}) <= {m['b']}"])
    m = _IN_ALL.fullmatch(text)
    lists = [
        p.name
        for p in facts.params
        if p.depth == 2 and not p.join and not p.tree and p.leaf == "int"
    ]
    if m and len(lists) == 1:
        out.append([f"sum({lists[0]}[i].length) <= {m['b']}"])
    return out


def _lengths(x: str, facts: Facts) -> str:
    """``words``, ``words[i]`` or ``words[i].length`` of a list of strings or lists as its
    per-item length ``words[i].length`` (the wording says lengths); anything else as it is
    written, which is then no per-item length and not restated."""
    name = re.sub(r"(?:\[i\])?(?:\.length)?$", "", x)
    p = facts.by_name.get(name)
    return f"{name}[i].length" if p is not None and p.depth >= 2 and not p.tree else x


def _values_of(facts: Facts, text: str) -> str | None:
    """The one-level list of integers whose values ``text`` names (``nums``, ``nums[i]``)."""
    name = re.sub(r"\[i\]$", "", text)
    p = facts.by_name.get(name)
    if p is None or p.leaf != "int" or p.depth != 1 or p.tree:
        return None
    return p.name


def sum_parity(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``sum(piles[i]) is odd``, ``The sum of balls is even``: the parity of a list's values'
    sum, for a one-level list of integers."""
    m = _PARITY.fullmatch(text)
    if not m:
        return False
    name = _values_of(facts, m["a"] or m["b"])
    if name is None:
        raise Unsupported("the parity of a sum, of a list of integers only")
    rule = ("mod", 2, 0 if m["k"].lower() == "even" else 1, line)
    acts.append(partial(facts.sum_rules.setdefault(name, []).append, rule))
    return True


def value_sum_rule(facts: Facts, name: str, op: str, value: int, line: str, acts: Acts) -> None:
    """``sum(nums) == S`` (least and greatest ``S``) or ``S <= sum(count)`` with ``S > 0`` (a
    least sum the runtime meets), queued for :func:`sum_specs`."""
    if op == "==":
        acts.append(lambda: facts.value_sums.setdefault(name, []).append((value, line)))
    else:
        acts.append(lambda: facts.value_sums.setdefault(name, []))
    acts.append(lambda: facts.sum_rules.setdefault(name, []).append(("min", value, 0, line)))


def scalar_below_sum(facts: Facts, lin: Lin, of: str, strict: bool, line: str, acts: Acts) -> None:
    """``k <= sum(piles[i].length)`` (``of``: the per-item length key) or ``orders <= sum(
    inventory[i])`` (``of``: the list's name): a scalar parameter alone at most the sum, queued
    for :func:`below_sum_room` and :func:`sum_specs`."""
    ref = lin.single()
    if ref is None or ref.kind != "q":
        raise Unsupported("a bound on a sum by an expression (only a scalar at most the sum)")
    key = ref.key
    acts.append(lambda: facts.mention(lin, line))
    acts.append(partial(facts.below_sums.append, (key, of, strict, line)))


def _least(cls: str, cons: list[Con]) -> int:
    """The least value constant bounds in ``cons`` give ``cls`` (0 when none does)."""
    least = 0
    for terms, const, _ in cons:
        if list(terms) == [cls] and terms[cls] > 0:
            least = max(least, -(const // terms[cls]))
    return least


def below_sum_room(
    facts: Facts, classes: dict[str, str], cons: list[Con], problems: list[str]
) -> list[Con]:
    """For ``k <= sum(...)``: the sum at least k's least value (a least sum of lengths or of
    values, met as stated ones are, where the other bounds do not already give it), and k at
    most the sum's greatest stated value. k is set after the list is drawn, so nothing else may
    depend on it: another bound on it by a quantity, or a bound of values by it, is reported."""
    out: list[Con] = []
    for key, of, strict, line in facts.below_sums:
        k = classes.get(key)
        if k is None:
            continue  # an unknown name: reported
        bounds = [b for info in facts.leaf.values() for b, _, _ in (*info.lo, *info.hi)]
        if any(k in terms and len(terms) > 1 for terms, _, _ in cons) or any(
            classes.get(r.key) == k for b in bounds for r in b.terms
        ):
            problems.append(f'"{line}": a scalar at most a sum, which other bounds depend on')
            continue
        least = _least(k, cons) + strict
        if of in facts.by_name:  # the values of a list
            tops = [v for v, _ in facts.value_sums.get(of, [])]
            rng = _range(facts, of)
            outer = classes.get(facts.by_name[of].dim_key(0))
            floor = _least(outer, cons) * rng[0] if rng and outer and rng[0] > 0 else 0
            if least > floor:
                facts.sum_rules.setdefault(of, []).append(("min", least, 0, line))
        else:
            tops = [v for v, _ in facts.sums.get(of, [])]
            if least > 0:
                facts.sum_mins.setdefault(of, []).append((least, line))
        if tops:
            out.append(({k: -1}, min(tops) - strict, f"{line} (the sum at most {min(tops)})"))
    return out


def _range(facts: Facts, name: str) -> tuple[int, int] | None:
    """The constant value range of a list's elements, if every stated bound is a constant."""
    info = facts.leaf[name]
    if not info.lo or not info.hi or any(b.terms for b, _, _ in (*info.lo, *info.hi)):
        return None
    lo = max(math.ceil(b.const + st) for b, st, _ in info.lo)
    hi = min(math.floor(b.const - st) for b, st, _ in info.hi)
    return lo, hi


def value_sum_room(facts: Facts, classes: dict[str, str]) -> list[Con]:
    """The list long enough for its least sum: ``nums.length * high >= S`` (every value at most
    ``high``), and not empty for an odd sum."""
    out: list[Con] = []
    for name, rules in facts.sum_rules.items():
        outer = classes.get(facts.by_name[name].dim_key(0))
        rng = _range(facts, name)
        if outer is None or rng is None:
            continue  # reported with the spec
        for kind, a, b, line in rules:
            if kind == "min" and a > 0:
                if rng[1] <= 0:
                    continue  # reported with the spec
                need = (a + rng[1] - 1) // rng[1]
                out.append(({outer: 1}, -need, f"{line} (each value at most {rng[1]})"))
            elif kind == "mod" and b % a:
                out.append(({outer: 1}, -1, f"{line} (an odd sum needs a value)"))
    return out


def least_length_sum(
    dim: dict[str, Any], outer: str, least: int, line: str, tops: list[int]
) -> Con | str:
    """``1 <= sum(nums[i].length)`` that a draw of few or short items would miss: the items
    are lengthened up to their greatest length until the sum reaches ``least``, so the item
    count must be at least ``least / hi``. The bound on it, or why it cannot be met (``tops``:
    the stated greatest sums)."""
    hi = dim["hi"]
    if hi <= 0 or any(top < least for top in tops):
        return f'"{line}": a least sum of lengths no draw can reach'
    dim["sum_min"] = max(dim.get("sum_min", 0), least)
    need = (least + hi - 1) // hi
    return ({outer: 1}, -need, f"{line} (each item at most {hi} long)")


def below_specs(
    facts: Facts,
    params: list[dict[str, Any]],
    quantities: list[dict[str, Any]],
    names: dict[str, str],
    problems: list[str],
) -> None:
    """A scalar parameter at most a sum: its ``"below_sum"`` (``{"of": list, "level": d or
    None for the values, "strict"}``); the runtime sets it once the list is drawn, within its
    own constant bounds, so it may carry no remainder, exclusion or bound by another quantity."""
    for key, of, strict, line in facts.below_sums:
        cls = names.get(key, key)
        p = next((s for s in params if s["kind"] == "quantity" and s.get("q") == cls), None)
        item = next((i for i in quantities if i["name"] == cls), None)
        name = of if of in facts.by_name else re.sub(r"(?:\[i\])+\.length$", "", of)
        level = None if of in facts.by_name else of.count("[i]")
        loose = item is None or any(not isinstance(b["rest"], int) for b in item["bounds"])
        if p is None or loose or any(k in item for k in ("mod", "ne", "poly", "digits", "cap")):
            problems.append(f'"{line}": a bound by a sum, of a scalar parameter alone')
            continue
        p["below_sum"] = {"of": name, "level": level, "strict": strict}


def sum_specs(facts: Facts, params: list[dict[str, Any]], problems: list[str]) -> None:
    """Each list's ``"values_sum"`` (a least sum, a parity), for a list of integers in one
    constant range with no rule on its values that moving a value could break."""
    others = (
        "apart",
        "pins",
        "lead",
        "square",
        "below_index",
        "occur",
        "end_once",
        "values_are",
        "no_adjacent",
        "form",
        "set",
    )
    for name, rules in facts.sum_rules.items():
        p = next(s for s in params if s["name"] == name)
        leaf, rng = p["leaf"], _range(facts, name)
        lines = ", ".join(f'"{r[3]}"' for r in rules)
        ruled = p["sorted"] or p["distinct"] or any(k in p or k in leaf for k in others)
        members = {m[1] for m in facts.members} | {m[2] for m in facts.members}
        if rng is None or ruled or leaf.get("ne") or name in members or p["kind"] != "list":
            problems.append(
                f"{lines}: a rule on the sum of {name}'s values, which need one constant range "
                "and no order, distinctness or other rule"
            )
            continue
        rule: dict[str, Any] = {}
        for kind, a, b, _line in rules:
            if kind == "min":
                rule["min"] = max(rule.get("min", a), a)
            elif rule.get("mod", [a, b]) != [a, b]:
                problems.append(f"{lines}: two parities of one sum")
            else:
                rule["mod"] = [a, b]
        if rule.get("min", 0) > 0 and rng[1] <= 0:
            problems.append(f"{lines}: a least sum above 0 of values at most {rng[1]}")
        top = p.get("values_sum_max")
        if top is not None and rule.get("min", top) > top:
            problems.append(f"{lines}: a least sum above the greatest")
        p["values_sum"] = rule
