"""The runtime's part for products, powers, factorials and binomials in bounds (:mod:`.prods`):
the operations a ``poly`` bound may hold beyond ``+ - * ^``, and the range of a quantity that
keeps an expression of it and earlier ones within stated numbers (``"prod_in"``). Copied into
every generated generator with the rest of the runtime (only ``math`` and builtins)."""

from __future__ import annotations

import math


def _poly_more(op: str, x: int, y: int) -> int:
    """``x!`` (``["!", x, 0]``), the binomial ``C(x, y)``, ``max`` or ``min`` of two values."""
    if op == "!":
        return math.factorial(x)
    if op == "C":
        return math.comb(x, y) if y >= 0 else 0
    return max(x, y) if op == "max" else min(x, y)


def _grown(expr: object, q: dict, cap: int) -> int:
    """The value of an expression that grows with each quantity it names (``+ * ^ ! max min``
    over values at least 0), at most ``cap``: a value above the cap stays above it whatever the
    operations after, so no huge power or factorial is built."""
    if isinstance(expr, int):
        return min(expr, cap)
    if isinstance(expr, str):
        return min(q[expr], cap)
    op, a, b = expr
    x, y = _grown(a, q, cap), _grown(b, q, cap)
    if op == "+":
        return min(x + y, cap)
    if op == "*":
        return min(x * y, cap)
    if op == "^":
        return cap if x >= 2 and y >= cap.bit_length() else min(x**y, cap)
    if op == "!":
        return cap if x > 256 else min(math.factorial(x), cap)
    return max(x, y) if op == "max" else min(x, y)


def _expr_at(expr: object, q: dict, name: str, x: int, cap: int) -> int:
    """The expression with this quantity at ``x`` and the others as drawn (at most ``cap``)."""
    vals = dict(q)
    vals[name] = x
    return _grown(expr, vals, cap)


def _expr_range(item: dict, lo: int, hi: int, q: dict) -> tuple:
    """[lo, hi] narrowed to the values of this quantity that keep each of its ``"prod_in"``
    expressions (``1 <= a * b * c <= 10^18``, it the last of them drawn) within their numbers,
    the others as drawn: the expression grows with it, so those values are one interval, found
    by bisection. An empty range (lo > hi) makes the caller draw again."""
    name = item["name"]
    for b in item.get("prod_in", ()):
        e, least, most = b["expr"], b["lo"], b["hi"]
        cap = max(least or 0, most or 0) + 1
        if lo > hi:
            break
        if least is not None:  # the least value whose expression is at least ``least``
            if _expr_at(e, q, name, hi, cap) < least:
                return lo, lo - 1
            a, z = lo, hi
            while a < z:
                mid = (a + z) // 2
                a, z = (a, mid) if _expr_at(e, q, name, mid, cap) >= least else (mid + 1, z)
            lo = a
        if most is not None:  # the greatest value whose expression is at most ``most``
            if _expr_at(e, q, name, lo, cap) > most:
                return lo, lo - 1
            a, z = lo, hi
            while a < z:
                mid = (a + z + 1) // 2
                a, z = (mid, z) if _expr_at(e, q, name, mid, cap) <= most else (a, mid - 1)
            hi = a
    return lo, hi


PRODS_RUNTIME = (_poly_more, _grown, _expr_at, _expr_range)
