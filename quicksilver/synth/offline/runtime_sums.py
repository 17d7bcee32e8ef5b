"""The runtime's part for sums over lists (:mod:`.sums`): items lengthened until their lengths
reach a least sum, and a list's values moved within their range until their sum is one the
statement allows. Copied into every generated generator with the rest of the runtime (only
``random`` and builtins)."""

from __future__ import annotations

import random


def _grow_sum(counts: list, hi: int, least: int) -> list:
    """Per-item lengths (each at most ``hi``) lengthened until they sum to ``least`` at least:
    each item takes a share of what is missing in proportion to its room, the rest one by one
    (the schedule keeps ``len(counts) * hi >= least``)."""
    need = least - sum(counts)
    room = sum(hi - c for c in counts)
    if need <= 0 or room <= 0:
        return counts
    out = [c + (hi - c) * need // room for c in counts]
    left = least - sum(out)
    order = list(range(len(out)))
    random.shuffle(order)
    for i in order:
        if left <= 0:
            break
        if out[i] < hi:
            out[i] += 1
            left -= 1
    return out


def _sum_target(total: int, count: int, lo: int, hi: int, rule: dict, top: object) -> object:
    """The sum nearest ``total`` that ``count`` values in ``[lo, hi]`` can have within the
    rule's least sum, the greatest ``top`` (None: none) and its remainder; None if none."""
    least = max(count * lo, rule.get("min", count * lo))
    most = count * hi if top is None else min(count * hi, top)
    if least > most:
        return None
    target = min(max(total, least), most)
    mod = rule.get("mod")
    if mod and (target - mod[1]) % mod[0]:
        up = target + (mod[1] - target) % mod[0]
        down = target - (target - mod[1]) % mod[0]
        options = [t for t in (up, down) if least <= t <= most]
        if not options:
            return None
        target = random.choice(options)
    return target


def _meet_sum(row: list, leaf: dict, rule: dict, top: object) -> list | None:
    """``row``'s values (in ``[lo, hi]`` of ``leaf``) moved toward an end of the range until
    their sum meets ``rule`` (``{"min": s, "mod": [m, r]}``) and stays at most ``top``: each
    value takes a share in proportion to its room, the rest one step at a time over random
    positions. None when no sum of that many values is allowed (drawn again)."""
    lo, hi = leaf["lo"][0], leaf["hi"][0]
    total = sum(row)
    target = _sum_target(total, len(row), lo, hi, rule, top)
    if target is None:
        return None
    if target == total:
        return row
    step = 1 if target > total else -1
    room = [(hi - x) if step > 0 else (x - lo) for x in row]
    need = abs(target - total)
    spare = sum(room)
    out = [x + step * (r * need // spare) for x, r in zip(row, room, strict=True)]
    order = list(range(len(out)))
    random.shuffle(order)
    left = target - sum(out)
    for i in order:
        if left == 0:
            break
        if lo <= out[i] + step <= hi:
            out[i] += step
            left -= step
    return out


def _below_sum(spec: dict, args: list, q: dict, mode: str) -> list | None:
    """A scalar at most a sum of the drawn lists (``"below_sum"``: ``k <= sum(piles[i].length)``,
    ``orders <= sum(inventory[i])``) set within its constant bounds and the sum: kept when it
    fits, else the sum's value in "max" mode, else drawn again below it. None when the sum is
    below its least value (drawn again)."""
    names = [p["name"] for p in spec["params"]]
    out = list(args)
    for i, p in enumerate(spec["params"]):
        rule = p.get("below_sum")
        if not rule:
            continue
        arg = args[names.index(rule["of"])]
        items = [arg]
        for _ in range(rule["level"] or 0):
            items = [x for it in items for x in it]
        total = sum(len(x) for x in items) if rule["level"] else sum(arg)
        item = next(x for x in spec["quantities"] if x["name"] == p["q"])
        lo = max([-(b["rest"] // b["coef"]) for b in item["bounds"] if b["coef"] > 0], default=0)
        tops = [b["rest"] // -b["coef"] for b in item["bounds"] if b["coef"] < 0]
        top = min([total - rule["strict"], *tops])
        if top < lo:
            return None
        if out[i] > top:
            out[i] = top if mode == "max" else random.randint(lo, top)
        q[p["q"]] = out[i]
    return out


SUMS_RUNTIME = (_grow_sum, _sum_target, _meet_sum, _below_sum)
