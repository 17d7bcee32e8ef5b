"""Stage 3, filters: each says why (a reason category and a detail naming the task).

- ``paid-only``: the question is paid-only (its statement is not public);
- ``unsupported-type``: metaData names a type Mercury's rows cannot carry (only builtins,
  TreeNode and ListNode are supported), a design problem, or no metaData at all;
- ``missing-field``: no difficulty, no statement or no Python 3 starter code;
- ``min-solutions``: fewer than the minimum number of solutions (after dedup; re-applied after
  the uniqueness and profiling stages, see :func:`min_solutions`).

A dropped task takes its solutions with it; both are written to the rejects.
"""

from __future__ import annotations

from typing import Any

from quicksilver.sources.convert import UnsupportedSignature, parse_signature
from quicksilver.stages.base import StageCounts, group_by_slug, reject


def task_problem(task: dict[str, Any]) -> tuple[str, str] | None:
    """(reason, detail) when the task cannot be in a Mercury dataset, else None."""
    q = task["question"]
    slug = task["slug"]
    if q.get("isPaidOnly"):
        return "paid-only", f"{slug}: a paid-only question"
    if not q.get("metaData"):
        return "unsupported-type", f"{slug}: no metaData (not a LeetCode-style method)"
    try:
        parse_signature(q["metaData"])
    except UnsupportedSignature as exc:
        return "unsupported-type", f"{slug}: {exc}"
    if not q.get("content"):
        return "missing-field", f"{slug}: no statement (content is empty)"
    if q.get("difficulty") not in ("Easy", "Medium", "Hard"):
        return "missing-field", f"{slug}: no difficulty rating"
    if not task.get("prompt"):
        return "missing-field", f"{slug}: no Python 3 starter code"
    return None


def min_solutions(
    tasks: list[dict[str, Any]],
    solutions: list[dict[str, Any]],
    minimum: int,
    counts: StageCounts,
    rejects: list[dict[str, Any]],
    *,
    when: str,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Drop tasks with fewer than ``minimum`` solutions (``when`` says after which stage)."""
    by_slug = group_by_slug(solutions)
    kept_tasks, kept_solutions = [], []
    for task in tasks:
        sols = by_slug.get(task["slug"], [])
        if len(sols) < minimum:
            counts.drops["min-solutions"] += 1
            detail = f"{task['slug']}: {len(sols)} solution(s) {when}, fewer than {minimum}"
            rejects.append(reject({"slug": task["slug"]}, "min-solutions", detail))
            rejects.extend(reject(s, "min-solutions", detail) for s in sols)
            continue
        kept_tasks.append(task)
        kept_solutions.extend(sols)
    return kept_tasks, kept_solutions


def filter_stage(
    tasks: list[dict[str, Any]], solutions: list[dict[str, Any]], *, min_solutions_: int
) -> dict[str, Any]:
    counts = StageCounts("filters", tasks_in=len(tasks), solutions_in=len(solutions))
    rejects: list[dict[str, Any]] = []
    by_slug = group_by_slug(solutions)
    ok_tasks = []
    for task in tasks:
        problem = task_problem(task)
        if problem is None:
            ok_tasks.append(task)
            continue
        reason, detail = problem
        counts.drops[reason] += 1
        rejects.append(reject({"slug": task["slug"]}, reason, detail))
        rejects.extend(reject(s, reason, detail) for s in by_slug.get(task["slug"], []))
    ok_solutions = [s for t in ok_tasks for s in by_slug.get(t["slug"], [])]
    kept_tasks, kept_solutions = min_solutions(
        ok_tasks, ok_solutions, min_solutions_, counts, rejects, when="after dedup"
    )
    counts.tasks_out, counts.solutions_out = len(kept_tasks), len(kept_solutions)
    return {"tasks": kept_tasks, "solutions": kept_solutions, "rejects": rejects, "counts": counts}
