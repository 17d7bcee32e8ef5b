"""The checker's reading of derived quantities (arith.py): a quantity no argument shows whose
nonlinear bounds (``poly``) leave it one integer, ``n * n`` in ``0 <= grid[i][j] < n * n``.
Written apart from the runtime: the bounds are compared exactly (``x * den op num``)."""

from __future__ import annotations

from typing import Any

from quicksilver.synth.offline.checker_prods import MORE, more_value


def poly_value(expr: Any, q: dict[str, int]) -> int | None:
    """An expression of a nonlinear bound on ``q`` (None when a quantity is unknown, or for a
    negative exponent): an integer, a quantity, or ``[op, a, b]`` for ``a + b``, ``a - b``,
    ``a * b``, ``a ^ b``. The checker's own arithmetic (checker.py and the derived quantities
    here), apart from the runtime's ``_poly``."""
    if isinstance(expr, bool):
        return None
    if isinstance(expr, int):
        return expr
    if isinstance(expr, str):
        return q.get(expr)
    a, b = poly_value(expr[1], q), poly_value(expr[2], q)
    if a is None or b is None:
        return None
    if expr[0] == "^":
        return a**b if b >= 0 else None
    if expr[0] in MORE:  # a factorial, a binomial, max / min (prods.py)
        return more_value(expr[0], a, b)
    return {"+": a + b, "-": a - b, "*": a * b}[expr[0]]


def solve_pinned(quantities: list[dict[str, Any]], q: dict[str, int]) -> list[str]:
    """Each unknown quantity whose ``poly`` bounds admit one integer gets it (in spec order, so
    a later one may use an earlier one); bounds that admit none are reported."""
    out: list[str] = []
    for item in quantities:
        bounds = item.get("poly", ())
        if item["name"] in q or not bounds:
            continue
        lo: int | None = None
        hi: int | None = None
        for b in bounds:
            num, den = poly_value(b["num"], q), b["den"]
            if num is None:
                break
            # the integers x with x * den op num
            if b["op"] in ("<=", "<", "=="):
                top = num // den if b["op"] != "<" else (num - 1) // den
                hi = top if hi is None else min(hi, top)
            if b["op"] in (">=", ">", "=="):
                bottom = -(-num // den) if b["op"] != ">" else num // den + 1
                lo = bottom if lo is None else max(lo, bottom)
        else:
            if lo is not None and hi is not None and lo == hi:
                q[item["name"]] = lo
            elif lo is not None and hi is not None and lo > hi:
                out.append(f"{item['name']}: no integer meets {bounds[0]['text']}")
    return out
