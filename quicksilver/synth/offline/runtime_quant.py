"""Parts of the emitted runtime (:mod:`.runtime`) for :mod:`.quantified`: a tree given by its
parents. Copied into every generated generator with the rest of the runtime, so they use only
builtin types and ``random``; they run only for a spec with the key ``parent_tree``, so a spec
without it draws exactly what it drew before. (``head``, a range that holds from an index on,
needs no code of its own: the items before it are fixed positions, set last by ``_pin``.)
"""

from __future__ import annotations

import random

from quicksilver.synth.offline.runtime_parts import _ends


def _parent_tree(rule: dict, row: list, path: bool) -> list:
    """``parent represents a valid tree``: item ``i`` becomes the parent of node ``i`` in a
    random tree rooted at node 0 (item 0 keeps its value: a fixed position sets it). The other
    nodes join in a random order, each below a random node already in the tree (one with a free
    child slot when ``rule["binary"]``), or below the one before it when ``path``; so the labels
    are random and a parent may have a larger index than its child."""
    order = list(range(1, len(row)))
    random.shuffle(order)
    placed = [0]
    slots = [0, 0]  # binary: each node twice, once per free child slot
    for node in order:
        if path:
            parent = placed[-1]
        elif rule.get("binary"):
            parent = slots.pop(random.randrange(len(slots)))
            slots += [node, node]
        else:
            parent = random.choice(placed)
        row[node] = parent
        placed.append(node)
    return row


def _chains(spec: dict, args: list, q: dict) -> bool:
    """``startTime[i] < endTime[i]`` and ``endTime[i] <= startTime[i + 1]`` (a list ``b`` with
    ``"chain": [a, op]``, the zip ``[a, b, within]``): the values of both lists, drawn in their
    shared range, sorted into one chain a[0], b[0], a[1], b[1], ...; each strict step (``<``)
    then goes one up: the sorted values are first scaled into the range less the number of
    strict steps (which keeps their order), then each is raised by the strict steps before it.
    False when the range is too small (the caller draws everything again)."""
    params = spec["params"]
    names = [p["name"] for p in params]
    for ib, p in enumerate(params):
        if "chain" not in p:
            continue
        a, op = p["chain"]
        ia = names.index(a)
        within = next(r[2] for r in spec.get("zips", ()) if r[0] == a and r[1] == p["name"])
        xs, ys = args[ia], args[ib]
        lo, hi = _ends(params[ia]["leaf"], q)
        steps = [within == "<" if j % 2 == 0 else op == "<" for j in range(2 * len(xs) - 1)]
        top = hi - sum(steps)
        if top < lo or len(xs) != len(ys):
            return False
        values = sorted(xs + ys)
        raised = 0
        for j, v in enumerate(values):
            v = lo + (v - lo) * (top - lo) // (hi - lo) if hi > lo else lo
            if j and steps[j - 1]:
                raised += 1
            (xs if j % 2 == 0 else ys)[j // 2] = v + raised
    return True


QUANT_RUNTIME = (_parent_tree, _chains)
