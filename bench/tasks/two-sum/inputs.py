import random
from typing import Any


def make_inputs(rng: random.Random) -> list[list[Any]]:
    cases: list[list[Any]] = []
    # (n, where the pair sits): the brute force's cost depends on the first index.
    for n, lo, hi in ((1000, 0.9, 1.0), (2000, 0.4, 0.6), (5000, 0.0, 0.05)):
        while True:
            nums = rng.sample(range(-(10**6), 10**6), n)
            i = rng.randrange(int(lo * (n - 1)), max(int(hi * (n - 1)), int(lo * (n - 1)) + 1))
            j = rng.randrange(i + 1, n)
            target = nums[i] + nums[j]
            values = set(nums)
            pairs = sum(1 for x in nums if target - x in values and target - x != x) // 2
            if pairs == 1:
                cases.append([nums, target])
                break
    return cases
