"""The runtime of membership between parameters (:mod:`.members`, the spec's ``members``).

Copied verbatim into every emitted generator with the rest of the runtime (``MEMBERS_RUNTIME``
in :data:`.runtime._RUNTIME`), so they use only ``random`` and builtins. They run after every
parameter is drawn, and only on a spec that has ``members``: a spec without it draws as before.
"""

from __future__ import annotations

import random


def _members(spec: dict, args: list) -> list:
    """Each rule of ``spec["members"]`` made to hold on the drawn ``args`` (indices of
    parameters); ``[None]`` when the draw leaves it no room, so the input is drawn again."""
    out = list(args)
    for rule in spec["members"]:
        op, a = rule[0], rule[1]
        if op == "has":
            if not _plant(out[a], rule[2], rule[3]):
                return [None]
            continue
        b = rule[2]
        items = list(out[b])
        if op == "in":
            if not items:
                return [None]
            out[a] = random.choice(items)
        elif op == "notin":
            got = _keep_out(out[b], out[a], spec["params"][b])
            if got is None:
                return [None]
            out[b] = got
        elif op == "ne":
            if out[a] == out[b]:
                if not items:
                    return [None]
                i = random.randrange(len(items))
                items[i] = random.choice(_other_values(spec["params"][b]["leaf"], items[i]))
                out[b] = "".join(items) if isinstance(out[b], str) else items
        else:
            got = _built(op, out[a], items, spec["params"][a])
            if got is None:
                return [None]
            out[a] = "".join(got) if isinstance(out[a], str) else got
    return out


def _built(op: str, old: list, items: list, p: dict) -> list | None:
    """``a`` built from ``b``'s items (``perm``: a shuffled copy; ``subseq``: the items at
    random increasing positions; ``subset``: each a random item, or distinct ones where ``a``
    is distinct, sorted where ``a`` is), of ``a``'s drawn length; None when there are too few."""
    n = len(old)
    if op == "perm":
        random.shuffle(items)
        return items
    if op == "subseq":
        if n > len(items):
            return None
        return [items[i] for i in sorted(random.sample(range(len(items)), n))]
    if p.get("distinct"):
        pool = list(dict.fromkeys(items))
        if n > len(pool):
            return None
        got = random.sample(pool, n)
    elif n and not items:
        return None
    else:
        got = [random.choice(items) for _ in range(n)]
    if p.get("sorted"):
        got.sort(reverse=p["sorted"] == "desc")
    return got


def _plant(grid: list, value: int, k: int) -> bool:
    """At least ``k`` items of ``grid`` (a list, or a list of rows) equal to ``value``: the
    ones missing set at random positions that hold another value. False when it has fewer
    than ``k`` items."""
    spots = []
    for i, x in enumerate(grid):
        if isinstance(x, list):
            spots += [(i, j) for j in range(len(x))]
        else:
            spots.append((i, -1))

    def at(s: tuple) -> int:
        return grid[s[0]] if s[1] < 0 else grid[s[0]][s[1]]

    have = sum(1 for s in spots if at(s) == value)
    others = [s for s in spots if at(s) != value]
    if have + len(others) < k:
        return False
    for i, j in random.sample(others, max(0, k - have)):
        if j < 0:
            grid[i] = value
        else:
            grid[i][j] = value
    return True


def _keep_out(values: list, x: object, p: dict) -> list | None:
    """``values`` with every item equal to ``x`` drawn again from the constant range of ``p``'s
    leaf (not ``x``; not a value already there where ``p`` is distinct; sorted again where ``p``
    is sorted); None when 100 draws find no such value."""
    if x not in values:
        return values
    lo, hi = max(p["leaf"]["lo"]), min(p["leaf"]["hi"])
    out = list(values)
    taken = set(out)
    for i, y in enumerate(out):
        if y != x:
            continue
        tries = 0
        while y == x or (p.get("distinct") and y in taken):
            tries += 1
            if tries > 100:
                return None
            y = random.randint(lo, hi)
        out[i] = y
        taken.add(y)
    if p.get("sorted"):
        out.sort(reverse=p["sorted"] == "desc")
    return out


def _other_values(leaf: dict, x: object) -> list:
    """The values of ``leaf`` (an alphabet, or a constant integer range) other than ``x``: a
    few of the range, drawn."""
    if "alphabet" in leaf:
        return [c for c in leaf["alphabet"] if c != x]
    lo, hi = max(leaf["lo"]), min(leaf["hi"])
    picks = [random.randint(lo, hi) for _ in range(8)] + [lo, hi]
    return [y for y in picks if y != x]


MEMBERS_RUNTIME = (_members, _built, _plant, _keep_out, _other_values)
