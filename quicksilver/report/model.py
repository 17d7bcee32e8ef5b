"""What a build report is made of: the published rows read into one view per task, and what the
stage folders add (dropped tasks by name, time per shard and task: :mod:`.stagefiles`)."""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quicksilver.funnel import drop_totals
from quicksilver.report.stagefiles import (
    DroppedByName,
    ShardTime,
    TaskTime,
    dropped_by_name,
    shard_times,
    task_times,
)

REPORT_NAME = "report.html"
"""The build report's file name, beside the dataset's README.md."""

_SPLIT_ORDER = {"train": 0, "eval": 1, "test": 2}


# --- what the rows say ---------------------------------------------------------------------------


@dataclass
class Point:
    """One measured solution of a task."""

    hash: int
    cost: float
    reference: bool
    """A published reference: every solution of a Mercury row, a cluster's reference in DPE."""
    ci_low: float | None = None
    ci_high: float | None = None
    rounds: int | None = None
    converged: bool | None = None
    flags: list[str] = field(default_factory=list)
    cluster: int | None = None
    cv: float | None = None

    @property
    def relative_ci(self) -> float | None:
        """The CI's width over the cost (Mercury), None without a CI or a cost."""
        if self.ci_low is None or self.ci_high is None or self.cost <= 0:
            return None
        return (self.ci_high - self.ci_low) / self.cost


@dataclass
class Cluster:
    """One performance cluster of a DPE task (0 = the slowest)."""

    index: int
    size: int
    score: float
    reference_cost: float | None
    reference_hash: int | None


@dataclass
class Inputs:
    """The inputs a task was tested on, as its row carries them (:func:`input_size`)."""

    cases: int | None = None
    """Test cases (``test_cases``); None: the row has none."""
    largest_elements: int | None = None
    largest_bytes: int | None = None
    pe_scale: int | None = None
    """DPE: the scale ``perf_input_gen`` made the performance input at (``pe_scale``)."""
    pe_elements: int | None = None
    pe_bytes: int | None = None
    """DPE: the performance input's JSON bytes (``pe_input_bytes``)."""


@dataclass
class TaskView:
    task: str
    split: str
    difficulty: str
    points: list[Point]
    clusters: list[Cluster] = field(default_factory=list)
    p99_cv: float | None = None
    inputs: Inputs = field(default_factory=Inputs)

    @property
    def spread(self) -> float | None:
        """The slowest measured solution's cost over the fastest's; None without a cost > 0."""
        costs = [p.cost for p in self.points]
        return max(costs) / min(costs) if costs and min(costs) > 0 else None


@dataclass
class BuildReport:
    title: str
    kind: str
    """``mercury`` or ``dpe``."""
    dataset: str
    meter: str
    unit: str
    funnel: list[dict[str, Any]]
    tasks: list[TaskView]
    built_at: str = ""
    shards: list[ShardTime] = field(default_factory=list)
    """The sharded stages' shards with their seconds (empty: no stage folders were read)."""
    dropped: list[DroppedByName] = field(default_factory=list)
    """Per stage and reason, the dropped tasks by name (empty: no stage folders were read)."""
    stage_files: bool = False
    """Whether the build's stage folders were read (the time per task and the names need them)."""

    @property
    def task_times(self) -> list[TaskTime]:
        return task_times(self.shards)

    @property
    def drops(self) -> list[dict[str, Any]]:
        return drop_totals(self.funnel)


def read_published_rows(root: Path) -> dict[str, list[dict[str, Any]]]:
    """The rows a build published, per split (``<root>/parquet/<split>.parquet``); {} when it
    published none."""
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    out: dict[str, list[dict[str, Any]]] = {}
    for path in sorted((root / "parquet").glob("*.parquet")):
        out[path.stem] = pq.read_table(path).to_pylist()
    return dict(sorted(out.items(), key=lambda kv: (_SPLIT_ORDER.get(kv[0], 9), kv[0])))


def row_kind(row: Mapping[str, Any]) -> str:
    """``dpe`` for an EvalPerf-format row (``solution_costs``), else ``mercury``."""
    return "dpe" if "solution_costs" in row else "mercury"


def _float(value: Any) -> float | None:
    if value is None:
        return None
    try:
        f = float(value)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def input_size(args: Any) -> tuple[int, int]:
    """(elements, bytes) of one input (a call's argument list): elements counts every scalar and
    every character of a string, through nested lists and dicts (``[[1, 2], [3]]`` and ``"abc"``
    are 3 each), the n a complexity bound speaks of; bytes are its compact JSON's, the unit of
    DPE's ``pe_input_bytes``."""

    def elements(value: Any) -> int:
        if isinstance(value, str):
            return len(value)
        if isinstance(value, list | tuple):
            return sum(elements(v) for v in value)
        if isinstance(value, dict):
            return sum(elements(v) for v in value.values())
        return 1

    text = json.dumps(args, separators=(",", ":"), ensure_ascii=False)
    return elements(args), len(text.encode())


def _json_list(text: Any) -> list[Any] | None:
    if not isinstance(text, str) or not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, list) else None


def row_inputs(row: Mapping[str, Any]) -> Inputs:
    """The test cases' count and largest input, and DPE's performance input, of a row."""
    out = Inputs()
    cases = _json_list(row.get("test_cases"))
    if cases is not None:
        sizes = [input_size(c.get("input")) for c in cases if isinstance(c, Mapping)]
        out.cases = len(cases)
        out.largest_elements = max((e for e, _ in sizes), default=None)
        out.largest_bytes = max((b for _, b in sizes), default=None)
    pe = _json_list(row.get("pe_input"))
    if pe is not None:
        out.pe_elements = input_size(pe)[0]
        out.pe_bytes = int(row.get("pe_input_bytes") or input_size(pe)[1])
        out.pe_scale = int(row["pe_scale"]) if row.get("pe_scale") is not None else None
    return out


def _mercury_task(row: Mapping[str, Any], split: str) -> TaskView:
    points = []
    for r in row.get("reference_runtimes") or []:
        cost = _float(r.get("runtime"))
        if cost is None:
            continue
        points.append(
            Point(
                hash=int(r["hash"]),
                cost=cost,
                reference=True,
                ci_low=_float(r.get("ci_low")),
                ci_high=_float(r.get("ci_high")),
                rounds=r.get("rounds"),
                converged=r.get("converged"),
                flags=list(r.get("flags") or []),
            )
        )
    return TaskView(
        str(row["slug_name"]),
        split,
        str(row.get("difficulty") or "?"),
        points,
        inputs=row_inputs(row),
    )


def _dpe_task(row: Mapping[str, Any], split: str) -> TaskView:
    refs = [int(h) for h in row.get("reference_hashes") or []]
    points = []
    for s in row.get("solution_costs") or []:
        cost = _float(s.get("cost"))
        if cost is None:
            continue
        points.append(
            Point(
                hash=int(s["hash"]),
                cost=cost,
                reference=int(s["hash"]) in refs,
                rounds=s.get("rounds"),
                converged=s.get("converged"),
                flags=list(s.get("flags") or []),
                cluster=s.get("cluster"),
                cv=_float(s.get("cv")),
            )
        )
    costs = list(row.get("reference_costs") or [])
    sizes = list(row.get("cluster_sizes") or [])
    clusters = [
        Cluster(
            index=j,
            size=int(sizes[j]) if j < len(sizes) else 0,
            score=float(score),
            reference_cost=_float(costs[j]) if j < len(costs) else None,
            reference_hash=refs[j] if j < len(refs) else None,
        )
        for j, score in enumerate(row.get("scores") or [])
    ]
    return TaskView(
        str(row["task_id"]),
        split,
        str(row.get("difficulty") or "?"),
        points,
        clusters,
        _float(row.get("p99_cv")),
        row_inputs(row),
    )


def report_from_rows(
    splits: Mapping[str, Sequence[Mapping[str, Any]]],
    funnel: Sequence[Mapping[str, Any]],
    *,
    title: str,
    dataset: str,
    built_at: str = "",
    stage_root: Path | None = None,
) -> BuildReport:
    """The build report of these published rows and this funnel (:meth:`Runner.funnel`);
    ``stage_root``: the build folder whose ``stages/`` to read for the dropped tasks' names and
    the time per task (None: the funnel's counts and seconds only)."""
    rows = [(split, row) for split, part in splits.items() for row in part]
    kind = row_kind(rows[0][1]) if rows else "mercury"
    tasks = [
        _dpe_task(row, split) if kind == "dpe" else _mercury_task(row, split) for split, row in rows
    ]
    tasks.sort(key=lambda t: (_SPLIT_ORDER.get(t.split, 9), t.split, t.task))
    first = rows[0][1] if rows else {}
    meter = str(first.get("cost_meter" if kind == "dpe" else "runtime_meter") or "")
    unit = str(first.get("cost_unit" if kind == "dpe" else "runtime_unit") or "")
    report = BuildReport(
        title=title,
        kind=kind,
        dataset=dataset,
        meter=meter,
        unit=unit,
        funnel=[dict(r) for r in funnel],
        tasks=tasks,
        built_at=built_at,
    )
    if stage_root is not None and (stage_root / "stages").is_dir():
        stages = [str(r["stage"]) for r in funnel]
        report.shards = shard_times(stage_root, stages)
        report.dropped = dropped_by_name(stage_root, stages)
        report.stage_files = True
    return report


def build_report(root: Path, funnel: Sequence[Mapping[str, Any]], *, title: str) -> BuildReport:
    """The report of the build in ``root``: its published rows, its funnel and its stage
    folders."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return report_from_rows(
        read_published_rows(root),
        funnel,
        title=title,
        dataset=str(root),
        built_at=stamp,
        stage_root=root,
    )
