"""Stage 3, filters: each says why (a reason category and a detail naming the task).

- ``paid-only``: the question is paid-only (its statement is not public);
- ``unsupported-type``: metaData names a type Mercury's rows cannot carry (only builtins,
  TreeNode and ListNode are supported), a design problem, or no metaData at all; for a
  function-style task (HumanEval), the types its example calls leave uninferable (the load
  stage's ``signature_error``: a dict argument, a mix of types, no example call);
- ``missing-field``: no statement or no Python 3 starter code, or a difficulty that is not a
  rating (a task without one is kept: difficulty is optional, the splits balance what there is);
- ``min-solutions``: fewer than the minimum number of solutions (after dedup; applied again after
  the uniqueness and profiling stages, :func:`~quicksilver.pipeline.stage.enough_solutions`).

Each filter returns keep or drop-with-reason; a dropped task takes its solutions with it, and
both go to the rejects.
"""

from __future__ import annotations

import logging

from quicksilver.pipeline.records import TaskRecord
from quicksilver.pipeline.stage import (
    KEEP,
    NEEDS_SOLUTIONS,
    Context,
    Drop,
    Keep,
    Stage,
    enough_solutions,
    keep_or_drop,
)
from quicksilver.sources.convert import UnsupportedSignature, parse_signature

log = logging.getLogger(__name__)


def task_problem(record: TaskRecord) -> Drop | Keep:
    """A filter: drop a task that cannot be in a Mercury dataset, saying why."""
    task = record.task
    q = task.question
    slug = task.slug
    if q.get("isPaidOnly"):
        return Drop("paid-only", f"{slug}: a paid-only question")
    if task.signature_error:
        return Drop("unsupported-type", f"{slug}: {task.signature_error}")
    if not task.meta:
        return Drop("unsupported-type", f"{slug}: no metaData (not a LeetCode-style method)")
    try:
        parse_signature(task.meta)
    except UnsupportedSignature as exc:
        return Drop("unsupported-type", f"{slug}: {exc}")
    if not q.get("content"):
        return Drop("missing-field", f"{slug}: no statement (content is empty)")
    if q.get("difficulty") not in ("Easy", "Medium", "Hard", None):
        return Drop("missing-field", f"{slug}: difficulty {q.get('difficulty')!r} is not a rating")
    if not task.prompt:
        return Drop("missing-field", f"{slug}: no Python 3 starter code")
    return KEEP


def filters(ctx: Context, records: list[TaskRecord], *, min_solutions: int) -> list[TaskRecord]:
    """The tasks every filter keeps: first what the task is, then how many solutions it has."""
    usable = keep_or_drop(ctx, records, task_problem)
    kept = keep_or_drop(ctx, usable, enough_solutions(min_solutions, when="after dedup"))
    short = len(usable) - len(kept)
    if short:
        text = (
            f"{short} of {len(usable)} task(s) have fewer than {min_solutions} solutions and are "
            f"dropped (min-solutions); for more solutions per task, {NEEDS_SOLUTIONS}"
        )
        ctx.note(text)
        log.warning("filters: %s", text)
    return kept


FILTERS = Stage("filters", logic=filters, reads=("filters.min_solutions",), needs=("solutions",))
