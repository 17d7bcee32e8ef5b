import random
from typing import Any


def make_inputs(rng: random.Random) -> list[list[Any]]:
    cases: list[list[Any]] = []
    for n_distinct, k in ((300, 1), (1000, 10), (2000, 50)):
        values = rng.sample(range(-(10**4), 10**4), n_distinct)
        # the top k counts are distinct and above every other count: a unique answer
        counts = [60 + 2 * (k - r) for r in range(k)] + [
            rng.randint(1, 40) for _ in range(n_distinct - k)
        ]
        nums = [v for v, c in zip(values, counts, strict=True) for _ in range(c)]
        rng.shuffle(nums)
        cases.append([nums, k])
    return cases
