"""A reference or sample run's memory figures as scoring reads them: the whole-process peak
(EffiBench's MU) and the time-memory integral. Scoring a sample's memory is
:func:`quicksilver.scoring.mercury.score_memory`; the per-task and overall figures are
:func:`quicksilver.scoring.model.task_memory` and
:func:`~quicksilver.scoring.model.memory_summary`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def process_peak(run: Mapping[str, Any]) -> int | None:
    """A passing run's whole-process peak (baseline + peak above it), EffiBench's MU."""
    peak, base = run.get("peak_memory_bytes"), run.get("memory_baseline_bytes")
    if run.get("status") != "passed" or peak is None or base is None:
        return None
    return int(peak) + int(base)


def run_tmu(run: Mapping[str, Any]) -> float | None:
    """A passing run's time-memory integral (None: failed, or not measured)."""
    tmu = run.get("tmu")
    if run.get("status") != "passed" or tmu is None or not tmu > 0:
        return None
    return float(tmu)
