"""The checker's reading of a structure stated in words (a spec's ``"form"``,
:mod:`.formats`), written apart from the runtime's drawing code (:mod:`.runtime_forms`):

- ``rotated``: a rotation of a non-decreasing list: going round the list once (the last value
  followed by the first), at most one value is greater than the one after it;
- ``mountain``: at least 3 values, strictly increasing to the greatest value, which is neither
  the first nor the last, and strictly decreasing after it;
- ``balanced``: no prefix closes more parentheses than it opened, and the whole string closes
  all it opened;
- ``format``: the string is the format's fields and separators, each field its width of digits
  holding a number in its range.

Each innermost list (a string's characters) is checked; one line per list that breaks its form.
"""

from __future__ import annotations

from typing import Any


def check_form(form: dict[str, Any], rows: list[tuple[str, list[tuple[str, Any]]]]) -> list[str]:
    """The lines for the innermost lists ``rows`` ((where, [(where, value)])) that break
    ``form``."""
    check = {
        "rotated": _rotated,
        "mountain": _mountain,
        "balanced": _balanced,
        "format": lambda values: _format(form.get("parts", []), values),
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


def _balanced(values: list[Any]) -> str | None:
    depth = 0
    for i, c in enumerate(values):
        depth += (c == "(") - (c == ")")
        if depth < 0:
            return f"closes a parenthesis it never opened at position {i}"
    return f"leaves {depth} parentheses open" if depth else None


def _format(parts: list[Any], values: list[Any]) -> str | None:
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
        if len(digits) != width or not digits.isdigit() or not lo <= int(digits) <= hi:
            return f"= {text!r}: its field {name} is {digits!r}, not {width} digits in [{lo}, {hi}]"
        pos += width
    return None if pos == len(text) else f"= {text!r} is longer than its format"
