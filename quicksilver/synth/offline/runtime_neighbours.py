"""Parts of the emitted runtime (:mod:`.runtime`) for the rules on neighbours of
:mod:`.neighbours`. They are copied into every generated generator with the rest of the
runtime, so they use only builtin types and ``random``; they run only for a spec with their
key, so a spec without it draws exactly what it drew before.
"""

from __future__ import annotations

import random


def _no_adjacent(p: dict, row: list) -> list:
    """``There are no two adjacent flowers in flowerbed``: in a list of 0s and 1s, each value
    of ``p["no_adjacent"]`` right after the same value becomes the other one, left to right, so
    no two neighbours hold it (the list's value set is kept; a list of all 1s becomes 1, 0, 1,
    0, ..., the densest one the rule allows)."""
    (value,) = p["no_adjacent"]
    other = 1 - value
    for i in range(1, len(row)):
        if row[i] == value and row[i - 1] == value:
            row[i] = other
    return row


def _apart_cells(leaf: dict, grid: list) -> list:
    """``No two adjacent cells are equal``: row by row, a cell equal to the one above it or
    the one to its left is drawn again, uniformly over the grid's domain (one constant range
    or set of three values at least, so a value apart from both exists; the synthesizer checks
    it); the later cells are then checked against it in turn, so no two neighbours (up, down,
    left, right) are equal."""
    for i, row in enumerate(grid):
        for j in range(len(row)):
            tries = 0
            while (j and row[j] == row[j - 1]) or (
                i and j < len(grid[i - 1]) and row[j] == grid[i - 1][j]
            ):
                tries += 1
                if tries > 200:
                    raise RuntimeError(f"no value for [{i}][{j}] apart from its neighbours")
                if "set" in leaf:
                    row[j] = random.choice(leaf["set"])
                else:
                    row[j] = random.randint(leaf["lo"][0], leaf["hi"][0])
                    while row[j] in leaf.get("ne", ()):
                        row[j] = random.randint(leaf["lo"][0], leaf["hi"][0])
    return grid


NEIGHBOURS_RUNTIME = (_no_adjacent, _apart_cells)
