"""Runtime functions for relations between the fields of rows (:mod:`.row_fields`): a field
bounded by a linear form of the others in its row, and two fields of all rows in one chain.
Emitted with the rest of the runtime (standard library only); ``_draw_rows`` calls them for a
rows spec with ``"lins"``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from quicksilver.synth.offline.runtime_parts import _eval


def _fit_lins(p: dict, q: dict, row: list) -> bool:
    """Each target of ``p["lins"]`` (``["row", t, op, terms, c]``: ``row[t] op sum(coef *
    row[col]) + c``) within its range and what the other fields leave it: kept where it is
    already, else drawn uniformly there. False when they leave it nothing (the row is drawn
    again)."""
    rules = [r for r in p["lins"] if r[0] == "row"]
    for t in sorted({r[1] for r in rules}):
        leaf = p["cols"][t]
        lo = max(_eval(f, q) for f in leaf["lo"])
        hi = min(_eval(f, q) for f in leaf["hi"])
        for _, t2, op, terms, c in rules:
            if t2 == t:
                v = sum(k * row[j] for j, k in terms) + c
                lo, hi = (max(lo, v), hi) if op == ">=" else (lo, min(hi, v))
        if lo > hi:
            return False
        if not lo <= row[t] <= hi:
            row[t] = random.randint(lo, hi)
    return True


def _chain_rows(p: dict, q: dict, rows: list) -> list | None:
    """``["next", a, b, op]``: ``rows[i][a] op rows[i + 1][b]``, with the pair ``b < a`` (or
    ``<=``) in each row: the values of both fields of all rows, sorted, are one chain
    ``b_0, a_0, b_1, a_1, ...``; distinct values of the fields' range (one range: the pair
    shares it) where a step is strict, the values drawn otherwise. None where the range has
    no room for them (the input is drawn again)."""
    for _, a, b, op in (r for r in p["lins"] if r[0] == "next"):
        inner = [x[2] for x in p.get("pairs", ()) if x[0] == b and x[1] == a and x[2] != "!="]
        leaf = p["cols"][a]
        lo = max(_eval(f, q) for f in leaf["lo"])
        hi = min(_eval(f, q) for f in leaf["hi"])
        if "<" in (op, *inner):
            if hi - lo + 1 < 2 * len(rows):
                return None
            values = sorted(random.sample(range(lo, hi + 1), 2 * len(rows)))
        else:
            values = sorted(x for row in rows for x in (row[a], row[b]))
        for i, row in enumerate(rows):
            row[b], row[a] = values[2 * i], values[2 * i + 1]
    return rows


ROWS_RUNTIME: tuple[Callable[..., Any], ...] = (_fit_lins, _chain_rows)
