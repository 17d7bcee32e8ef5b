"""Stage 8, splits: a difficulty-balanced eval split and a train split.

The eval split takes ``eval_size // 3`` tasks of each difficulty (the remainder goes to Easy,
then Medium), drawn with a seeded random generator from the tasks sorted by slug, so the same
tasks and seed give the same split on any machine. Mercury's eval had 256 tasks, about a third
per difficulty. When a difficulty has fewer tasks than its share, all of them go to eval and the
shortfall is recorded (the split is not topped up from other difficulties, which would unbalance
it). Everything else is train.

A split never comes out empty: publishing refuses a split without rows, so an empty one is left
out of the result, with a note saying why (see
:func:`~quicksilver.publishing.writer.drop_empty_splits`). With fewer tasks than
``eval_size`` every task goes to eval and the dataset has no train split; eval is not shrunk to
give train a row, because eval is the benchmark and its draw does not depend on how many tasks
are left over for training. With no task at all there is no split, and nothing to publish.
"""

from __future__ import annotations

import json
import logging
import random
from typing import Any

from quicksilver.config import SplitSection
from quicksilver.fsutil import write_text_atomic
from quicksilver.pipeline.records import TaskRecord
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.publishing.writer import drop_empty_splits

log = logging.getLogger(__name__)

DIFFICULTIES = ("Easy", "Medium", "Hard")


def split_tasks(
    records: list[dict[str, Any]], *, eval_size: int, seed: int
) -> tuple[dict[str, list[str]], list[str]]:
    """({"train": [slug...], "eval": [slug...]}, notes) from records with slug and difficulty.

    A split that would be empty is left out of the result (one note each); with no records the
    result has no split at all.
    """
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
    n = len(records)
    if not records:
        note = "no task reached the splits stage: no split, and no dataset to publish"
        log.warning("splits: %s", note)
        return {}, [note]
    drawn = [d for d in DIFFICULTIES if quota[d]]
    why = {
        "train": f"all {n} task(s) built went to eval, which wanted {eval_size} (splits.eval_size)",
        "eval": "splits.eval_size is 0"
        if not drawn
        else f"splits.eval_size {eval_size} draws "
        + ", ".join(f"{quota[d]} {d}" for d in drawn)
        + f"; none of the {n} task(s) built is {' or '.join(drawn)}",
    }
    kept, empty_notes = drop_empty_splits({"train": train, "eval": eval_slugs}, why)
    return kept, notes + empty_notes


def splits(ctx: Context, records: list[TaskRecord], *, splits: SplitSection) -> list[TaskRecord]:
    """Each task with its split, in the splits' order (train, then eval; within a split as
    :func:`split_tasks` lists them); the split lists also go to ``splits.json``."""
    rows = [{"slug": r.slug, "difficulty": r.task.difficulty} for r in records]
    chosen, notes = split_tasks(rows, eval_size=splits.eval_size, seed=splits.seed)
    for note in notes:
        ctx.note(note)
    write_text_atomic(
        ctx.path("splits.json"),
        json.dumps({"splits": chosen, "notes": notes, "seed": splits.seed}, indent=1) + "\n",
    )
    by_slug = {r.slug: r for r in records}
    return [
        by_slug[slug].model_copy(update={"split": name})
        for name, slugs in chosen.items()
        for slug in slugs
    ]


SPLITS = Stage("splits", logic=splits, reads=("splits",), writes=("splits.json",))
