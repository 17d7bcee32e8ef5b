"""A solution's memory from its passes: peaks per case and the time-memory integral (TMU).

See docs/profiler.md, "Memory" and "Time-memory integral"."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from quicksilver.metrics import time_memory_integral
from quicksilver.profiler.runner import _Pass
from quicksilver.sandbox.cgroup import MEMORY_SOURCE_RSS
from quicksilver.sandbox.session import MemoryTrace

# A report's memory beyond what serialising the same values takes in a trusted child (times
# this, plus the slack) counts toward its case's peak: a patched harness cannot move an
# allocation out of the call into the report unseen.
REPORT_MEMORY_TOLERANCE = 1.5
REPORT_MEMORY_SLACK = 1 << 20  # bytes

# A pass that is not sampled (a timed pass of the cpu meter) whose peak for a case (or the load)
# exceeds the sampled pass's by more than this (times, plus the slack) raises that case's TMU to
# its peak times its duration in that pass (docs/profiler.md, "Time-memory integral").
UNSAMPLED_PEAK_TOLERANCE = 1.1
UNSAMPLED_PEAK_SLACK = 1 << 20  # bytes


@dataclass(frozen=True)
class _Tmu:
    """A sampled pass's time-memory integral, in bytes x the meter's raw unit."""

    total: float
    cases: list[float]
    samples: list[int]  # per case: readings of its call (the window's ends included)
    readings: int  # over the load and every call
    interval_s: float  # mean host wall time between two readings of the load and the calls
    load: float = 0.0  # the load's integral (part of total)
    # the sampled pass's peaks above its baseline (bytes; None: not measured), for the
    # comparison with the passes that are not sampled (_with_unsampled_peaks)
    load_peak: int | None = None
    peaks: list[int | None] = field(default_factory=list)
    # which figures were raised to an unsampled pass's peak times its duration
    load_bounded: bool = False
    bounded: list[bool] = field(default_factory=list)


def _trace_integral(trace: MemoryTrace) -> float:
    return time_memory_integral(trace.clock, trace.rss, trace.marks)


def _pass_tmu(
    p: _Pass,
    honest: Sequence[int],
    honest_memory: Sequence[int | None],
    tolerance: float,
    slack: int,
    idle_slack: int,
) -> _Tmu | None:
    """EffiBench's TMU of a sampled pass: the whole process's resident memory, read by the host,
    integrated over the pass (docs/profiler.md, "Time-memory integral"). None when a window was
    not sampled (memory not measurable here).

    Counted: the load (work done at import is memory held over time too), and per case its call;
    its report when the report cost more, in time or memory, than serialising the same values in
    a trusted child (the charge rules of the timed figures: a patched harness that moved work
    into the report pays for it); and the idle gaps before the call and before the report, at
    the highest memory seen up to the next command (the gap is not sampled; its charged cost
    times that peak bounds what it held)."""
    if not p.sampled or any(e.trace is None for e in p.sampled):
        return None
    load, rest = p.sampled[0], p.sampled[1:]
    assert load.trace is not None
    total = _trace_integral(load.trace)
    cases: list[float] = []
    samples: list[int] = []
    prev = load
    for i in range(len(rest) // 2):
        call, rep = rest[2 * i], rest[2 * i + 1]
        assert call.trace is not None and rep.trace is not None
        tmu = _trace_integral(call.trace)
        expected = honest[i] if i < len(honest) else 0
        over_time = rep.cost > int(expected * tolerance) + slack
        growth = p.report_growth[i]
        honest_growth = honest_memory[i] if i < len(honest_memory) else None
        over_memory = (
            growth is not None
            and honest_growth is not None
            and growth > int(honest_growth * REPORT_MEMORY_TOLERANCE) + REPORT_MEMORY_SLACK
        )
        if over_time or over_memory:
            tmu += _trace_integral(rep.trace)
        for gap, before in ((call.idle, prev), (rep.idle, call)):
            peak = before.span_peak if before.span_peak is not None else before.peak
            tmu += max(0, gap - idle_slack) * (peak or 0)
        cases.append(tmu)
        samples.append(len(call.trace.clock))
        total += tmu
        prev = rep
    windows = [load.trace, *(e.trace for e in rest[0::2] if e.trace is not None)]
    intervals = sum(len(t.clock) - 1 for t in windows)
    wall = sum(t.wall_s for t in windows)
    return _Tmu(
        total=total,
        cases=cases,
        samples=samples,
        readings=sum(len(t.clock) for t in windows),
        interval_s=wall / intervals if intervals else 0.0,
        load=_trace_integral(load.trace),
        load_peak=_load_memory(p),
        peaks=_case_memory(p, honest_memory),
        bounded=[False] * len(cases),
    )


def _held_more(peak: int | None, sampled: int | None) -> bool:
    """An unsampled pass's peak (above its baseline) beyond the sampled pass's tolerance."""
    if peak is None or sampled is None:
        return False
    return peak > sampled * UNSAMPLED_PEAK_TOLERANCE + UNSAMPLED_PEAK_SLACK


def _with_unsampled_peaks(
    tmu: _Tmu,
    passes: Sequence[_Pass],
    honest_memory: Sequence[int | None],
    null_call: int,
    null_load: int,
) -> _Tmu:
    """The sampled pass's integral, raised where a pass that was not sampled held more.

    With a time meter only the sampled pass has a memory curve, and a solution may tell that
    pass from the others (by its pid, say) and hold little only there. Every pass's peaks are
    read, though: where a pass's peak for a case (or for the load) exceeds the sampled pass's by
    more than ``UNSAMPLED_PEAK_TOLERANCE`` x and ``UNSAMPLED_PEAK_SLACK``, the case's figure is
    at least that whole-process peak times the window's duration in that pass (its call net
    of nothing, as the integral's is; the load's window): an upper bound of that pass's
    integral, flagged (``bounded``). Honest passes peak alike, so their figures stay the
    sampled integral (docs/profiler.md, "Time-memory integral")."""
    cases, bounded = list(tmu.cases), list(tmu.bounded)
    load, load_bounded = tmu.load, tmu.load_bounded
    for p in passes:
        if p.baseline is None:
            continue
        above = _load_memory(p)
        if above is not None and _held_more(above, tmu.load_peak):
            bound = (p.baseline + above) * max(0, p.load + null_load)
            if bound > load:
                load, load_bounded = float(bound), True
        for i, above in enumerate(_case_memory(p, honest_memory)[: len(cases)]):
            sampled = tmu.peaks[i] if i < len(tmu.peaks) else None
            if above is None or not _held_more(above, sampled):
                continue
            bound = (p.baseline + above) * max(0, p.calls[i] + null_call)
            if bound > cases[i]:
                cases[i], bounded[i] = float(bound), True
    if not load_bounded and not any(bounded):
        return tmu
    total = tmu.total + (load - tmu.load) + sum(cases) - sum(tmu.cases)
    return replace(
        tmu, total=total, cases=cases, load=load, load_bounded=load_bounded, bounded=bounded
    )


def _case_memory(p: _Pass, honest: Sequence[int | None]) -> list[int | None]:
    """Each case's peak memory in pass ``p``, above the pass's trusted post-load baseline.

    The call's peak counts (with the idle gap after its reply, where a signal handler or a
    finalizer would run), and so does whatever its report needed beyond serialising the same
    values in a trusted child: an allocation a patched harness moved into the report."""
    out: list[int | None] = []
    for i, call_peak in enumerate(p.call_peaks):
        base = p.baseline
        if base is None or call_peak is None:
            out.append(None)
            continue
        peak = call_peak
        growth, start = p.report_growth[i], p.report_starts[i]
        expected = honest[i] if i < len(honest) else None
        if growth is not None and start is not None and expected is not None:
            excess = growth - int(expected * REPORT_MEMORY_TOLERANCE) - REPORT_MEMORY_SLACK
            peak = max(peak, start + max(0, excess))
        out.append(max(0, peak - base))
    return out


def _load_memory(p: _Pass) -> int | None:
    """The load's peak in pass ``p`` above the pass's trusted post-load baseline."""
    if p.baseline is None or p.load_peak is None:
        return None
    return max(0, p.load_peak - p.baseline)


def _memory_source(sources: Sequence[str | None]) -> str | None:
    """What the passes' memory figures rest on: the weaker when they differ (a child that
    could not be put in a memory cgroup read its resident size alone); None: not measured."""
    if not sources or None in sources:
        return None
    return sources[0] if len(set(sources)) == 1 else MEMORY_SOURCE_RSS


def _largest_bytes(values: Sequence[int | None]) -> int | None:
    """The largest reading over passes, or None if any is missing.

    Not the median: memory barely varies between passes, and a solution whose peak moved from
    one case (or one window) to another between passes would slip under every per-case median.
    """
    if not values or any(v is None for v in values):
        return None
    return max(v for v in values if v is not None)
