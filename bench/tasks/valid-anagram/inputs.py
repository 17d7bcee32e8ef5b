import random
from typing import Any


def make_inputs(rng: random.Random) -> list[list[Any]]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    cases: list[list[Any]] = []
    for n, same in ((10_000, True), (50_000, True), (50_000, False)):
        s = "".join(rng.choice(letters) for _ in range(n))
        chars = list(s)
        rng.shuffle(chars)
        if not same:  # one letter changed: only a full count tells
            k = rng.randrange(n)
            chars[k] = "a" if chars[k] != "a" else "b"
        cases.append([s, "".join(chars)])
    return cases
