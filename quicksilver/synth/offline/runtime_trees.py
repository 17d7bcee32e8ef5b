"""The runtime's tree shapes stated in words (tree_shapes.py): copied into every generated
file with the rest of the runtime, so it uses only builtins."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _shaped_tree(values: list, shape: str, bst: bool) -> list:
    """A ``"complete"`` tree of ``values`` (LeetCode's level order with no gap: node i's
    children are 2i + 1 and 2i + 2), or a ``"perfect"`` one of the first 2^k - 1 of them (the
    largest such count not above theirs). ``bst``: the values placed by an in-order walk of
    that shape, so it is a search tree."""
    n = len(values)
    if shape == "perfect":
        n = (1 << ((n + 1).bit_length() - 1)) - 1
    values = list(values[:n])
    if bst:
        ordered = sorted(values)
        stack: list = []
        node, k = 0, 0
        while stack or node < n:
            while node < n:
                stack.append(node)
                node = 2 * node + 1
            node = stack.pop()
            values[node] = ordered[k]
            k += 1
            node = 2 * node + 2
    return values


TREES_RUNTIME: tuple[Callable[..., Any], ...] = (_shaped_tree,)
