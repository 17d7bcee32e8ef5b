"""The checker's part for products, powers, factorials and binomials in bounds (:mod:`.prods`):
the operations of a ``poly`` bound beyond ``+ - * ^`` (:func:`more_value`, used by
:func:`~.checker_arith.poly_value`), and each ``"prod_in"`` bound (``1 <= a * b * c <= 10^18``)
on the quantities the input shows. Written apart from the runtime (:mod:`.runtime_prods`)."""

from __future__ import annotations

import math
from typing import Any

MORE = ("!", "C", "max", "min")


def more_value(op: str, a: int, b: int) -> int | None:
    """``a!``, ``C(a, b)`` (0 where b > a), ``max`` / ``min``; None where undefined."""
    if op == "max":
        return max(a, b)
    if op == "min":
        return min(a, b)
    if a < 0 or a > 10**4:
        return None
    if op == "!":
        return math.factorial(a)
    return math.comb(a, b) if b >= 0 else None


def _at_most(expr: Any, q: dict[str, int], cap: int) -> int | None:
    """``expr``'s value, or ``cap`` where it is at least ``cap`` (its operations all grow on
    values at least 0, so the rest of it stays at least cap); None where a quantity is
    unknown or a value is below 0 (the spec rules that out)."""
    if isinstance(expr, bool):
        return None
    if isinstance(expr, int):
        return min(expr, cap) if expr >= 0 else None
    if isinstance(expr, str):
        v = q.get(expr)
        return None if v is None or v < 0 else min(v, cap)
    op = expr[0]
    a, b = _at_most(expr[1], q, cap), _at_most(expr[2], q, cap)
    if a is None or b is None:
        return None
    if op == "+":
        return min(a + b, cap)
    if op == "*":
        return min(a * b, cap)
    if op == "^":
        if a >= 2 and b >= cap.bit_length():
            return cap
        return min(a**b, cap)
    if op == "!":
        out = 1
        for i in range(2, a + 1):
            out *= i
            if out >= cap:
                return cap
        return out
    got = {"max": max(a, b), "min": min(a, b)}.get(op)
    return None if got is None else min(got, cap)


def check_prods(quantities: list[dict[str, Any]], q: dict[str, int]) -> list[str]:
    """Each ``prod_in`` bound whose quantities the input shows: lo <= expr <= hi."""
    out: list[str] = []
    for item in quantities:
        for b in item.get("prod_in", ()):
            lo, hi = b["lo"], b["hi"]
            cap = max(lo or 0, hi or 0) + 1
            v = _at_most(b["expr"], q, cap)
            if v is None:
                continue
            if (lo is not None and v < lo) or (hi is not None and v > hi):
                shown = "more" if v >= cap else str(v)
                out.append(f"{b['text']} is broken: the expression is {shown}")
    return out
