"""Parts of the emitted runtime (:mod:`.runtime`) for :mod:`.quantified`: a tree given by its
parents. Copied into every generated generator with the rest of the runtime, so they use only
builtin types and ``random``; they run only for a spec with the key ``parent_tree``, so a spec
without it draws exactly what it drew before. (``head``, a range that holds from an index on,
needs no code of its own: the items before it are fixed positions, set last by ``_pin``.)
"""

from __future__ import annotations

import random


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


QUANT_RUNTIME = (_parent_tree,)
