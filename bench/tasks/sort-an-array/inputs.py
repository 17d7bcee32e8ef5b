import random
from typing import Any


def make_inputs(rng: random.Random) -> list[list[Any]]:
    return [
        [[rng.randint(-(5 * 10**4), 5 * 10**4) for _ in range(n)]] for n in (1000, 5000, 10_000)
    ]
