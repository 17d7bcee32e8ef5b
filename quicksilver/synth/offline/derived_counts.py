"""Bounds by a count derived from another input: a scalar at most the number of distinct values
of a list (``k is in the range [1, the number of unique elements in the array]``, ``k is in the
range [1, The number of unique words[i]]``), the words of a text (``k is in the range [1, the
number of words in s]``), the decimal digits of an integer (``1 <= k <= num.length (taking num as
a string)``) or the depth of a tree (``1 <= depth <= the depth of tree + 1``).

The other input is drawn first, then the scalar within the count: the scalar's ``"below_count"``
(``{"of": name, "count": "unique" | "words" | "digits" | "depth", "add": c}``: the scalar at most
the count plus c), which ``runtime_derived._below_count`` meets after every parameter is drawn
and ``checker_derived`` checks. For the schedule the scalar gets the linear bound the count
always keeps (:func:`count_room`): the list's length for its distinct values, ``(s.length + 1) /
2`` for the words of a text, the node count for a tree's depth, the digits of the integer's
greatest value. Refused: a count as the lower end (``[The maximum UAM for a user, 10^5]`` is not
read at all), a least value of the scalar the count may not reach (above 1 plus c), a scalar that
other bounds or rules depend on (it is set after them), a text with leading or trailing spaces
allowed (a string of spaces has no word), a negative integer (its sign would be a character),
and a tree's ``height`` (counted in nodes or in edges?).

Beside them, how many cells of a grid hold an amount (``There are at most 25 cells containing
gold``, where the description calls a cell's integer ``the amount of gold``): a count rule of the
spec's ``"presence"`` (:func:`amount_cells`), which presence.py's runtime and checker keep; and
one number of digits for every item of a list (``All integers in nums have the same number of
digits``: the list's ``"same_digits"``, :func:`same_digits`).
"""

from __future__ import annotations

import re
from typing import Any

from quicksilver.synth.offline.comparisons import Acts, Comparisons
from quicksilver.synth.offline.constraints import REF_RE, Unsupported
from quicksilver.synth.offline.facts import Facts

Con = tuple[dict[str, int], int, str]  # as in schedule.py: sum(coef * class) + const >= 0

_REF = REF_RE.pattern
_ADD = r"(?:\s*(?P<sign>[-+])\s*(?P<add>\d+))?"
_LIST_NOUNS = r"elements|values|integers|numbers|strings|words|items"
_COUNTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "unique",
        re.compile(
            rf"the number of (?:unique|distinct|different) (?:(?:{_LIST_NOUNS}) "
            rf"(?:in|of) (?:the )?(?P<of>{_REF}|array|list|given array|input array)|"
            rf"(?P<own>{_REF}))" + _ADD,
            flags=re.I,
        ),
    ),
    ("words", re.compile(rf"the number of words in (?P<of>{_REF})" + _ADD, flags=re.I)),
    (
        "digits",
        re.compile(
            rf"(?P<of>{_REF})\.length \(taking (?P=of) as a string\)|"
            rf"the number of digits (?:in|of) (?P<num>{_REF})" + _ADD,
            flags=re.I,
        ),
    ),
    (
        "depth",
        re.compile(
            r"the (?:maximum )?depth of (?:the )?(?:given )?(?:binary )?(?P<tree>tree)" + _ADD,
            flags=re.I,
        ),
    ),
)
_RANGE = re.compile(
    rf"(?P<x>{_REF}) (?:is|will be) in the range \[(?P<lo>[^\[\],]+),\s*(?P<d>[^\[\]]+"
    rf"(?:\[i\][^\[\]]*)?)\]",
    flags=re.I,
)
_CHAIN = re.compile(
    rf"(?:(?P<lo>[^<>=]+?) (?P<op1><=|<) )?(?P<x>{_REF}) (?P<op2><=|<) (?P<d>[^<>=]+)",
    flags=re.I,
)


def derived_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``k is in the range [1, the number of words in s]``, ``1 <= depth <= the depth of tree +
    1``: a scalar's least value (read as any bound) and its greatest, a count of another
    input, queued for :func:`count_room` and :func:`count_specs`. False when the upper end is
    no count this module knows (the line is then another form's)."""
    m = _RANGE.fullmatch(text) or _CHAIN.fullmatch(text)
    if not m:
        return amount_cells(facts, text, line, acts) or same_digits(facts, text, line, acts)
    got = _count_of(facts, m["d"].strip())
    if got is None:
        return False
    kind, of, add = got
    if m.groupdict().get("op2") == "<":
        add -= 1
    target = facts.parse(m["x"])
    ref = target.single()
    if ref is None or ref.kind != "q" or ref.key not in facts.by_name:
        raise Unsupported("a bound by a count, of an integer parameter alone")
    if m["lo"] is not None:  # the least value, read as a chain reads it
        op = "<" if m.groupdict().get("op1") == "<" else "<="
        Comparisons(facts).relate(facts.parse(m["lo"]), op, target, line, acts)
    acts.append(lambda: facts.mention(target, line))
    acts.append(lambda: facts.below_counts.append((ref.key, kind, of, add, line)))
    return True


def _count_of(facts: Facts, phrase: str) -> tuple[str, str, int] | None:
    """The count a phrase names: (kind, the parameter it counts, the constant added); None
    when it names none; Unsupported when it names one of no parameter that has it."""
    for kind, rx in _COUNTS:
        m = rx.fullmatch(phrase)
        if not m:
            continue
        add = int(m["add"]) * (-1 if m["sign"] == "-" else 1) if m["add"] else 0
        g = m.groupdict()
        raw = g.get("of") or g.get("own") or g.get("num") or g.get("tree") or ""
        return kind, _param(facts, kind, raw), add
    if re.fullmatch(r"the (?:maximum )?height of .+", phrase, flags=re.I):
        raise Unsupported("a bound by a tree's height (counted in nodes or in edges?)")
    return None


def _param(facts: Facts, kind: str, raw: str) -> str:
    """The parameter a count is of: named (``nums``, ``words[i]``, ``num``), or the one
    parameter of that kind (``the array``, ``the tree``)."""
    name = re.sub(r"(?:\[i\])+$", "", raw.strip())
    fits = {
        "unique": lambda p: p.depth == (2 if p.join else 1) and not p.tree and not p.node,
        "words": lambda p: p.join and p.depth == 1,
        "digits": lambda p: p.is_quantity,
        "depth": lambda p: p.tree,
    }[kind]
    if name in facts.by_name:
        found = [name] if fits(facts.by_name[name]) else []
    else:
        found = [p.name for p in facts.params if fits(p)]
    if len(found) != 1:
        raise Unsupported(f"a count of {kind} that names no one parameter of that kind ({raw!r})")
    return found[0]


def _const_range(cls: str, cons: list[Con]) -> tuple[int | None, int | None]:
    """The least and greatest values constant bounds in ``cons`` give ``cls``."""
    lo: int | None = None
    hi: int | None = None
    for terms, const, _ in cons:
        if list(terms) == [cls] and terms[cls] > 0:
            v = -(const // terms[cls])
            lo = v if lo is None else max(lo, v)
        elif list(terms) == [cls]:
            v = const // -terms[cls]
            hi = v if hi is None else min(hi, v)
    return lo, hi


def count_room(
    facts: Facts, classes: dict[str, str], cons: list[Con], problems: list[str]
) -> list[Con]:
    """For ``k <= count(x) + c``: the linear bound the count always keeps (so k is drawn after
    x's sizes and never above what the count can reach), after the checks that the count can
    always reach k's least value and that nothing else depends on k (it is set last)."""
    out: list[Con] = []
    for key, kind, of, add, line in facts.below_counts:
        if kind == "same_digits":
            continue
        k = classes.get(key)
        p = facts.by_name[of]
        size = classes.get(p.dim_key(0)) if kind != "digits" else classes.get(of)
        if k is None or size is None:
            continue  # an unknown name: reported
        bounds = [b for info in facts.leaf.values() for b, _, _ in (*info.lo, *info.hi)]
        if any(k in terms and len(terms) > 1 for terms, _, _ in cons) or any(
            classes.get(r.key) == k for b in bounds for r in b.terms
        ):
            problems.append(f'"{line}": a scalar at most a count, which other bounds depend on')
            continue
        least, _ = _const_range(k, cons)
        if least is None or least > 1 + add:
            problems.append(f'"{line}": a least value of {key} the count of {of} may not reach')
            continue
        noun = {"unique": "distinct values", "words": "words", "digits": "digits"}.get(kind, kind)
        why = f"{line} (the {noun} of {of}"
        if kind == "unique":
            out.append(({k: -1, size: 1}, add, f"{why}: at most its length)"))
        elif kind == "words":
            out.append(({k: -2, size: 1}, 1 + 2 * add, f"{why}: at most (length + 1) / 2)"))
        elif kind == "depth":
            out.append(({k: -1, size: 1}, add, f"{why}: at most its node count)"))
        else:
            lo, hi = _const_range(size, cons)
            if lo is None or hi is None or lo < 0:
                problems.append(f'"{line}": the digits of {of}, which needs a range from 0 up')
                continue
            out.append(({k: -1}, len(str(hi)) + add, f"{why}: at most {len(str(hi))})"))
    return out


def count_specs(
    facts: Facts,
    params: list[dict[str, Any]],
    quantities: list[dict[str, Any]],
    names: dict[str, str],
    problems: list[str],
) -> None:
    """The scalar's ``"below_count"``; only a scalar parameter with no remainder, exclusion or
    other rule that setting it last could break, and a text whose words a string of spaces
    cannot hide (no leading or trailing spaces). Then the amounts of :func:`amount_cells`."""
    amount_specs(facts, params, problems)
    same_digit_specs(facts, params, problems)
    for key, kind, of, add, line in facts.below_counts:
        if kind == "same_digits":
            continue
        cls = names.get(key, key)
        p = next((s for s in params if s["kind"] == "quantity" and s.get("q") == cls), None)
        item = next((i for i in quantities if i["name"] == cls), None)
        other = next(s for s in params if s["name"] == of)
        named = repr(facts.members) + repr(facts.presence)
        if (
            p is None
            or item is None
            or any(k in item for k in ("mod", "ne", "poly", "digits", "cap", "prod"))
            or "below_sum" in p
            or f"'{p['name']}'" in named
        ):
            problems.append(f'"{line}": a bound by a count, of a scalar parameter alone')
            continue
        if any(of in (a, b) for a, b, _, _ in facts.zips):  # a zip changes it after the count
            problems.append(f'"{line}": a count of {of}, which a relation item by item changes')
            continue
        if (
            kind == "words"
            and " " in other["leaf"].get("alphabet", " ")
            and ("trim" not in other.get("spaces", ()))
        ):
            problems.append(f'"{line}": words of a text that may hold leading or trailing spaces')
            continue
        p["below_count"] = {"of": of, "count": kind, "add": add}


# -- how many cells hold an amount of something -------------------------------------------------

_AMOUNT_DEF = re.compile(
    r"(?:integers?|numbers?|values?) (?:representing|that represents?|which represents?|"
    r"represents?|denoting|giving) the (?:amount|number|quantity) of (?P<what>[a-z]+)",
    flags=re.I,
)
_CELLS = (
    r"there (?:are|is|will be) at (?P<side>most|least) (?P<k>\d+|one|two) cells? "
    r"(?:containing|that contains?|with|holding) (?P<what>[a-z]+)",
    r"at (?P<side>most|least) (?P<k>\d+|one|two) cells? (?:contains?|holds?|ha(?:s|ve)) "
    r"(?P<what>[a-z]+)",
)


def amount_cells(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``There are at most 25 cells containing gold``, where the description says what a cell's
    integer is (``an integer representing the amount of gold in that cell``): a cell contains
    gold when its amount is above 0, and the grid's count of such cells is bounded, the rule
    ``["count", grid, [">", 0], least, most]`` of the spec's ``"presence"`` (presence.py), which
    its runtime and checker keep. Only for the statement's one grid of integers and a word the
    description names as an amount; False otherwise (the line is left to the other forms)."""
    for form in _CELLS:
        m = re.fullmatch(form, text, flags=re.I)
        if m:
            break
    else:
        return False
    what = m["what"].lower()
    named = {d["what"].lower() for d in _AMOUNT_DEF.finditer(facts.prose.split("Constraints:")[0])}
    grids = [p for p in facts.params if p.depth == 2 and p.leaf == "int" and not p.join]
    if what.rstrip("s") not in {w.rstrip("s") for w in named} or len(grids) != 1:
        return False
    k = {"one": 1, "two": 2}.get(m["k"].lower()) or int(m["k"])
    least, most = (0, k) if m["side"].lower() == "most" else (k, None)
    rule = ("count", grids[0].name, [">", 0], least, most, line)
    acts.append(lambda: facts.presence.append(rule))
    return True


def amount_specs(facts: Facts, params: list[dict[str, Any]], problems: list[str]) -> None:
    """An amount is never negative, and at most k cells hold some where a cell may hold none:
    the grid's least value must be 0 (the runtime sets the cells beyond k to it)."""
    for kind, name, pred, _least, most, line in facts.presence:
        if kind != "count" or pred != [">", 0] or most is None:
            continue
        leaf = next(p for p in params if p["name"] == name)["leaf"]
        lows = leaf.get("lo") or []
        if len(lows) != 1 or lows[0] != 0:
            problems.append(f'"{line}": an amount whose range does not start at 0')


# -- one number of digits for every item -----------------------------------------------------------

_SAME_DIGITS = re.compile(
    rf"all (?:the )?(?:integers|numbers|elements|values) (?:in|of) (?P<p>{_REF}) "
    r"(?:have|has|are of) the same number of digits",
    flags=re.I,
)


def same_digits(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``All integers in nums have the same number of digits``: a one-level list of integers
    whose items all have one count of decimal digits (the list's ``"same_digits"``: the
    runtime takes the count of a random item and draws again, within that count's band, every
    item of another count). Checked in :func:`same_digit_specs`."""
    m = _SAME_DIGITS.fullmatch(text)
    if not m:
        return False
    p = facts.by_name.get(m["p"])
    if p is None or p.depth != 1 or p.leaf != "int" or p.join or p.tree or p.node:
        raise Unsupported("the same number of digits, of a list of integers only")
    acts.append(lambda: facts.below_counts.append(("", "same_digits", p.name, 0, line)))
    return True


_PLAIN = {"name", "type", "kind", "dims", "leaf", "join", "sorted", "distinct"}


def same_digit_specs(facts: Facts, params: list[dict[str, Any]], problems: list[str]) -> None:
    """The list's ``"same_digits"``: only a list of integers in one constant range from 0 up
    (a sign is no digit) with no exclusion, distinct values or other rule on its values that
    drawing an item again could break (an order is restored by sorting)."""
    for _key, kind, of, _add, line in facts.below_counts:
        if kind != "same_digits":
            continue
        p = next(s for s in params if s["name"] == of)
        leaf = p["leaf"]
        lows, highs = leaf.get("lo") or [], leaf.get("hi") or []
        plain = set(p) <= _PLAIN and not p["distinct"] and p["kind"] == "list"
        named = repr(facts.members) + repr(facts.presence) + repr(facts.zips)
        plain = plain and f"'{of}'" not in named
        ranged = all(isinstance(x, int) for x in (*lows, *highs)) and lows and highs
        if not plain or not ranged or set(leaf) != {"type", "lo", "hi"} or max(lows) < 0:
            problems.append(
                f'"{line}": the same number of digits, of a list of integers in one constant '
                "range from 0 up with no other rule on its values"
            )
            continue
        p["same_digits"] = True
