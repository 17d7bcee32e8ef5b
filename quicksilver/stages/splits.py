"""Stage 8, splits: a difficulty-balanced eval split and a train split.

The eval split takes ``eval_size // 3`` tasks of each difficulty (the remainder goes to Easy,
then Medium), drawn with a seeded random generator from the tasks sorted by slug, so the same
tasks and seed give the same split on any machine. Mercury's eval had 256 tasks, about a third
per difficulty. When a difficulty has fewer tasks than its share, all of them go to eval and the
shortfall is recorded (the split is not topped up from other difficulties, which would unbalance
it). Everything else is train.
"""

from __future__ import annotations

import random
from typing import Any

DIFFICULTIES = ("Easy", "Medium", "Hard")


def split_tasks(
    records: list[dict[str, Any]], *, eval_size: int, seed: int
) -> tuple[dict[str, list[str]], list[str]]:
    """({"train": [slug...], "eval": [slug...]}, notes) from records with slug and difficulty."""
    by_diff: dict[str, list[str]] = {d: [] for d in DIFFICULTIES}
    for r in records:
        by_diff.setdefault(r["difficulty"], []).append(r["slug"])
    quota = {d: eval_size // 3 for d in DIFFICULTIES}
    for d in DIFFICULTIES[: eval_size % 3]:
        quota[d] += 1
    rng = random.Random(seed)
    eval_slugs: list[str] = []
    notes: list[str] = []
    for d in DIFFICULTIES:
        pool = sorted(by_diff.get(d, []))
        take = min(quota[d], len(pool))
        if take < quota[d]:
            notes.append(f"eval: {take} {d} task(s) of the {quota[d]} wanted (all there are)")
        eval_slugs.extend(sorted(rng.sample(pool, take)))
    chosen = set(eval_slugs)
    train = sorted(r["slug"] for r in records if r["slug"] not in chosen)
    return {"train": train, "eval": eval_slugs}, notes
