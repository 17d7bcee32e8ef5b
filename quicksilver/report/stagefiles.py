"""What a build's stage folders say beyond the funnel's counts: which tasks each reason dropped,
by name, and where the time of the sharded stages went, per task.

Read from ``<out_dir>/stages/<stage>/`` as the runner writes it (:mod:`quicksilver.pipeline.
files`): a stage's records (``records.jsonl``; a sharded stage ``<shard>.jsonl``), its rejects
(``rejects.jsonl``, ``<shard>.rejects.jsonl``: one row per dropped task, solution or other record,
each with its ``reason`` and what it is, ``dropped``: ``task``, ``solution`` or ``input``) and
its completion
manifests (``_SUCCESS.json``, ``_SUCCESS.<shard>.json``) with the seconds it took.

A record's ``task`` and ``solutions``, all the report reads of it, are never written as
references to another stage's file (:data:`quicksilver.pipeline.refs.REFERABLE`), so the records
are read as they are: nothing to put back, and a file whose references no longer resolve (left
from an earlier run) still shows its shard's time.

No stage records how long each task took: a sharded stage records one wall time per shard of
``runner.shard_size`` tasks. A task's share of its shard is the shard's seconds split in
proportion to the work its record says it cost in that stage (:func:`record_work`: the measured
passes of the profiling stages, the answers' CPU seconds of the test-case stages) when every task
of the shard says it, else evenly. The split is an estimate, and the report says so; the shards'
own seconds are measured.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def _stream(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a JSONL file one at a time (a torn line is skipped: the report is a view)."""
    if not path.is_file():
        return
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                yield record


# --- dropped records, by name --------------------------------------------------------------------


@dataclass
class DroppedByName:
    """What one stage dropped for one reason: the tasks by name, and per task the solutions and
    inputs dropped on their own."""

    stage: str
    reason: str
    tasks: list[str] = field(default_factory=list)
    solutions: dict[str, int] = field(default_factory=dict)
    """Per task slug: solutions dropped on their own (not with a dropped task)."""
    other: dict[str, int] = field(default_factory=dict)
    """Per task slug (``?`` when the record names none): inputs dropped."""


def _reject_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*rejects.jsonl"))


def dropped_by_name(root: Path, stages: Sequence[str]) -> list[DroppedByName]:
    """Per stage (in ``stages``' order) and reason, what its rejects files name."""
    out: list[DroppedByName] = []
    for stage in stages:
        groups: dict[str, DroppedByName] = {}
        for path in _reject_files(root / "stages" / stage):
            for r in _stream(path):
                g = groups.setdefault(str(r.get("reason")), DroppedByName(stage, str(r["reason"])))
                slug = str(r.get("slug") or "?")
                if r.get("dropped") == "task":
                    if slug not in g.tasks:
                        g.tasks.append(slug)
                elif r.get("dropped") == "solution":
                    g.solutions[slug] = g.solutions.get(slug, 0) + 1
                else:
                    g.other[slug] = g.other.get(slug, 0) + 1
        for g in groups.values():  # a dropped task's solutions went with it: not listed twice
            g.solutions = {s: n for s, n in g.solutions.items() if s not in g.tasks}
            g.tasks.sort()
        out += [groups[k] for k in sorted(groups)]
    return out


# --- where the time went -------------------------------------------------------------------------


def record_work(record: Mapping[str, Any]) -> float:
    """The work a stage's record says its task cost, in one unit per stage (0: it says none):
    the profiling stages' measured passes (Mercury ``runtime``, DPE ``cost``: cost x rounds),
    else the CPU seconds of the solutions' answers on the test cases (testcases, uniqueness)."""
    sols = [s for s in record.get("solutions") or [] if isinstance(s, Mapping)]
    for key, value in (("runtime", "runtime"), ("cost", "cost")):
        measured = [s[key] for s in sols if isinstance(s.get(key), Mapping)]
        if measured:
            return sum(
                float(m.get(value) or 0.0) * max(1, int(m.get("rounds") or 1)) for m in measured
            )
    return sum(
        float(a.get("cpu") or 0.0)
        for s in sols
        for a in s.get("answers") or []
        if isinstance(a, Mapping)
    )


@dataclass
class ShardTime:
    """One shard of a sharded stage: its wall seconds and its tasks' shares of them."""

    stage: str
    shard: str
    seconds: float
    shares: dict[str, float]
    """Task slug -> seconds (an estimate: see the module docstring)."""
    weighted: bool
    """The shares follow the tasks' recorded work (False: split evenly)."""


def _shard_time(folder: Path, stage: str, shard: str, seconds: float) -> ShardTime:
    work: dict[str, float] = {}
    for r in _stream(folder / f"{shard}.jsonl"):
        slug = (r.get("task") or {}).get("slug")
        if isinstance(slug, str):
            work[slug] = record_work(r)
    dropped = {
        str(r["slug"])
        for r in _stream(folder / f"{shard}.rejects.jsonl")
        if r.get("dropped") == "task"
    }
    slugs = sorted(set(work) | dropped)
    weighted = bool(work) and not (dropped - set(work)) and all(w > 0 for w in work.values())
    total = sum(work.values()) if weighted else float(len(slugs))
    shares = {
        s: seconds * ((work[s] if weighted else 1.0) / total) if total else 0.0 for s in slugs
    }
    return ShardTime(stage, shard, seconds, shares, weighted)


def shard_times(root: Path, stages: Sequence[str]) -> list[ShardTime]:
    """Every finished shard of the sharded stages among ``stages``, in their order."""
    out: list[ShardTime] = []
    for stage in stages:
        folder = root / "stages" / stage
        for manifest in sorted(folder.glob("_SUCCESS.*.json")):
            shard = manifest.name[len("_SUCCESS.") : -len(".json")]
            try:
                info = json.loads(manifest.read_text())
                seconds = float(info.get("seconds") or 0.0)
            except (OSError, ValueError, AttributeError):
                continue
            out.append(_shard_time(folder, stage, shard, seconds))
    return out


@dataclass
class TaskTime:
    """One task's estimated seconds in each sharded stage."""

    task: str
    stages: dict[str, float]

    @property
    def total(self) -> float:
        return sum(self.stages.values())


def task_times(shards: Sequence[ShardTime]) -> list[TaskTime]:
    """Per task, its shares of the shards it was in, the most time first."""
    times: dict[str, dict[str, float]] = {}
    for sh in shards:
        for slug, seconds in sh.shares.items():
            per = times.setdefault(slug, {})
            per[sh.stage] = per.get(sh.stage, 0.0) + seconds
    out = [TaskTime(slug, per) for slug, per in times.items()]
    return sorted(out, key=lambda t: (-t.total, t.task))
