"""Checks a tree's shape stated in words (``"tree_shape"``, tree_shapes.py) with code of its
own: LeetCode's level-order list of a complete tree holds no ``None`` (a gap before the last
node is a missing child where a complete tree has one), and a perfect tree is a complete tree
of 2^k - 1 nodes."""

from __future__ import annotations

from typing import Any


def check_tree_shape(p: dict[str, Any], arg: list[Any]) -> list[str]:
    """What ``arg`` (a level-order list, already checked to be a tree) breaks of its shape."""
    shape, name = p.get("tree_shape"), p["name"]
    if shape is None:
        return []
    nodes = [x for x in arg if x is not None]
    if len(nodes) != len(arg):
        return [f"{name} is not a {shape} tree: a missing child before its last node"]
    if shape == "perfect" and (len(nodes) + 1) & len(nodes):
        return [f"{name} is not a perfect tree: {len(nodes)} nodes, not 2^k - 1"]
    return []
