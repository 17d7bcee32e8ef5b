"""The checker's reading of integers written as strings (:mod:`.numstrings`), written apart
from the runtime's drawing code (:mod:`.runtime_numstr`): a ``number`` form is digits only, no
leading zero (but ``0`` itself), its value in ``lo`` .. ``hi`` (``hi`` None: no upper bound);
``num_order`` (``[a, op, b]`` by parameter index) holds between the two values as integers.
"""

from __future__ import annotations

import operator
from typing import Any

_OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}


def check_number(form: dict[str, Any], values: list[Any]) -> str | None:
    """Why the characters ``values`` do not write an integer in the form's range, or None."""
    text = "".join(str(v) for v in values)
    if not text or not all(c in "0123456789" for c in text):
        return f"= {text!r} writes no integer (digits only)"
    if len(text) > 1 and text[0] == "0":
        return f"= {text!r} has a leading zero"
    lo, hi = form.get("lo", 0), form.get("hi")
    # compare by length first: a long text is no int to build (and needs none)
    below = (len(text), text) < (len(str(lo)), str(lo))
    above = hi is not None and (len(text), text) > (len(str(hi)), str(hi))
    if below or above:
        return f"= {text[:40]!r} writes an integer outside [{lo}, {hi}]"
    return None


def check_num_order(spec: dict[str, Any], args: list[Any]) -> list[str]:
    """A line per order between two integers written as strings that does not hold."""
    out = []
    params = spec.get("params", [])
    for a, op, b in spec.get("num_order", []):
        x, y = args[a], args[b]
        ok = isinstance(x, str) and isinstance(y, str) and x.isdigit() and y.isdigit()
        if not ok or not _OPS[op](_key(x), _key(y)):
            na, nb = params[a]["name"], params[b]["name"]
            out.append(f"{na} = {x!r}, {nb} = {y!r} breaks {na} {op} {nb} (as integers)")
    return out


def _key(text: str) -> tuple[int, str]:
    """The order of integers written in decimal digits (a long one is no int to build)."""
    digits = text.lstrip("0") or "0"
    return len(digits), digits
