"""Number-theoretic properties of a list's values (issue 26), read by
:class:`~.sentences.LineReader`: ``price[i] is an even integer``, ``amount[i] is an even integer
in the range [-10^4, 10^4]``, ``nums[i] is a prime number``, ``primes[i] is guaranteed to be a
prime number``, ``nums consists only of non-negative powers of two``, ``nums[i] % 10 != 0``;
and the parity of a count in the same words (``The number of nodes in the list is an even
integer in the range [2, 10^5]``: a ``mod`` on the quantity, as ``n is even``).

A list's property is the spec key ``"values_are"`` (``["mod", m, r]``, ``["not_mod", m, r]``,
``["prime"]``, ``["pow2"]``): the runtime (``runtime_numtheory._values_are``) moves each value drawn
to the nearest allowed one in its range (down first, so a range's top stays near the top), and
the checker checks each. Only for lists of integers in one constant range that holds an allowed
value, with no distinct or excluded values, value set or other rule on the values (refused).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.synth.offline.comparisons import Acts, Comparisons
from quicksilver.synth.offline.constraints import Lin, Ref, Unsupported
from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.runtime_numtheory import _allowed

_MARK = r"(?:(?:is|are) (?:guaranteed to be |always )?|will (?:always )?be )"
_RANGE = r"(?: in the range \[(?P<lo>[^\[\],]+),\s*(?P<hi>[^\[\]]+)\])?"
_PARITY = re.compile(
    rf"(?P<x>.+?) {_MARK}an? (?P<kind>even|odd) (?:integer|number)s?{_RANGE}", flags=re.I
)
_PRIME = re.compile(rf"(?P<x>.+?) {_MARK}(?:a )?prime(?: numbers?)?{_RANGE}", flags=re.I)
_POW2 = re.compile(
    r"(?P<x>[A-Za-z_]\w*) (?:only )?(?:consists?|is made up|is composed) (?:only )?of (?:only )?"
    r"(?:non-negative |nonnegative )?(?:integer )?powers of (?:two|2)",
    flags=re.I,
)
_NOT_MOD = re.compile(r"(?P<x>\S+) % (?P<m>\d+) != (?P<r>\d+)")


def numtheory_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """One of the sentences above: the property queued on the list (or the remainder on the
    count), the stated range related as ``... is in the range [lo, hi]`` would be."""
    rule: list[Any]
    if m := _PARITY.fullmatch(text):
        rule = ["mod", 2, 0 if m["kind"].lower() == "even" else 1]
    elif m := _PRIME.fullmatch(text):
        rule = ["prime"]
    elif m := _POW2.fullmatch(text):
        rule = ["pow2"]
    elif m := _NOT_MOD.fullmatch(text):
        mod, r = int(m["m"]), int(m["r"])
        if mod < 2 or r >= mod:
            raise Unsupported(f"a remainder {r} of {mod}")
        rule = ["not_mod", mod, r]
    else:
        return False
    try:
        refs = facts.phrase_refs(m["x"])
    except Unsupported:
        return False  # no parameter named: another form's (or not understood)
    cmp = Comparisons(facts)
    for ref in refs:
        if ref.kind == "container" and ref.depth == 0 and len(ref.params) == 1:
            ref = Ref("leaf", params=ref.params)  # nums consists of ...: the values of nums
        if ref.kind == "q" and rule[0] == "mod":
            acts.append(partial(facts.mods.append, (ref.key, 2, rule[2], line)))
        elif ref.kind != "leaf" or ref.col != -1 or len(ref.params) != 1:
            raise Unsupported(f"a property of {m['x']}, which is not the values of one list")
        else:
            name = ref.params[0]
            if name in facts.values_are:
                raise Unsupported(f"a second number-theoretic property of {name}'s values")
            acts.append(partial(facts.values_are.__setitem__, name, (rule, line)))
        target = Lin(Fraction(0), {ref: Fraction(1)})
        acts.append(partial(facts.mention, target, line))
        if m.groupdict().get("lo"):
            cmp.relate(facts.parse(m["lo"]), "<=", target, line, acts)
            cmp.relate(target, "<=", facts.parse(m["hi"]), line, acts)
    return True


def numtheory_specs(facts: Facts, params: list[dict[str, Any]], problems: list[str]) -> None:
    """The spec key ``values_are`` on each list a property names, or a problem where its range
    holds no allowed value or another rule on its values could undo it."""
    for spec in params:
        name = spec["name"]
        if name not in facts.values_are:
            continue
        rule, line = facts.values_are[name]
        leaf = spec.get("leaf", {})
        ends = leaf.get("lo", []) + leaf.get("hi", [])
        others = ("apart", "pins", "lead", "square", "values_sum_max", "below_index", "form")
        plain = (
            spec.get("kind") == "list"
            and leaf.get("type") == "int"
            and "cols" not in spec
            and "set" not in leaf
            and not leaf.get("ne")
            and not spec["distinct"]
            and not any(k in spec for k in (*others, "occur", "end_once"))
            and name not in {n for a, b, _, _ in facts.zips for n in (a, b)}
            and bool(ends)
            and all(isinstance(b, int) for b in ends)
        )
        if not plain:
            problems.append(
                f'"{line}": a property of values, for a list of integers in one constant range '
                "with no distinct or excluded values or other rule on its values"
            )
            continue
        lo, hi = max(leaf["lo"]), min(leaf["hi"])
        if lo > hi or not _holds_one(rule, lo, hi):
            problems.append(f'"{line}": no value in [{lo}, {hi}] has it')
            continue
        spec["values_are"] = rule


def _holds_one(rule: list[Any], lo: int, hi: int) -> bool:
    """Whether some value of [lo, hi] has the property (the runtime's nearest value is one)."""
    got = _allowed(rule, lo, lo, hi)
    return got is not None and lo <= got <= hi
