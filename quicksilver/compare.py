"""Compare two score reports (``quicksilver score --json FILE``) task by task.

EvalPerf's rule: efficiency is compared only on the tasks that BOTH models passed, since a
model that solves fewer (easier) tasks would otherwise look faster. A task passed means at least
one correct sample, and for a DPE task a DPS (its references could be profiled). On that common
set we give each task's DPS (and Beyond where the report has it) side by side, the means of each
over the common set, and wins / ties / losses: DPS within ``tie`` points (default 1) is a tie;
tasks without DPS are decided on Beyond, scaled to points (x100). Tasks only one side passed are
listed, not scored. Whether A and B differ beyond the luck of the task draw: Wilcoxon's paired
signed-rank test on those per-task differences, with a bootstrap interval on their mean
(``significance``, quicksilver.significance).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from statistics import fmean
from typing import Any, Literal

from quicksilver.significance import PairedTest, paired_test

log = logging.getLogger(__name__)

TIE_POINTS = 1.0

Winner = Literal["a", "b", "tie"]


class ReportError(ValueError):
    """A file is not a readable score report."""


def load_report(path: str | Path) -> dict[str, Any]:
    """Read and check a report written by ``quicksilver score --json``."""
    path = Path(path)
    hint = "expected the JSON report written by `quicksilver score --json FILE`"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"{path}: cannot read: {exc}") from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ReportError(f"{path}: not JSON ({exc}); {hint}") from exc
    if not isinstance(data, dict):
        raise ReportError(f"{path}: not a score report (a JSON {type(data).__name__}); {hint}")
    missing = [key for key in ("tasks", "meter") if key not in data]
    if missing:
        raise ReportError(
            f"{path}: not a score report (no {', '.join(map(repr, missing))}); {hint}"
        )
    if not isinstance(data["tasks"], list):
        raise ReportError(f"{path}: not a score report ('tasks' is not a list); {hint}")
    for i, row in enumerate(data["tasks"]):
        if not isinstance(row, dict) or not isinstance(row.get("task_id"), str):
            raise ReportError(f"{path}: task #{i} of the report has no task_id; {hint}")
    return data


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def n_correct(row: dict[str, Any]) -> int:
    """Correct samples of a task row (``n_correct``; ``c`` or the samples in older reports)."""
    for key in ("n_correct", "c"):
        value = row.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return sum(1 for s in row.get("samples") or [] if s.get("status") == "passed")


def is_dpe_row(row: dict[str, Any]) -> bool:
    if "dpe" in row:
        return bool(row["dpe"])
    return row.get("dps") is not None  # reports written before the "dpe" flag


def passed(row: dict[str, Any]) -> bool:
    """At least one correct sample; for a DPE task, also a DPS."""
    if n_correct(row) < 1:
        return False
    return not is_dpe_row(row) or _number(row.get("dps")) is not None


@dataclass
class TaskComparison:
    task: str
    difficulty: str | None
    dps_a: float | None
    dps_b: float | None
    dps_norm_a: float | None
    dps_norm_b: float | None
    beyond_a: float | None
    beyond_b: float | None
    winner: Winner | None  # None: nothing comparable (no DPS and no Beyond on both sides)
    decided_by: Literal["dps", "beyond"] | None
    delta: float | None  # A - B in points of the deciding metric


@dataclass
class Tally:
    wins_a: int = 0
    ties: int = 0
    wins_b: int = 0

    def add(self, winner: Winner) -> None:
        if winner == "a":
            self.wins_a += 1
        elif winner == "b":
            self.wins_b += 1
        else:
            self.ties += 1


@dataclass
class MeanPair:
    """Means of one metric over the common tasks where both sides have it."""

    a: float | None
    b: float | None
    n: int


@dataclass
class Comparison:
    a: str
    b: str
    tie_points: float
    common: list[TaskComparison]
    means: dict[str, MeanPair]
    tally: Tally
    by_metric: dict[str, Tally]
    only_a: list[str]  # passed by A only (including tasks B's report lacks)
    only_b: list[str]
    neither: list[str]  # in both reports, passed by neither
    not_in_a: list[str]  # tasks B's report has and A's lacks
    not_in_b: list[str]
    warnings: list[str] = field(default_factory=list)
    # on the deciding metric's per-task differences (A - B, points): quicksilver.significance
    significance: PairedTest | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _mean_pair(pairs: Iterable[tuple[float | None, float | None]]) -> MeanPair:
    both = [(a, b) for a, b in pairs if a is not None and b is not None]
    if not both:
        return MeanPair(None, None, 0)
    return MeanPair(fmean(a for a, _ in both), fmean(b for _, b in both), len(both))


def _winner(delta: float, tie: float) -> Winner:
    if abs(delta) <= tie:
        return "tie"
    return "a" if delta > 0 else "b"


def compare_reports(
    a: dict[str, Any],
    b: dict[str, Any],
    *,
    label_a: str = "A",
    label_b: str = "B",
    tie: float = TIE_POINTS,
) -> Comparison:
    """Compare report ``a`` with report ``b`` (both as :func:`load_report` returns them)."""
    rows_a = {r["task_id"]: r for r in a["tasks"]}
    rows_b = {r["task_id"]: r for r in b["tasks"]}
    order = list(rows_a) + [t for t in rows_b if t not in rows_a]
    common: list[TaskComparison] = []
    only_a, only_b, neither = [], [], []
    tally = Tally()
    by_metric = {"dps": Tally(), "beyond": Tally()}
    for task in order:
        ra, rb = rows_a.get(task), rows_b.get(task)
        pa, pb = ra is not None and passed(ra), rb is not None and passed(rb)
        if pa and not pb:
            only_a.append(task)
        elif pb and not pa:
            only_b.append(task)
        elif not pa and not pb and ra is not None and rb is not None:
            neither.append(task)
        if ra is None or rb is None or not (pa and pb):
            continue
        dps_a, dps_b = _number(ra.get("dps")), _number(rb.get("dps"))
        beyond_a, beyond_b = _number(ra.get("beyond")), _number(rb.get("beyond"))
        winner: Winner | None = None
        decided_by: Literal["dps", "beyond"] | None = None
        delta: float | None = None
        if dps_a is not None and dps_b is not None:
            decided_by, delta = "dps", dps_a - dps_b
        elif beyond_a is not None and beyond_b is not None:
            decided_by, delta = "beyond", 100.0 * (beyond_a - beyond_b)
        if decided_by is not None and delta is not None:
            winner = _winner(delta, tie)
            tally.add(winner)
            by_metric[decided_by].add(winner)
        common.append(
            TaskComparison(
                task=task,
                difficulty=ra.get("difficulty") or rb.get("difficulty"),
                dps_a=dps_a,
                dps_b=dps_b,
                dps_norm_a=_number(ra.get("dps_norm")),
                dps_norm_b=_number(rb.get("dps_norm")),
                beyond_a=beyond_a,
                beyond_b=beyond_b,
                winner=winner,
                decided_by=decided_by,
                delta=delta,
            )
        )
    means = {
        "dps": _mean_pair((t.dps_a, t.dps_b) for t in common),
        "dps_norm": _mean_pair((t.dps_norm_a, t.dps_norm_b) for t in common),
        "beyond": _mean_pair((t.beyond_a, t.beyond_b) for t in common),
    }
    warnings: list[str] = []
    if a.get("meter") != b.get("meter"):
        warnings.append(
            f"the reports used different meters ({a.get('meter')} vs {b.get('meter')}): "
            "raw costs do not compare, and DPS only roughly (a time meter can order two cluster "
            "references the other way than instruction counts do)"
        )
    elif a.get("dps_tolerance") != b.get("dps_tolerance"):
        warnings.append(
            f"the reports matched DPS with different tolerances ({a.get('dps_tolerance')} vs "
            f"{b.get('dps_tolerance')}): a sample just above a reference counts differently"
        )
    machine_a = (a.get("machine") or {}).get("machine_id")
    machine_b = (b.get("machine") or {}).get("machine_id")
    if machine_a and machine_b and machine_a != machine_b:
        warnings.append(
            "the reports come from different machines: scores relative to references "
            "re-profiled on each machine still compare, raw costs do not"
        )
    if not common:
        warnings.append("no task was passed by both sides: nothing to compare")
    for w in warnings:
        log.warning("%s", w)
    significance = paired_test([t.delta for t in common if t.delta is not None])
    return Comparison(
        significance=significance,
        a=label_a,
        b=label_b,
        tie_points=tie,
        common=common,
        means=means,
        tally=tally,
        by_metric=by_metric,
        only_a=only_a,
        only_b=only_b,
        neither=neither,
        not_in_a=[t for t in rows_b if t not in rows_a],
        not_in_b=[t for t in rows_a if t not in rows_b],
        warnings=warnings,
    )


def compare_files(a: str | Path, b: str | Path, *, tie: float = TIE_POINTS) -> Comparison:
    """Load two report files and compare them; labels are the files' paths."""
    return compare_reports(load_report(a), load_report(b), label_a=str(a), label_b=str(b), tie=tie)
