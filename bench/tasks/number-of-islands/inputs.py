import random
from typing import Any


def make_inputs(rng: random.Random) -> list[list[Any]]:
    # Densities well below percolation (0.59): islands stay small, so the recursive DFS stays
    # far from Python's recursion limit of 1000.
    shapes = ((100, 100, 0.35), (50, 200, 0.45), (100, 100, 0.50))
    return [
        [[["1" if rng.random() < p else "0" for _ in range(c)] for _ in range(r)]]
        for r, c, p in shapes
    ]
