"""Samples to tasks: which dataset row a sample names, the release window (``--released-after``)
and the training views' overlap with it."""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from quicksilver.rows import TaskRow
from quicksilver.samples import Sample, class_solution, function_solution, slug_form
from quicksilver.scoring.model import ReleaseWindow
from quicksilver.selfcontained import add_imports

log = logging.getLogger(__name__)


def in_training_views(
    records: Sequence[TaskRow], views: Mapping[str, set[str]], after: dt.date
) -> int:
    """How many of ``records`` (a release window's tasks) the training views hold; a warning in
    one line when any does (a model tuned on the views would be scored on tasks it saw)."""
    held = set().union(*views.values()) if views else set()
    inside = sorted(r.slug_name for r in records if r.slug_name in held)
    if inside:
        log.warning(
            "--released-after %s: %d of the %d task(s) in the window are in the dataset's "
            "training views (%s), which a model tuned on them was trained on: %s",
            after.isoformat(),
            len(inside),
            len(records),
            ", ".join(sorted(views)),
            ", ".join(inside[:10]) + (", ..." if len(inside) > 10 else ""),
        )
    return len(inside)


def release_window(
    records: Sequence[TaskRow], after: dt.date
) -> tuple[list[TaskRow], list[TaskRow], ReleaseWindow]:
    """(the records released strictly after ``after``, the others, the counts)."""
    kept = [r for r in records if r.released is not None and r.released > after]
    left = [r for r in records if r.released is None or r.released <= after]
    undated = sum(r.released is None for r in records)
    window = ReleaseWindow(after, len(kept), len(left) - undated, undated)
    return kept, left, window


@dataclass
class Matched:
    """Samples matched to the dataset's tasks."""

    rows: dict[str, tuple[TaskRow, list[Sample]]]
    """task_key: (its row, its samples, numbered afresh from 0), in the samples' order."""
    missing: list[str]
    """Names of sample tasks the dataset lacks."""
    bodies: list[str]
    """LeetCode samples (``task#index``) that are only a method's body."""
    window: ReleaseWindow | None
    """``released_after``'s window, with the samples it left out counted."""


def match_samples(
    records: Sequence[TaskRow],
    samples: Mapping[str, list[Sample]],
    *,
    released_after: dt.date | None = None,
    trained_on: Mapping[str, set[str]] | None = None,
    complete_from_prompt: bool = False,
) -> Matched:
    """``samples`` (keyed by task_id, slug_name, id or position ``#i``) to ``records``' rows: see
    :func:`quicksilver.scoring.score`. Raises ValueError when no task is in the window."""
    # bigcode's generations.json names no task: its i-th list is the split's i-th row
    by_position = {f"#{i}": rec for i, rec in enumerate(records)}
    window: ReleaseWindow | None = None
    left_out: set[str] = set()
    if released_after is not None:
        records, left_out, window = _in_window(records, by_position, released_after, trained_on)
    index: dict[str, TaskRow] = {}
    for rec in records:
        for name in _names(rec):
            index.setdefault(name, rec)
    wanted: dict[str, tuple[TaskRow, list[Sample]]] = {}
    missing: list[str] = []
    bodies: list[str] = []
    outside = 0
    for name, group in samples.items():
        found = index.get(name) or index.get(slug_form(name))  # HumanEval/0: humaneval-0
        if found is None and name in by_position and name not in left_out:
            found = by_position[name]
        if found is None and name in left_out:
            outside += len(group)
            continue
        if found is None:
            missing.append(name)
            continue
        group = _completed(found, group, bodies, complete_from_prompt)
        wanted.setdefault(found.task_key, (found, []))[1].extend(group)
    # One task may be named by its slug in some samples and its id in others: number its
    # samples afresh so that every sample keeps its own identity.
    for key, (_rec, group) in wanted.items():
        group.sort(key=lambda x: x.position)
        group[:] = [dataclasses.replace(s, task=key, index=i) for i, s in enumerate(group)]
    if missing:
        log.warning(
            "%d sample task(s) not in the dataset: %s", len(missing), ", ".join(missing[:10])
        )
    if bodies:
        log.warning(
            "%d LeetCode sample(s) hold only a method's body (%s): %s",
            len(bodies),
            ", ".join(bodies[:5]),
            "completed from the task's prompt"
            if complete_from_prompt
            else "judged as they are (they fail); --complete-from-prompt puts them under the "
            "task's prompt, as evalplus-style harnesses do",
        )
    if window is not None:
        window = dataclasses.replace(window, samples_left_out=outside)
    return Matched(wanted, missing, bodies, window)


def _names(rec: TaskRow) -> set[str]:
    """Every name a sample may give ``rec`` by."""
    return {str(name) for name in {rec.task_key, rec.slug_name, rec.id, rec.task_id or ""} - {""}}


def _in_window(
    records: Sequence[TaskRow],
    by_position: Mapping[str, TaskRow],
    after: dt.date,
    trained_on: Mapping[str, set[str]] | None,
) -> tuple[list[TaskRow], set[str], ReleaseWindow]:
    """(the records released after ``after``, the names of the others, the window)."""
    kept, others, window = release_window(records, after)
    left_out = {name for rec in others for name in _names(rec)}
    left_out |= {name for name, rec in by_position.items() if rec in others}
    if not kept:
        raise ValueError(
            f"no task of the dataset was released after {after.isoformat()} "
            f"({window.earlier} released on or before it, {window.undated} undated)"
        )
    if trained_on:
        window = dataclasses.replace(
            window, in_training_views=in_training_views(kept, trained_on, after)
        )
    return kept, left_out, window


def _completed(
    rec: TaskRow, group: list[Sample], bodies: list[str], complete_from_prompt: bool
) -> list[Sample]:
    """``group`` with a function-style task's bodies put under its prompt (always), and a
    LeetCode task's method bodies too with ``complete_from_prompt``; the latter are listed in
    ``bodies`` either way."""
    if rec.task_kind == "function":  # a completion may be the body after the prompt
        return [
            dataclasses.replace(s, code=function_solution(rec.prompt, rec.entry_point, s.code))
            for s in group
        ]
    if rec.prompt:  # a LeetCode completion may be only the method's body
        completed = [class_solution(rec.prompt, s.code) for s in group]
        for s, code in zip(group, completed, strict=True):
            if code != s.code:
                bodies.append(f"{rec.task_key}#{s.index}")
        if complete_from_prompt:
            group = [
                dataclasses.replace(s, code=code) for s, code in zip(group, completed, strict=True)
            ]
    if rec.task_kind != "function":
        group = [_with_imports(s) for s in group]
    return group


def _with_imports(sample: Sample) -> Sample:
    """A LeetCode sample with the import lines of the names LeetCode's judge provides unimported
    (``pairwise``, ``gcd``, ``Counter``; quicksilver/selfcontained.py), as the load stage gives
    the references: judged as LeetCode judges it. Code that does not parse is left as it is (the
    judge reports its error)."""
    try:
        code, added = add_imports(sample.code)
    except (SyntaxError, ValueError):
        return sample
    if not added:
        return sample
    return dataclasses.replace(sample, code=code, extra={**sample.extra, "imports_added": added})
