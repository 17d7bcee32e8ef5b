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
_POW2_IS = re.compile(
    rf"(?P<x>.+?) {_MARK}an? (?:non-negative )?(?:integer )?power of (?:two|2)", flags=re.I
)
_DIVIDES = (
    re.compile(r"(?P<b>.+?) (?:is divisible by|is a multiple of) (?P<a>[A-Za-z_]\S*)", re.I),
    re.compile(r"(?P<a>[A-Za-z_]\S*) divides (?P<b>.+)", re.I),
)


def _one_quantity(facts: Facts, text: str) -> tuple[str, int] | None:
    """``n + 1``, ``nums.length``: one quantity (coefficient 1) plus a constant, else None."""
    try:
        lin = facts.parse(text)
    except Unsupported:
        return None
    if len(lin.terms) != 1 or lin.const.denominator != 1:
        return None
    ref, coef = next(iter(lin.terms.items()))
    return (ref.key, int(lin.const)) if ref.kind == "q" and coef == 1 else None


def size_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """A property of a size: ``nums.length is a power of 2``, ``n + 1 is a power of 2``,
    ``s.length is divisible by k``, ``k divides word.length`` (two quantities)."""
    if m := _POW2_IS.fullmatch(text):
        got = _one_quantity(facts, m["x"])
        if got is None:
            return False  # the values of a list: numtheory_form
        key, c = got
        acts.append(partial(facts.size_props.append, ("pow2", key, c, line)))
        acts.append(partial(facts.mention, facts.parse(m["x"]), line))
        return True
    for form in _DIVIDES:
        if m := form.fullmatch(text):
            a, b = _one_quantity(facts, m["a"]), _one_quantity(facts, m["b"])
            if a is None or b is None or a[1] or b[1]:
                raise Unsupported("a divisibility between two sizes or counts, each alone")
            acts.append(partial(facts.size_props.append, ("divides", a[0], b[0], line)))
            acts.append(partial(facts.mention, facts.parse(m["a"]) + facts.parse(m["b"]), line))
            return True
    return False


def numtheory_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """One of the sentences above: the property queued on the list (or the remainder on the
    count), the stated range related as ``... is in the range [lo, hi]`` would be."""
    rule: list[Any]
    if m := _PARITY.fullmatch(text):
        rule = ["mod", 2, 0 if m["kind"].lower() == "even" else 1]
    elif m := _PRIME.fullmatch(text):
        rule = ["prime"]
    elif m := _POW2.fullmatch(text) or _POW2_IS.fullmatch(text):
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


def numtheory_specs(
    facts: Facts,
    params: list[dict[str, Any]],
    problems: list[str],
    quantities: list[dict[str, Any]],
    names: dict[str, str],
) -> None:
    """The spec key ``values_are`` on each list a property names, or a problem where its range
    holds no allowed value or another rule on its values could undo it; the properties of
    sizes on their quantities (:func:`size_specs`)."""
    size_specs(facts, problems, quantities, names)
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


def size_specs(
    facts: Facts, problems: list[str], quantities: list[dict[str, Any]], names: dict[str, str]
) -> None:
    """``pow2`` (``[c]``: the value plus c a power of two) on a quantity; ``a divides b`` as
    ``divisor_of`` on ``a`` where it is drawn after ``b``, else ``multiple_of`` on ``b``. One
    such key per quantity, not with a remainder or decimal digits, of quantities the schedule
    draws (not per item)."""
    order = {item["name"]: i for i, item in enumerate(quantities)}
    for kind, a, b, line in facts.size_props:
        cls_a = names.get(a, a)
        if kind == "pow2":
            target, key, value = cls_a, "pow2", [b]
        else:
            cls_b = names.get(b, b)
            if cls_a not in order or cls_b not in order or cls_a == cls_b:
                problems.append(f'"{line}": a divisibility between two quantities drawn apart')
                continue
            later = order[cls_a] > order[cls_b]
            target = cls_a if later else cls_b
            key, value = ("divisor_of", cls_b) if later else ("multiple_of", cls_a)
        item = quantities[order[target]] if target in order else None
        taken = ("mod", "digits", "pow2", "divisor_of", "multiple_of")
        if item is None or any(k in item for k in taken):
            problems.append(
                f'"{line}": a property of a size drawn per item, or with a remainder, its '
                "digits or another such property"
            )
            continue
        item[key] = value
