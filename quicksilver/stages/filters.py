"""Stage 3, filters: each says why (a reason category and a detail naming the task).

- ``paid-only``: the question is paid-only (its statement is not public);
- ``unsupported-type``: metaData names a type Mercury's rows cannot carry (only builtins,
  TreeNode and ListNode are supported), a design problem, or no metaData at all;
- ``missing-field``: no difficulty, no statement or no Python 3 starter code;
- ``min-solutions``: fewer than the minimum number of solutions (after dedup; applied again after
  the uniqueness and profiling stages, :func:`~quicksilver.pipeline.stage.enough_solutions`).

Each filter returns keep or drop-with-reason; a dropped task takes its solutions with it, and
both go to the rejects.
"""

from __future__ import annotations

from quicksilver.pipeline.records import TaskRecord
from quicksilver.pipeline.stage import (
    KEEP,
    Context,
    Drop,
    Keep,
    Stage,
    enough_solutions,
    keep_or_drop,
)
from quicksilver.sources.convert import UnsupportedSignature, parse_signature


def task_problem(record: TaskRecord) -> Drop | Keep:
    """A filter: drop a task that cannot be in a Mercury dataset, saying why."""
    task = record.task
    q = task.question
    slug = task.slug
    if q.get("isPaidOnly"):
        return Drop("paid-only", f"{slug}: a paid-only question")
    if not q.get("metaData"):
        return Drop("unsupported-type", f"{slug}: no metaData (not a LeetCode-style method)")
    try:
        parse_signature(q["metaData"])
    except UnsupportedSignature as exc:
        return Drop("unsupported-type", f"{slug}: {exc}")
    if not q.get("content"):
        return Drop("missing-field", f"{slug}: no statement (content is empty)")
    if q.get("difficulty") not in ("Easy", "Medium", "Hard"):
        return Drop("missing-field", f"{slug}: no difficulty rating")
    if not task.prompt:
        return Drop("missing-field", f"{slug}: no Python 3 starter code")
    return KEEP


def filters(ctx: Context, records: list[TaskRecord], *, min_solutions: int) -> list[TaskRecord]:
    """The tasks every filter keeps: first what the task is, then how many solutions it has."""
    usable = keep_or_drop(ctx, records, task_problem)
    return keep_or_drop(ctx, usable, enough_solutions(min_solutions, when="after dedup"))


FILTERS = Stage("filters", logic=filters, reads=("filters.min_solutions",))
