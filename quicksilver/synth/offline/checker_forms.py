"""The checker's reading of a structure stated in words (a spec's ``"form"``,
:mod:`.formats`), written apart from the runtime's drawing code (:mod:`.runtime_forms`):

- ``rotated``: a rotation of a non-decreasing list: going round the list once (the last value
  followed by the first), at most one value is greater than the one after it;
- ``mountain``: at least 3 values, strictly increasing to the greatest value, which is neither
  the first nor the last, and strictly decreasing after it;
- ``path``: ``/`` alone, or ``/`` then names of at least one character joined by single slashes
  (none at the end);
- ``date``: ``YYYY-MM-DD``, a date the standard library's calendar accepts, within ``lo`` and
  ``hi``;
- ``email``: one ``@`` between a local name (non-empty, not starting with ``not_first``) and
  a domain name (non-empty before its ``suffix``, which it ends with);
- ``integer``: an optional ``-``, then ``digits`` with no leading zero (but ``0``);
- ``sentence``: a capital letter, then lowercase words with single spaces between them;
- ``halves``: half of the characters each of the two ``chars``;
- ``count``: at most ``most`` characters of ``chars``;
- ``version``: revisions of 1 to ``digits`` digits joined by dots;
- ``ipv4``: four numbers 0 to 255 with no leading zeros, joined by dots; ``roman``: a numeral
  of the subtractive rule (a regular expression), its value in ``lo`` .. ``hi``;
- ``balanced``: no prefix closes more parentheses than it opened, and the whole string closes
  all it opened;
- ``format``: the string is the format's fields and separators, each field its width of digits
  holding a number in its range (with ``mask``, some digits hidden by that character: some
  number in the range shows through).

Each innermost list (a string's characters) is checked; one line per list that breaks its form.
Two arguments compared whole (``relations``, ``[a, op, b]`` by parameter index) are compared as
Python compares them (strings of one fixed-width format: text order is time order).
"""

from __future__ import annotations

import datetime
import operator
import re
from typing import Any

from quicksilver.synth.offline.checker_numstr import check_number


def check_form(form: dict[str, Any], rows: list[tuple[str, list[tuple[str, Any]]]]) -> list[str]:
    """The lines for the innermost lists ``rows`` ((where, [(where, value)])) that break
    ``form``."""
    check = {
        "rotated": _rotated,
        "mountain": _mountain,
        "balanced": _balanced,
        "path": _path,
        "ipv4": _ipv4,
        "integer": lambda values: _integer(form.get("digits", ""), values),
        "sentence": _sentence,
        "halves": lambda values: _halves(form.get("chars", ""), values),
        "count": lambda values: _count(form.get("chars", ""), form.get("most", 0), values),
        "email": lambda values: _email(form.get("not_first", ""), form.get("suffix", ""), values),
        "version": lambda values: _version(form.get("digits", 9), values),
        "roman": lambda values: _roman(form.get("lo", 1), form.get("hi", 3999), values),
        "date": lambda values: _date(form.get("lo"), form.get("hi"), values),
        "format": lambda values: _format(form.get("parts", []), values, form.get("mask")),
        "number": lambda values: check_number(form, values),  # checker_numstr.py
    }.get(form.get("kind", ""))
    if check is None:
        return [f"an unknown structure {form!r}"]
    out = []
    for where, row in rows:
        values = [x for _, x in row]
        try:
            why = check(values)
        except TypeError:
            why = "holds values of the wrong type"
        if why:
            out.append(f"{where} {why}")
    return out


_OPS = {
    "<=": operator.le,
    "<": operator.lt,
    ">=": operator.ge,
    ">": operator.gt,
    "!=": operator.ne,
}


def check_relations(
    relations: list[Any], params: list[dict[str, Any]], args: list[Any]
) -> list[str]:
    """A line per relation between two whole arguments that does not hold."""
    out = []
    for a, op, b in relations:
        x, y = args[a], args[b]
        if op == "pairs":
            pairs = (
                list(zip(x, y, strict=False)) if isinstance(x, list) and isinstance(y, list) else []
            )
            if len(pairs) != len(set(pairs)) or not isinstance(x, list):
                out.append(f"[{params[a]['name']}[i], {params[b]['name']}[i]] repeats a pair")
            continue
        try:
            holds = _OPS[op](x, y)
        except TypeError:
            holds = False
        if not holds:
            na, nb = params[a]["name"], params[b]["name"]
            out.append(f"{na} = {x!r}, {nb} = {y!r} breaks {na} {op} {nb}")
    return out


def _rotated(values: list[Any]) -> str | None:
    n = len(values)
    drops = [i for i in range(n) if values[i] > values[(i + 1) % n]]
    if len(drops) > 1:
        return f"is no rotation of a sorted list (it falls after positions {drops[:3]})"
    return None


def _mountain(values: list[Any]) -> str | None:
    if len(values) < 3:
        return f"is no mountain array: {len(values)} values"
    top = values.index(max(values))
    if top in (0, len(values) - 1):
        return f"is no mountain array: its greatest value is at position {top}, an end"
    up = all(values[i] < values[i + 1] for i in range(top))
    down = all(values[i] > values[i + 1] for i in range(top, len(values) - 1))
    return None if up and down else "is no mountain array: not strictly up then down"


def _date(lo: Any, hi: Any, values: list[Any]) -> str | None:
    text = "".join(str(c) for c in values)
    found = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    try:
        day = datetime.date(*(int(x) for x in found.groups())) if found else None
    except ValueError:
        day = None
    if day is None:
        return f"= {text!r} is no valid YYYY-MM-DD date"
    if not datetime.date(*lo) <= day <= datetime.date(*hi):
        return f"= {text!r} is outside {lo} .. {hi}"
    return None


def _version(most: int, values: list[Any]) -> str | None:
    text = "".join(str(c) for c in values)
    if not all(re.fullmatch(rf"\d{{1,{most}}}", x) for x in text.split(".")):
        return f"= {text!r} is no version number (revisions of 1 to {most} digits, dots between)"
    return None


def _email(not_first: str, suffix: str, values: list[Any]) -> str | None:
    text = "".join(str(c) for c in values)
    if text.count("@") != 1:
        return f"= {text!r} has {text.count('@')} '@', not one"
    local, domain = text.split("@")
    if not local or (not_first and local.startswith(not_first)):
        return f"= {text!r}: its local name is empty or starts with {not_first!r}"
    if not domain.endswith(suffix) or len(domain) <= len(suffix):
        return f"= {text!r}: its domain name is empty or does not end with {suffix!r}"
    return None


def _count(chars: str, most: int, values: list[Any]) -> str | None:
    found = sum(1 for c in values if c in chars)
    return None if found <= most else f"holds {found} of {chars!r}, more than {most}"


def _halves(chars: str, values: list[Any]) -> str | None:
    counts = [sum(1 for c in values if c == x) for x in chars]
    if len(counts) != 2 or counts[0] != counts[1] or sum(counts) != len(values):
        return f"holds {counts} of {chars!r}, not half of its {len(values)} characters each"
    return None


def _integer(digits: str, values: list[Any]) -> str | None:
    text = "".join(str(c) for c in values)
    body = text[1:] if text.startswith("-") else text
    ok = bool(body) and set(body) <= set(digits) and (body == "0" or not body.startswith("0"))
    return None if ok and text != "-0" else f"= {text!r} is no integer of the digits {digits}"


def _sentence(values: list[Any]) -> str | None:
    text = "".join(str(c) for c in values)
    if re.fullmatch(r"[A-Z][a-z]*(?: [a-z]+)*", text):
        return None
    return f"= {text!r} is no capitalized sentence of single-spaced lowercase words"


def _ipv4(values: list[Any]) -> str | None:
    text = "".join(str(c) for c in values)
    parts = text.split(".")
    ok = len(parts) == 4 and all(re.fullmatch(r"0|[1-9]\d{0,2}", x) for x in parts)
    if not ok or any(int(x) > 255 for x in parts):
        return f"= {text!r} is no IPv4 address (four numbers 0-255, no leading zeros)"
    return None


_ROMAN = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def _roman(lo: int, hi: int, values: list[Any]) -> str | None:
    """A canonical numeral (the pattern of the subtractive rule), valued by adding each
    symbol and subtracting one that comes before a greater one."""
    text = "".join(str(c) for c in values)
    if not text or not _ROMAN.fullmatch(text):
        return f"= {text!r} is no roman numeral"
    worth = [_ROMAN_VALUES[c] for c in text]
    value = sum(-w if i + 1 < len(worth) and w < worth[i + 1] else w for i, w in enumerate(worth))
    return None if lo <= value <= hi else f"= {text!r} is {value}, outside [{lo}, {hi}]"


def _path(values: list[Any]) -> str | None:
    text = "".join(str(c) for c in values)
    if not text.startswith("/"):
        return f"= {text!r} does not start with '/'"
    if text != "/" and ("//" in text or text.endswith("/")):
        return f"= {text!r} has an empty name (two slashes in a row, or one at the end)"
    return None


def _balanced(values: list[Any]) -> str | None:
    depth = 0
    for i, c in enumerate(values):
        depth += (c == "(") - (c == ")")
        if depth < 0:
            return f"closes a parenthesis it never opened at position {i}"
    return f"leaves {depth} parentheses open" if depth else None


def _format(parts: list[Any], values: list[Any], mask: str | None) -> str | None:
    text = "".join(str(c) for c in values)
    pos = 0
    for part in parts:
        if isinstance(part, str):
            if text[pos : pos + len(part)] != part:
                return f"= {text!r} lacks {part!r} at position {pos}"
            pos += len(part)
            continue
        name, width, lo, hi = part
        digits = text[pos : pos + width]
        if not any(_shows(str(v).zfill(width), digits, mask) for v in range(lo, hi + 1)):
            return f"= {text!r}: its field {name} is {digits!r}, not {width} digits in [{lo}, {hi}]"
        pos += width
    return None if pos == len(text) else f"= {text!r} is longer than its format"


def _shows(value: str, digits: str, mask: str | None) -> bool:
    """``digits`` is ``value`` written out, some digits hidden by ``mask`` where there is one."""
    return len(digits) == len(value) and all(
        d == v or (mask is not None and d == mask) for d, v in zip(digits, value, strict=True)
    )
