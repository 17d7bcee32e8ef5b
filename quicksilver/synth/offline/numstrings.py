"""Integers written as strings, and ranges of the answer (issue 26).

A string parameter that writes a non-negative integer in a range (``n is representing an integer
in the range [1, 10^18 - 1]``, ``left and right represent integers in the range [1, 10^18 -
1]``, ``n is an integer in the range [3, 10^18]``, ``n does not contain any leading zeros and
represents a positive integer``, ``1 <= int(low) <= int(high) < 10^100``) gets the form
``{"kind": "number", "lo", "hi"}`` (``hi`` None where no upper bound is stated: its length
bounds it): the decimal text of an integer in [lo, hi], with no leading zero. Its length is at
least the digits of ``lo`` and at most those of ``hi`` (bounds added to the length quantity, so
every length drawn has a number of that length in the range). Two such strings ordered
(``left is less than or equal to right``, ``int(low) <= int(high)``) are the spec's
``num_order`` (``[a, op, b]`` by parameter index; compared as numbers), where both have one spec
but the name and their lengths one range: the runtime swaps them when out of order. An integer
parameter or element in those words (``nums[i] will be an integer between 0 and 49,999``, ``n is
an integer``) is read as its range (or as its type, which it states).

Ranges of the answer in more words, kept as the spec's ``answer`` as ``The answer is guaranteed
to fit in a 32-bit integer`` is (:meth:`~.sentences.LineReader._answer_range`): ``The test cases
are generated so that the answer will be less than or equal to 2 * 10^9``, ``Test cases are
generated in a way that the output doesn't exceed 2^53-1``, ``... the answer always exists and
is in the range [2, 2 * 10^8]`` (a method that returns an integer), ``The test cases are
generated such that the values in the final array are less than or equal to 10^8`` (one that
returns a list of integers). With no lower bound stated, the answer's lower end is -2^63, below
which no answer of LeetCode's integer types lies. ``It is guaranteed this sum fits into a 32-bit
integer`` speaks of the answer where the sentence before it returns a sum (:func:`this_answer`).
A length of the answer, or a value that is not the answer (a product of any subarray, a
min-product before the modulo), is not read.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.synth.offline.comparisons import Acts, Comparisons
from quicksilver.synth.offline.constraints import Lin, Ref, Unsupported, split_top
from quicksilver.synth.offline.facts import Facts, LeafInfo

_NAMES = r"\w+(?:\[i\])?(?:(?:,? and |, )\w+(?:\[i\])?)*"
_REPRESENTS = re.compile(
    rf"(?P<names>{_NAMES}) (?:is representing|represents?|is|are|will be|will always be) "
    r"(?:an? )?(?P<sign>positive |non-negative )?integers?"
    r"(?: (?:in the range|within the range|in range) \[(?P<lo>[^\[\],]+), (?P<hi>[^\[\]]+)\]|"
    r" between (?P<lo2>\S+(?: [-+*/^] \S+)*) and (?P<hi2>\S+(?: [-+*/^] \S+)*?))?"
    r"(?:,? inclusive)?",
    flags=re.I,
)
# ``n does not contain any leading zeros and represents a positive integer``: the form meets both
_NO_LEAD_REPRESENTS = re.compile(
    rf"(?P<names>{_NAMES}) (?:does not|doesn't|do not|don't|cannot|can't) (?:contain|have) "
    r"(?:any )?leading zeros?,? and represents? (?:an? )?(?P<sign>positive |non-negative )"
    r"(?:decimal )?integers?",
    flags=re.I,
)
_INT_CHAIN = re.compile(r"(?:\S+|int\(\w+\)) (?:<=|<) .*int\(\w+\).*")
_ORDER = re.compile(
    r"(\w+) (<=|<|>=|>|is less than or equal to|is (?:smaller|less) than|is at most|"
    r"is not greater than|is greater than or equal to|is (?:greater|larger) than) (\w+)",
    flags=re.I,
)
_ORDER_WORDS = {
    "is less than or equal to": "<=",
    "is at most": "<=",
    "is not greater than": "<=",
    "is smaller than": "<",
    "is less than": "<",
    "is greater than or equal to": ">=",
    "is greater than": ">",
    "is larger than": ">",
}
_INT64_MIN = -(2**63)
_MARKER = (
    r"(?:(?:note: )?(?:it is guaranteed that |(?:the )?(?:test ?cases?|tests|inputs?|test data) "
    r"(?:are |is |will be )?generated (?:such that|so that|in a way that) ))?"
)
_AT_MOST = (
    r"(?:will be |is |are )?(?:less than or equal to|at most|no (?:more|greater) than|<=)|"
    r"(?:will not|does not|doesn't|won't|never|do not|don't) exceeds?|will never exceed"
)
_ANSWER_AT_MOST = re.compile(
    rf"{_MARKER}(?:the )?(?:answer|output|result) (?:{_AT_MOST}) (?P<hi>.+)", flags=re.I
)
_ANSWER_RANGE = re.compile(
    rf"{_MARKER}(?:the )?(?:answer|output|result) (?:(?:always )?exists and )?(?:will be|is) "
    r"(?:in|within) (?:the )?range \[(?P<lo>[^\[\],]+), (?P<hi>[^\[\]]+)\]",
    flags=re.I,
)
_FINAL_VALUES = re.compile(
    rf"{_MARKER}(?:all )?(?:the )?values (?:in|of) the (?:final|resulting|returned) "
    rf"(?:array|list) (?:{_AT_MOST}) (?P<hi>.+)",
    flags=re.I,
)
_INT_RETURNS = ("integer", "long")
_LIST_RETURNS = ("integer[]", "list<integer>", "long[]", "list<long>")


def number_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """An integer written as a string, or an integer parameter in those words (the module's
    docstring); False when ``text`` says neither."""
    m = _REPRESENTS.fullmatch(text) or _NO_LEAD_REPRESENTS.fullmatch(text)
    if m:
        names = split_top(re.sub(r",?\s+and\s+", ", ", m["names"]))
        ranged = m.re is _REPRESENTS
        lo, hi = (m["lo"] or m["lo2"], m["hi"] or m["hi2"]) if ranged else (None, None)
        for name in names:
            p = facts.by_name.get(name.strip())
            if not ranged and (p is None or not p.join or p.depth != 1):
                raise Unsupported(f"no leading zeros in {name}, which is not a string")
            _represents(facts, name.strip(), (m["sign"] or "").strip().lower(), lo, hi, line, acts)
        return True
    if _INT_CHAIN.fullmatch(text):
        return _int_chain(facts, text, line, acts)
    m = _ORDER.fullmatch(text)
    if m and all(_number_info(facts, n) for n in (m.group(1), m.group(3))):
        op = _ORDER_WORDS.get(m.group(2).lower(), m.group(2))
        acts.append(partial(facts.num_order.append, (m.group(1), op, m.group(3), line)))
        return True
    return False


def _number_info(facts: Facts, name: str) -> LeafInfo | None:
    """``name``'s leaf info where it is a string a line has made a number, else None."""
    info = facts.leaf.get(name)
    form = info.form if info is not None else None
    return info if form is not None and form[0]["kind"] == "number" else None


def _represents(
    facts: Facts, name: str, sign: str, lo: str | None, hi: str | None, line: str, acts: Acts
) -> None:
    """``name`` writes (or is) an integer in [lo, hi]: a string's form, or an integer's range."""
    p = facts.by_name.get(re.sub(r"\[i\]$", "", name))
    least = {"positive": 1, "non-negative": 0}.get(sign)
    if p is not None and p.join and p.depth == 1 and name == p.name:
        if lo is None and least is None:
            raise Unsupported(f"{name} writes an integer, but no range of it is stated")
        low = least if lo is None else _constant(facts, lo)
        high = None if hi is None else _constant(facts, hi)
        if low < 0 or (least is not None and low < least) or (high is not None and high < low):
            raise Unsupported(f"an integer written in {name} below 0, or an empty range")
        _number(facts, p.name, low, high, line, acts)
        return
    refs = facts.phrase_refs(name)
    ints = all(facts.by_name[n].leaf == "int" for r in refs for n in r.params)
    if not ints or any(r.kind not in ("q", "leaf") or r.col >= 0 for r in refs):
        raise Unsupported(f"{name} is an integer, but is no integer parameter or element")
    cmp = Comparisons(facts)
    for ref in refs:
        target = Lin(Fraction(0), {ref: Fraction(1)})
        if least is not None:
            cmp.relate(Lin(Fraction(least)), "<=", target, line, acts)
        if lo is not None and hi is not None:
            cmp.relate(facts.parse(lo), "<=", target, line, acts)
            cmp.relate(target, "<=", facts.parse(hi), line, acts)


def _constant(facts: Facts, text: str) -> int:
    value = facts.parse(text)
    if value.terms or value.const.denominator != 1:
        raise Unsupported(f"the integer a string writes bounded by {text!r}, not a constant")
    return int(value.const)


def _number(facts: Facts, name: str, lo: int, hi: int | None, line: str, acts: Acts) -> None:
    """``name`` (a string) writes an integer in [lo, hi]: its form, its length's bounds (the
    digits of lo and of hi) and, where no line states one, its alphabet (the digits)."""
    if max(lo, hi or 0) >= 10**1000:
        raise Unsupported(f"an integer written in {name} of more than 1000 digits")
    p = facts.by_name[name]
    info = facts.leaf[name]
    cmp = Comparisons(facts)
    size = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
    cmp.relate(Lin(Fraction(len(str(lo)))), "<=", size, line, acts)
    if hi is not None:
        cmp.relate(size, "<=", Lin(Fraction(len(str(hi)))), line, acts)

    def act() -> None:
        form = info.form[0] if info.form else {"kind": "number", "lo": lo, "hi": hi}
        if form["kind"] != "number":
            raise Unsupported("two structures for one parameter")
        form["lo"] = max(form["lo"], lo)
        form["hi"] = hi if form["hi"] is None else form["hi"] if hi is None else min(form["hi"], hi)
        if form["hi"] is not None and form["hi"] < form["lo"]:
            raise Unsupported(f"an empty range for the integer {name} writes")
        info.form = (form, info.form[1] if info.form else line)
        if info.alphabet is None:
            info.alphabet = "0123456789"

    acts.append(act)


def _int_chain(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``1 <= int(low) <= int(high) < 10^100``: an ascending chain of constants and
    ``int(s)`` of string parameters; each string writes an integer within the constants around
    it, and two neighbouring strings are ordered (``num_order``)."""
    parts = re.split(r"\s*(<=|<)\s*", text)
    terms, ops = parts[0::2], parts[1::2]
    names = [re.fullmatch(r"int\((\w+)\)", t) for t in terms]
    for i, found in enumerate(names):
        if found is None:
            continue
        lo = hi = None
        for j in range(i - 1, -1, -1):
            if names[j] is None:
                lo = _constant(facts, terms[j]) + ("<" in ops[j:i])
                break
        for j in range(i + 1, len(terms)):
            if names[j] is None:
                hi = _constant(facts, terms[j]) - ("<" in ops[i:j])
                break
        p = facts.by_name.get(found.group(1))
        if p is None or not p.join or p.depth != 1 or lo is None or lo < 0:
            raise Unsupported(f"int({found.group(1)}) of no string, or with no least value >= 0")
        _number(facts, p.name, lo, hi, line, acts)
        if i and names[i - 1] is not None:
            pair = (names[i - 1].group(1), ops[i - 1], found.group(1), line)  # type: ignore[union-attr]
            acts.append(partial(facts.num_order.append, pair))
    return True


def answer_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """A range of the answer in the wordings of the module's docstring, kept as
    ``facts.answer`` (by the method's return type: an integer, or a list of integers for the
    values of the final array); False when ``text`` states none."""
    m = _ANSWER_AT_MOST.fullmatch(text) or _ANSWER_RANGE.fullmatch(text)
    returns = _INT_RETURNS
    if m is None:
        m, returns = _FINAL_VALUES.fullmatch(text), _LIST_RETURNS
    if m is None:
        return False
    if facts.returns not in returns:
        raise Unsupported(f"a range of the answer, whose type ({facts.returns}) it does not fit")
    lo = _constant(facts, m["lo"]) if "lo" in m.groupdict() else _INT64_MIN
    hi = _constant(facts, re.sub(r"^\((.*)\)$", r"\1", m["hi"].strip()))
    if lo > hi:
        raise Unsupported("an empty range of the answer")
    acts.append(partial(setattr, facts, "answer", (lo, hi, line)))
    return True


def this_answer(before: str, clause: str) -> str:
    """``this sum fits into a 32-bit integer`` as ``the answer fits ...`` where the sentence
    ``before`` it returns that sum (``return the smallest possible sum of ...``); ``clause``
    unchanged otherwise."""
    m = re.match(r"this (\w+) (.+)", clause, flags=re.I)
    if m is None:
        return clause
    returned = re.search(
        rf"\breturn (?:the |an? )?(?:\w+ ){{0,3}}?{m.group(1)}\b(?! of (?:any|each|every|all))",
        before,
        flags=re.I,
    )
    return f"the answer {m.group(2)}" if returned else clause


def number_problem(info: LeafInfo, out: dict[str, Any]) -> str | None:
    """Why a number form cannot be drawn with the rest of ``out`` (a string's spec), or None:
    it needs the digits in its alphabet and no other rule on its text (no leading zeros it
    meets; a lone zero the rule forbids only where the range holds no 0)."""
    form = info.form[0]  # type: ignore[index]
    lone = info.lead is not None and info.lead[0] != "zero-ok" and form["lo"] == 0
    others = info.pins or info.apart or info.spaces or info.distinct or info.sorted
    if others or lone or out.get("values_sum_max") is not None:
        return "an integer written as a string, with another rule on its characters"
    if not set("0123456789") <= set(out["leaf"].get("alphabet") or ""):
        return "an integer written as a string whose alphabet lacks a digit"
    return None


def order_spec(
    facts: Facts,
    params: list[dict[str, Any]],
    quantities: list[dict[str, Any]],
    problems: list[str],
) -> list[Any]:
    """``spec["num_order"]``: ``[a, op, b]`` by parameter index, for two strings that write
    integers, whose specs are the same but for the name and whose lengths have one range (so
    either may hold the other's value)."""
    index = {p["name"]: i for i, p in enumerate(params)}
    out = []
    for a, op, b, line in facts.num_order:
        pa, pb = params[index[a]], params[index[b]]
        same = {k: v for k, v in pa.items() if k not in ("name", "dims")} == {
            k: v for k, v in pb.items() if k not in ("name", "dims")
        }
        sizes = [_bounds(quantities, p["dims"][0].get("q")) for p in (pa, pb)]
        if not same or a == b or sizes[0] != sizes[1]:
            problems.append(f'"{line}": an order of two integers written in strings of one spec')
        out.append([index[a], op, index[b]])
    return out


def _bounds(quantities: list[dict[str, Any]], name: str | None) -> list[Any] | None:
    """A quantity's spec but its name, label and the lines its bounds quote (None: a length
    drawn per item, which is no quantity)."""
    item = next((q for q in quantities if q["name"] == name), None)
    if item is None:
        return None
    rest = {k: v for k, v in item.items() if k not in ("name", "label", "bounds")}
    return [rest, [{k: v for k, v in b.items() if k != "text"} for b in item["bounds"]]]
