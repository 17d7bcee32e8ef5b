"""The runtime's part for bounds by a count derived from another input (:mod:`.derived_counts`):
a scalar set, once every parameter is drawn, within the count (the distinct values of a list,
the words of a text, the digits of an integer, the depth of a tree). Copied into every generated
generator with the rest of the runtime (only ``random``, builtins and :func:`_eval`)."""

from __future__ import annotations

import random

from quicksilver.synth.offline.runtime_parts import _eval


def _derived_count(kind: str, arg: object) -> int:
    """The count ``kind`` of one drawn argument: its distinct values (``"unique"``), the words
    of a text (runs of characters between spaces), the decimal digits of an integer, or the
    depth of a tree given as a level-order list (the root at depth 1, an empty tree 0)."""
    if kind == "unique":
        return len(set(arg))  # type: ignore[arg-type]
    if kind == "words":
        return len([w for w in str(arg).split(" ") if w])
    if kind == "digits":
        return len(str(abs(int(arg))))  # type: ignore[call-overload]
    values = list(arg)  # type: ignore[call-overload]
    depth = [1] if values else []  # the depth of each node, in level order
    slot = 1
    for d in depth:
        for _side in range(2):
            if slot < len(values):
                if values[slot] is not None:
                    depth.append(d + 1)
                slot += 1
    return max(depth, default=0)


def _same_digits(values: list, lo: int, hi: int, order: object, mode: str) -> list:
    """``All integers in nums have the same number of digits``: a count of digits (in "random"
    mode any of the range's, else a random item's, so an input of extremes stays one), and
    every item of another count drawn again within that count's band of the range [lo, hi]
    (lo >= 0); sorted again where an order is stated. Kept where the items share one count."""
    if len({len(str(x)) for x in values}) <= 1:
        return values
    if mode == "random":
        width = random.randint(len(str(lo)), len(str(hi)))
    else:
        width = len(str(random.choice(values)))
    low = max(lo, 10 ** (width - 1) if width > 1 else 0)
    high = min(hi, 10**width - 1)
    out = [x if len(str(x)) == width else random.randint(low, high) for x in values]
    if order:
        out.sort(reverse=order == "desc")
    return out


def _below_count(spec: dict, args: list, q: dict, mode: str) -> list | None:
    """A list's items of one count of digits (``"same_digits"``), then a scalar at most a count
    of another argument plus a constant (``"below_count"``: ``k is in the range [1, the number
    of words in s]``) set within its own bounds and the count:
    kept when it fits, else the count in "max" mode, else drawn again below it. None when the
    count is below its least value (drawn again)."""
    names = [p["name"] for p in spec["params"]]
    out = list(args)
    for i, p in enumerate(spec["params"]):
        if p.get("same_digits"):
            leaf = p["leaf"]
            out[i] = _same_digits(out[i], max(leaf["lo"]), min(leaf["hi"]), p["sorted"], mode)
    for i, p in enumerate(spec["params"]):
        rule = p.get("below_count")
        if not rule:
            continue
        count = _derived_count(rule["count"], args[names.index(rule["of"])]) + rule["add"]
        item = next(x for x in spec["quantities"] if x["name"] == p["q"])
        los = [-(_eval(b["rest"], q) // b["coef"]) for b in item["bounds"] if b["coef"] > 0]
        tops = [_eval(b["rest"], q) // -b["coef"] for b in item["bounds"] if b["coef"] < 0]
        lo, top = max(los), min([count, *tops])
        if top < lo:
            return None
        if out[i] > top:
            out[i] = top if mode == "max" else random.randint(lo, top)
        q[p["q"]] = out[i]
    return out


DERIVED_RUNTIME = (_derived_count, _same_digits, _below_count)
