"""The operations an expression in a bound may hold beyond ``+ - * ^`` (:mod:`.prods`): a
factorial ``["!", a, 0]`` (``k <= n!``), a binomial coefficient ``["C", a, b]`` (``k <=
nCr(m + n, n)``), and the larger or smaller of two values ``["max", a, b]`` / ``["min", a, b]``
(``word.length <= max(m, n)``). Here: their bounds by interval arithmetic, for the schedule
(:func:`~.nonlinear.interval`). The runtime (:mod:`.runtime_prods`) and the checker
(:mod:`.checker_prods`) evaluate them with code of their own."""

from __future__ import annotations

import math

MORE_OPS = ("!", "C", "max", "min")
MAX_FACTORIAL = 256  # n! with n up to this; above it the runtime would build huge numbers


def more_interval(op: str, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int] | None:
    """The least and greatest value of ``[op, x, y]`` for x in ``a`` and y in ``b``; None where
    it is not defined for every such value (a negative factorial or binomial) or too large."""
    if op == "max":
        return max(a[0], b[0]), max(a[1], b[1])
    if op == "min":
        return min(a[0], b[0]), min(a[1], b[1])
    if a[0] < 0 or a[1] > MAX_FACTORIAL:
        return None
    if op == "!":
        return math.factorial(a[0]), math.factorial(a[1])
    if b[0] < 0 or b[1] > MAX_FACTORIAL:
        return None
    # C(x, y) grows with x (y fixed); for a fixed x it rises to y = x / 2 and falls after it
    least = min(math.comb(a[0], b[0]), math.comb(a[0], b[1]))
    top = min(max(a[1] // 2, b[0]), b[1])
    return least, math.comb(a[1], top)
