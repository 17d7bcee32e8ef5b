"""The runtime of a value present in a list or grid, and of one stated position
(:mod:`.presence`, the spec's ``presence``).

Copied verbatim into every emitted generator with the rest of the runtime (``PRESENCE_RUNTIME``
in :data:`.runtime._RUNTIME`), so they use only ``random`` and builtins. They run after every
parameter is drawn, and only on a spec that has ``presence``: a spec without it draws as before.
"""

from __future__ import annotations

import random


def _presence(spec: dict, args: list) -> list:
    """Each rule of ``spec["presence"]`` made to hold on the drawn ``args``; ``[None]`` when the
    draw leaves it no room (an address outside the grid, too few items), so the input is drawn
    again."""
    out = list(args)
    for rule in spec["presence"]:
        a = rule[1]
        if rule[0] == "node":  # scalars: the values of distinct random nodes
            values = [v for v in out[a] if v is not None]
            if len(values) < len(rule[2]):
                return [None]
            picks = random.sample(values, len(rule[2]))
            for k, j in enumerate(rule[2]):
                out[j] = picks[k]
            continue
        leaf = spec["params"][a]["leaf"]
        if rule[0] in ("absent", "common"):
            got = _presence_strings(rule[0], out[a], out[rule[2]], leaf)
            if got is None:
                return [None]
            out[a] = got
            continue
        if isinstance(out[a], str):
            rows = list(out[a])
        else:
            rows = [list(r) if isinstance(r, (str, list)) else r for r in out[a]]
        flat = not rows or not isinstance(rows[0], list)
        if rule[0] == "count" and len(rule) > 5 and not flat:  # in each row or column
            ok = _presence_each(rows, rule[5], leaf, rule[2], rule[3], rule[4], out)
        elif rule[0] == "count":
            ok = _presence_count(rows, flat, leaf, rule[2], rule[3], rule[4], out)
        elif rule[0] == "kinds":
            ok = _presence_kinds(rows, flat, leaf, rule[2])
        else:
            ok = _presence_at(rows, flat, leaf, rule[2], rule[3], out)
        if not ok:
            return [None]
        if isinstance(out[a], str):
            out[a] = "".join(rows)
        elif out[a] and isinstance(out[a][0], str):
            out[a] = ["".join(r) for r in rows]
        else:
            out[a] = rows
    return out


def _presence_meets(x: object, pred: list, args: list) -> bool:
    """``x`` has the property ``pred`` (``[op, v]``; ``v`` may be ``{"arg": j}``)."""
    op, v = pred
    if isinstance(v, dict):
        v = args[v["arg"]]
    if op == "in":
        return x in v
    if op == "not":
        return x not in v
    if op == "==":
        return x == v
    if op == "!=":
        return x != v
    if op == "<":
        return x < v
    if op == "<=":
        return x <= v
    if op == ">":
        return x > v
    return x >= v


def _presence_value(leaf: dict, pred: list, args: list, want: bool) -> object:
    """A value of ``leaf`` that meets ``pred`` (or, ``want`` False, does not); None if none."""
    if "alphabet" in leaf or "set" in leaf:
        pool = list(leaf["alphabet"]) if "alphabet" in leaf else list(leaf["set"])
        pool = [x for x in pool if _presence_meets(x, pred, args) == want]
        return random.choice(pool) if pool else None
    lo, hi = max(leaf["lo"]), min(leaf["hi"])
    op, v = pred
    if isinstance(v, dict):
        v = args[v["arg"]]
    if op in ("in", "not"):
        if (op == "in") == want:
            pool = [x for x in v if lo <= x <= hi]
            return random.choice(pool) if pool else None
        op = "any"  # a value of the range outside the list: drawn below
    elif not want:  # the values that do not meet it: the opposite comparison
        op = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "==": "!=", "!=": "=="}[op]
    if op in (">", ">=", "=="):
        lo = max(lo, v + (op == ">"))
    if op in ("<", "<=", "=="):
        hi = min(hi, v - (op == "<"))
    if lo > hi:
        return None
    for _ in range(100):
        x = random.randint(lo, hi)
        if _presence_meets(x, pred, args) == want:
            return x
    return None


def _presence_count(
    rows: list, flat: bool, leaf: dict, pred: list, least: int, most: object, args: list
) -> bool:
    """At least ``least`` (and at most ``most``, unless None) items meet ``pred``: items set
    at random positions that do not (or do) until they do."""
    spots = [(i, -1) for i in range(len(rows))] if flat else []
    if not flat:
        spots = [(i, j) for i, row in enumerate(rows) for j in range(len(row))]

    def at(s: tuple) -> object:
        return rows[s[0]] if s[1] < 0 else rows[s[0]][s[1]]

    good = [s for s in spots if _presence_meets(at(s), pred, args)]
    bad = [s for s in spots if not _presence_meets(at(s), pred, args)]
    if len(spots) < least:
        return False
    changes = [(s, True) for s in random.sample(bad, max(0, least - len(good)))]
    if most is not None and len(good) > most:
        changes = [(s, False) for s in random.sample(good, len(good) - most)]
    for (i, j), want in changes:
        x = _presence_value(leaf, pred, args, want)
        if x is None:
            return False
        if j < 0:
            rows[i] = x
        else:
            rows[i][j] = x
    return True


def _presence_each(
    rows: list, scope: str, leaf: dict, pred: list, least: int, most: object, args: list
) -> bool:
    """``_presence_count`` in each row (``scope`` "row") or each column ("col") of a grid."""
    if scope == "row":
        return all(_presence_count(row, True, leaf, pred, least, most, args) for row in rows)
    width = max((len(row) for row in rows), default=0)
    for j in range(width):
        at = [i for i, row in enumerate(rows) if len(row) > j]
        col = [rows[i][j] for i in at]
        if not _presence_count(col, True, leaf, pred, least, most, args):
            return False
        for k, i in enumerate(at):
            rows[i][j] = col[k]
    return True


def _presence_kinds(rows: list, flat: bool, leaf: dict, least: int) -> bool:
    """At least ``least`` (two) different values: where all are equal, one item at random
    becomes another value of the domain."""
    items = rows if flat else [x for row in rows for x in row]
    if len(set(items)) >= least:
        return True
    if least != 2 or len(items) < 2:
        return False
    x = _presence_value(leaf, ["!=", items[0]], [], True)
    if x is None:
        return False
    i = random.randrange(len(items))
    if flat:
        rows[i] = x
    else:
        for row in rows:
            if i < len(row):
                row[i] = x
                break
            i -= len(row)
    return True


def _presence_strings(kind: str, mine: object, other: list, leaf: dict) -> object:
    """``absent``: the string ``mine`` drawn again (its length kept) while ``other`` holds it;
    ``common``: where the lists share no string, one item of ``mine`` at random becomes one of
    ``other``'s. None when there is no room."""
    if kind == "absent":
        taken = set(other)
        tries = 0
        while mine in taken:
            tries += 1
            if tries > 200:
                return None
            mine = "".join(random.choice(leaf["alphabet"]) for _ in range(len(mine)))
        return mine
    if set(mine) & set(other):
        return mine
    if not mine or not other:
        return None
    got = list(mine)
    got[random.randrange(len(got))] = random.choice(other)
    return got


def _presence_at(rows: list, flat: bool, leaf: dict, where: list, pred: list, args: list) -> bool:
    """The item at ``where`` (one index per level) meets ``pred``: set when it does not."""
    idx = []
    for w in where:
        if w[0] == "i":
            idx.append(w[1])
        elif w[0] == "arg":
            idx.append(args[w[1]])
        else:
            src = args[w[1]]
            if not isinstance(src, list) or len(src) <= w[2]:
                return False
            idx.append(src[w[2]])
    if flat != (len(idx) == 1) or not all(isinstance(i, int) for i in idx):
        return False
    if not -len(rows) <= idx[0] < len(rows):
        return False
    if flat:
        x = rows[idx[0]]
    else:
        row = rows[idx[0]]
        if not -len(row) <= idx[1] < len(row):
            return False
        x = row[idx[1]]
    if _presence_meets(x, pred, args):
        return True
    x = _presence_value(leaf, pred, args, True)
    if x is None:
        return False
    if flat:
        rows[idx[0]] = x
    else:
        rows[idx[0]][idx[1]] = x
    return True


PRESENCE_RUNTIME = (
    _presence,
    _presence_meets,
    _presence_value,
    _presence_count,
    _presence_each,
    _presence_kinds,
    _presence_strings,
    _presence_at,
)
