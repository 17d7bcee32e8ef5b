"""Parts of the emitted runtime (:mod:`.runtime`) for the rules on neighbours of
:mod:`.neighbours`. They are copied into every generated generator with the rest of the
runtime, so they use only builtin types, and draw nothing at random: a spec without their key
draws exactly what it drew before.
"""

from __future__ import annotations


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


NEIGHBOURS_RUNTIME = (_no_adjacent,)
