import random
from typing import Any


def make_inputs(rng: random.Random) -> list[list[Any]]:
    alphabets = (
        "abcde",
        "abcdefghijklmnopqrstuvwxyz",
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !?",
    )
    return [["".join(rng.choice(a) for _ in range(5000))] for a in alphabets]
