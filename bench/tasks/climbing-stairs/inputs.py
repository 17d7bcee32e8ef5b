import random
from typing import Any


def make_inputs(rng: random.Random) -> list[list[Any]]:
    return [[20], [35], [45]]  # LeetCode's constraint is n <= 45: microsecond calls
