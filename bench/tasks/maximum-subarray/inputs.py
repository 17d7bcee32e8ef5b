import random
from typing import Any


def make_inputs(rng: random.Random) -> list[list[Any]]:
    return [[[rng.randint(-(10**4), 10**4) for _ in range(n)]] for n in (300, 700, 1000)]
