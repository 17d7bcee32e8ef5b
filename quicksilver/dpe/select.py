"""Profiling figures on the performance-exercising input, EvalPerf's task selection, clustering.

A task is kept when (thresholds in ``SelectionSection``; each drop is recorded with its reason):

1. ``too-few-solutions``: at least ``min_solutions`` valid solutions were profiled (paper: 10);
2. ``too-cheap``: the FASTEST solution costs more than ``min_cost_instructions`` (paper: 10,000
   instructions), expressed in the meter's unit (CPU seconds: ``instructions / instruction_rate``);
3. ``unstable``: the 99th percentile over solutions of the coefficient of variation of their
   rounds is at most ``max_p99_cv`` (paper: 5%). EvalPerf's code profiled one round, which makes
   this filter a no-op; the profile stage measures several rounds per solution so that it works.
   The CV is robust by default (``cv_estimator``; see :func:`figures`): EvalPerf counted
   instructions, nearly noise-free, where CPU time on a shared VM has short slow bursts;
4. ``too-few-clusters``: the adaptive clustering gives at least ``min_clusters`` clusters (4).

The clustering is :func:`quicksilver.clustering.adaptive_clusters` on the solutions' costs (the
median over rounds: the statistic the scorer compares; EvalPerf's mean of instruction counts),
with one bias everywhere and ``w`` = the paper's 10,000 instructions in the meter's unit.

The profiler's tasks on the performance input: :func:`pe_profile_task` judges every answer
against the accepted one (the build's pe_profile stage and scoring: every cost that is published
or scored), :func:`pe_cost_task` judges none (costing candidate inputs, whose choice is judged
later), :func:`pe_answers_task` keeps trusted code's answers (scoring a row without
``pe_expected``).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from quicksilver.clustering import Clustering, adaptive_clusters, w_for_unit
from quicksilver.config import SelectionSection
from quicksilver.meters import METERS
from quicksilver.profiler import Case, ProfileTask, RunResult, estimate_of

DETERMINISTIC_METERS = frozenset(name for name, cls in METERS.items() if cls.deterministic)

ACCEPT_ANY = "def evaluate_offline(inputs, outputs, expected):\n    return True\n"
"""Judges nothing. Only for costing inputs whose answers are judged elsewhere, never for a figure
that is published or scored (:func:`pe_cost_task`)."""

KEEP_ANSWERS = (
    "def evaluate_offline(inputs, outputs, expected):\n"
    "    # every answer accepted: trusted code's answers are kept, not judged; it reads inputs,\n"
    "    # so the arguments after the call (an in-place task's answer) are serialised too\n"
    "    return inputs is inputs\n"
)
"""Accepts every answer and reads the arguments after the call (:func:`pe_answers_task`)."""


def _cases(pe_inputs: Sequence[Sequence[Any]], expected: Sequence[Any] | None) -> tuple[Case, ...]:
    if expected is None:
        return tuple(Case(list(args), None) for args in pe_inputs)
    if len(expected) != len(pe_inputs):
        raise ValueError(
            f"{len(expected)} expected answer(s) for {len(pe_inputs)} performance input(s)"
        )
    return tuple(Case(list(args), want) for args, want in zip(pe_inputs, expected, strict=True))


def pe_profile_task(
    task_id: str,
    entry_point: str,
    pe_inputs: Sequence[Sequence[Any]],
    *,
    expected: Sequence[Any],
    convert_offline: str,
    evaluate_offline: str,
    kind: str = "class",
    difficulty: str | None = None,
) -> ProfileTask:
    """The profiler's task for a performance-exercising input: one case per input, each answer
    judged against ``expected[i]`` (the accepted answer on that input) by the task's own
    ``evaluate_offline``, the judge the test cases use, in the profiler's judge sandbox.

    EvalPerf judged no answer on this input (correctness was settled on the test cases): a
    solution right on the tests and wrong at scale (an overflow, a truncation, a shortcut that
    breaks on large n) was measured like any other, and a wrong answer can be the fastest.
    """
    return ProfileTask(
        task_id=task_id,
        entry_point=entry_point,
        cases=_cases(pe_inputs, expected),
        kind=kind,  # type: ignore[arg-type]
        convert_offline=convert_offline,
        evaluate_offline=evaluate_offline,
        difficulty=difficulty,
    )


def pe_cost_task(
    task_id: str,
    entry_point: str,
    pe_inputs: Sequence[Sequence[Any]],
    *,
    convert_offline: str,
    kind: str = "class",
    difficulty: str | None = None,
) -> ProfileTask:
    """A task that measures cost on candidate inputs and judges no answer: the worst-case
    search's variants (the input it leads to is judged in pe_profile), the sampling's finish
    check (one call's count) and the benches. Never for a cost that is published or scored:
    :func:`pe_profile_task` is."""
    return ProfileTask(
        task_id=task_id,
        entry_point=entry_point,
        cases=_cases(pe_inputs, None),
        kind=kind,  # type: ignore[arg-type]
        convert_offline=convert_offline,
        evaluate_offline=ACCEPT_ANY,
        difficulty=difficulty,
    )


def pe_answers_task(
    task_id: str,
    entry_point: str,
    pe_inputs: Sequence[Sequence[Any]],
    *,
    convert_offline: str,
    kind: str = "class",
    difficulty: str | None = None,
) -> ProfileTask:
    """A task whose runs only collect answers (with the profiler's ``keep_outputs``): every answer
    accepted, the arguments after the call serialised. For trusted code only, whose answers
    become the expected ones (DPE scoring of a row without ``pe_expected``)."""
    return ProfileTask(
        task_id=task_id,
        entry_point=entry_point,
        cases=_cases(pe_inputs, None),
        kind=kind,  # type: ignore[arg-type]
        convert_offline=convert_offline,
        evaluate_offline=KEEP_ANSWERS,
        difficulty=difficulty,
    )


MAD_TO_SD = 1.4826
"""Scales the median absolute deviation to the standard deviation of normal noise."""


def figures(res: RunResult, *, warmup_rounds: int = 0) -> dict[str, Any]:
    """Cost figures of one profiled solution on the performance-exercising input.

    One value per round (the per-call cost, summed over the inputs). The first ``warmup_rounds``
    are not counted when at least 3 rounds remain (the allocator and caches warm up over the first
    calls). ``cost`` is the profiler's own figure over those rounds (its ``estimator``: the count,
    the mean of the fastest passes, or the median): the statistic the scorer compares, so build
    and scoring rank solutions alike. ``cv`` is the robust coefficient of
    variation, ``1.4826 * MAD / median`` (equal to stdev / mean for normal noise, and not moved by
    the short slow bursts a shared VM produces); ``cv_classic`` is stdev / mean, recorded too.
    """
    per_round = list(res.round_costs)
    if len(per_round) - warmup_rounds >= 3:
        per_round = per_round[warmup_rounds:]
    if not per_round:
        return {"cost": None, "mean": None, "cv": None, "cv_classic": None, "rounds": 0}
    med = statistics.median(per_round)
    mean = statistics.fmean(per_round)
    cost = estimate_of(res.estimator or "median", per_round)
    if res.meter in DETERMINISTIC_METERS and med > 0:
        cv = cv_classic = 0.0  # one exact count: the same work counts the same
    elif len(per_round) >= 2 and med > 0:
        mad = statistics.median(abs(x - med) for x in per_round)
        cv = MAD_TO_SD * mad / med
        cv_classic = statistics.stdev(per_round) / mean
    else:
        cv = cv_classic = math.inf
    return {
        "cost": cost,
        "mean": mean,
        "cv": cv,
        "cv_classic": cv_classic,
        "rounds": len(per_round),
        "converged": res.converged,
        "flags": list(res.flags),
    }


def p99(values: list[float]) -> float:
    """The 99th percentile (linear interpolation between order statistics, numpy's default)."""
    if not values:
        raise ValueError("p99 of no values")
    xs = sorted(values)
    pos = 0.99 * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def min_cost_in_unit(section: SelectionSection, unit: str) -> float:
    """The minimum cost of the fastest solution, in the meter's unit."""
    if unit == "instructions":
        return section.min_cost_instructions
    return (
        section.min_cost_instructions
        * w_for_unit(unit, instruction_rate=section.instruction_rate)
        / w_for_unit("instructions")
    )


@dataclass
class Selection:
    """The verdict on one task: kept with its clustering, or dropped with a reason."""

    slug: str
    kept: bool
    reason: str | None = None  # drop category
    detail: str | None = None  # a sentence naming the task and the numbers
    clustering: Clustering | None = None
    stats: dict[str, Any] = field(default_factory=dict)


def select_task(
    slug: str, costs: list[float], cvs: list[float], section: SelectionSection, unit: str
) -> Selection:
    """Apply the four filters in the paper's order, then cluster (see the module docstring)."""
    n = len(costs)
    stats: dict[str, Any] = {"solutions": n}
    if n < section.min_solutions:
        return Selection(
            slug,
            False,
            "too-few-solutions",
            f"{slug}: {n} profiled solution(s), fewer than {section.min_solutions}",
            stats=stats,
        )
    fastest = min(costs)
    floor = min_cost_in_unit(section, unit)
    stats.update(fastest=fastest, min_cost=floor)
    if fastest <= floor:
        return Selection(
            slug,
            False,
            "too-cheap",
            f"{slug}: the fastest solution costs {fastest:.3g} {unit}, not above the minimum "
            f"{floor:.3g} {unit} ({section.min_cost_instructions:.0f} instructions)",
            stats=stats,
        )
    cv99 = p99(cvs)
    stats["p99_cv"] = cv99
    if not cv99 <= section.max_p99_cv:
        return Selection(
            slug,
            False,
            "unstable",
            f"{slug}: P99 coefficient of variation over solutions is {cv99:.1%}, above "
            f"{section.max_p99_cv:.0%}",
            stats=stats,
        )
    w = w_for_unit(unit, instruction_rate=section.instruction_rate)
    clustering = adaptive_clusters(costs, w=w, bias=section.bias)
    m = len(clustering.clusters)
    stats.update(clusters=m, w=w, bias=section.bias)
    if m < section.min_clusters:
        return Selection(
            slug,
            False,
            "too-few-clusters",
            f"{slug}: {m} performance cluster(s) (bias {section.bias}, w {w:.3g} {unit}), fewer "
            f"than {section.min_clusters}",
            clustering=clustering,
            stats=stats,
        )
    return Selection(slug, True, clustering=clustering, stats=stats)
