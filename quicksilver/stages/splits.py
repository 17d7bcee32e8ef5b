"""Stage 8, splits: a difficulty-balanced eval split and a train split.

The eval split takes ``eval_size // 3`` tasks of each difficulty (the remainder goes to Easy,
then Medium), drawn with a seeded random generator from the tasks sorted by slug, so the same
tasks and seed give the same split on any machine. Mercury's eval had 256 tasks, about a third
per difficulty. When a difficulty has fewer tasks than its share, all of them go to eval and the
shortfall is recorded (the split is not topped up from other difficulties, which would unbalance
it). Everything else is train. Difficulty is optional: tasks without a rating (HumanEval) form
a group of their own, ``unrated``, and eval balances over the groups present (a build of unrated
tasks only draws its whole eval from them; a mixed one a quarter from each of the four groups).

A split never comes out empty: publishing refuses a split without rows, so an empty one is left
out of the result, with a note saying why (see
:func:`~quicksilver.publishing.writer.drop_empty_splits`). With fewer tasks than
``eval_size`` every task goes to eval and the dataset has no train split; eval is not shrunk to
give train a row, because eval is the benchmark and its draw does not depend on how many tasks
are left over for training. With no task at all there is no split, and nothing to publish.

**A date window** (``splits.eval_after``): eval is drawn only from the tasks released strictly
after that date, with the same difficulty balance when ``eval_size`` is a number, or all of them
when it is null. Undated tasks never go to such an eval (a task whose date is unknown may be older
than a model's cutoff), and neither do tasks released on or before the date: they are train, as
are window tasks the balanced draw did not take. The notes say how many of each there were.
"""

from __future__ import annotations

import datetime as dt
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
UNRATED = "unrated"
"""The group of tasks whose source has no difficulty rating (HumanEval)."""


def difficulty_groups(records: list[dict[str, Any]]) -> tuple[str, ...]:
    """The groups eval is balanced over: LeetCode's three difficulties when any task is rated,
    and ``unrated`` when any is not (so a HumanEval build draws its whole eval from it)."""
    rated = any(r.get("difficulty") for r in records)
    unrated = any(not r.get("difficulty") for r in records)
    return (DIFFICULTIES if rated or not unrated else ()) + ((UNRATED,) if unrated else ())


def in_window(release_date: str | None, after: dt.date) -> bool:
    """Whether a task released on ``release_date`` (YYYY-MM-DD, None: undated) is in the window
    of tasks released strictly after ``after``; an undated task never is."""
    return release_date is not None and dt.date.fromisoformat(release_date) > after


def split_tasks(
    records: list[dict[str, Any]],
    *,
    eval_size: int | None,
    seed: int,
    eval_after: dt.date | None = None,
) -> tuple[dict[str, list[str]], list[str]]:
    """({"train": [slug...], "eval": [slug...]}, notes) from records with slug and difficulty
    (and ``release_date`` when ``eval_after`` sets a date window).

    A split that would be empty is left out of the result (one note each); with no records the
    result has no split at all.
    """
    notes: list[str] = []
    pool_records = records
    if eval_after is not None:
        pool_records = [r for r in records if in_window(r.get("release_date"), eval_after)]
        undated = sum(r.get("release_date") is None for r in records)
        notes.append(
            f"eval window: tasks released after {eval_after.isoformat()}: {len(pool_records)} "
            f"of {len(records)}; {len(records) - len(pool_records) - undated} released on or "
            f"before it and {undated} undated go to train"
        )
    groups = difficulty_groups(records)
    if eval_size is None:  # the whole window, unbalanced
        eval_slugs = sorted(r["slug"] for r in pool_records)
        quota = {d: 0 for d in groups}
    else:
        by_diff: dict[str, list[str]] = {d: [] for d in groups}
        for r in pool_records:
            by_diff.setdefault(r["difficulty"] or UNRATED, []).append(r["slug"])
        quota = {d: eval_size // len(groups) for d in groups}
        for d in groups[: eval_size % len(groups)]:
            quota[d] += 1
        rng = random.Random(seed)
        eval_slugs = []
        for d in groups:
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
    drawn = [d for d in groups if quota[d]]
    window = f" released after {eval_after.isoformat()}" if eval_after is not None else ""
    why = {
        "train": f"all {n} task(s) built went to eval, which wanted {eval_size} (splits.eval_size)",
        "eval": f"no task built was released after {eval_after.isoformat()} (splits.eval_after)"
        if eval_size is None and eval_after is not None
        else "splits.eval_size is 0"
        if not drawn
        else f"splits.eval_size {eval_size} draws "
        + ", ".join(f"{quota[d]} {d}" for d in drawn)
        + f"; none of the {n} task(s) built{window} is {' or '.join(drawn)}",
    }
    kept, empty_notes = drop_empty_splits({"train": train, "eval": eval_slugs}, why)
    return kept, notes + empty_notes


def splits(ctx: Context, records: list[TaskRecord], *, splits: SplitSection) -> list[TaskRecord]:
    """Each task with its split, in the splits' order (train, then eval; within a split as
    :func:`split_tasks` lists them); the split lists also go to ``splits.json``."""
    rows = [
        {"slug": r.slug, "difficulty": r.task.difficulty, "release_date": r.task.release_date}
        for r in records
    ]
    chosen, notes = split_tasks(
        rows, eval_size=splits.eval_size, seed=splits.seed, eval_after=splits.eval_after
    )
    for note in notes:
        ctx.note(note)
    write_text_atomic(
        ctx.path("splits.json"),
        json.dumps(
            {
                "splits": chosen,
                "notes": notes,
                "seed": splits.seed,
                "eval_after": splits.eval_after.isoformat() if splits.eval_after else None,
            },
            indent=1,
        )
        + "\n",
    )
    by_slug = {r.slug: r for r in records}
    return [
        by_slug[slug].model_copy(update={"split": name})
        for name, slugs in chosen.items()
        for slug in slugs
    ]


SPLITS = Stage("splits", logic=splits, reads=("splits",), writes=("splits.json",), fills=("split",))
