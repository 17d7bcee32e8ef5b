"""Parts of the emitted runtime (:mod:`.runtime`) that draw integers written as strings
(:mod:`.numstrings`): the decimal text of an integer in a range, of the length drawn, and two
such strings put in order. Copied into every generated generator with the rest of the runtime,
so they use only ``random`` and builtin types.
"""

from __future__ import annotations

import random


def _number_text(n: int, form: dict) -> list | None:
    """The decimal text (no leading zero) of a random integer in [lo, hi] (``hi`` None: no
    bound) that has ``n`` digits; None when none has (the input is drawn again). Now and then
    the least or greatest such integer (an edge case). With no upper bound and more digits
    than the least value has, digit by digit (a long number is no int to build)."""
    lo, hi = form["lo"], form["hi"]
    if n < 1 or n < len(str(lo)) or (hi is not None and n > len(str(hi))):
        return None
    if hi is None and n > len(str(lo)):
        return [random.choice("123456789")] + [random.choice("0123456789") for _ in range(n - 1)]
    least = max(lo, 10 ** (n - 1) if n > 1 else 0)
    most = 10**n - 1 if hi is None else min(hi, 10**n - 1)
    if least > most:
        return None
    pick = random.random()
    value = least if pick < 0.05 else most if pick < 0.1 else random.randint(least, most)
    return list(str(value))


def _num_order(spec: dict, args: list) -> list:
    """Two integers written as strings put in order (``spec["num_order"]``: ``[a, op, b]``,
    indices of parameters, compared as numbers): swapped when out of order (both have one spec,
    so either may hold either value); equal ones where they must differ make the draw None."""
    out = list(args)
    for a, op, b in spec["num_order"]:
        x, y = int(out[a]), int(out[b])
        if x == y and op in ("<", ">"):
            return [None]
        if (op in ("<=", "<") and x > y) or (op in (">=", ">") and x < y):
            out[a], out[b] = out[b], out[a]
    return out


# emitted with the rest of the runtime (runtime.py's _RUNTIME)
NUMSTR_RUNTIME = (_number_text, _num_order)
