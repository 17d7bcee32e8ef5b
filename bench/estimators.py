"""Which figure a time meter should publish: the median pass, or the fastest passes, side by side.

Every solution of the profiler bench's tasks (bench/tasks/) is profiled ``--repeats`` times with
the cpu meter, each profile forced to ``--passes`` passes (interleaved over the task's solutions,
as a build does). From the same recorded passes, each estimator is computed on the first k passes
of every profile, and the table gives, per estimator and k, the spread of that figure over the
repeats (coefficient of variation: median, P75 and P90 over solutions). The last table replays
the stopping rule a build uses (``MeasureConfig``: the ``fastest_k`` fastest passes agree within
``target_rel_ci``, after ``min_rounds``) on the same passes: passes it took and the spread it
leaves, beside the median estimator's rule (the CI95 of the median within ``target_rel_ci``).

It answers a question of statistics, not of speed: every pass does the same work (a fresh child
of one zygote, the same seeds), so what differs between passes is the machine. Results are in
docs/performance.md ("The fastest passes"). About 5 minutes on 2 cores.
"""

from __future__ import annotations

import logging
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.profiler import Job, profile_many
from quicksilver.stats import coefficient_of_variation, fastest_band, median_ci

from common import fmt_pct, header, parser, start, table, write_json
from profiler import load_tasks

log = logging.getLogger("bench.estimators")

Estimator = Callable[[Sequence[float]], float]
ESTIMATORS: dict[str, Estimator] = {
    "median": lambda xs: statistics.median(xs),
    "mean": lambda xs: statistics.fmean(xs),
    "fastest": lambda xs: min(xs),
    "3 fastest (mean)": lambda xs: fastest_band(xs, 3).estimate,
}
PREFIXES = (3, 5, 8, 12, 16, 24, 48)


def quantile(xs: Sequence[float], q: float) -> float:
    ys = sorted(xs)
    i = q * (len(ys) - 1)
    lo = int(i)
    hi = min(lo + 1, len(ys) - 1)
    return ys[lo] + (ys[hi] - ys[lo]) * (i - lo)


def spread(figures: dict[str, list[float]]) -> list[float]:
    """Per solution, the CV of its figure over the repeats."""
    return sorted(coefficient_of_variation(v) for v in figures.values() if len(v) > 1)


def stop_at(passes: Sequence[float], measure: MeasureConfig) -> int:
    """The passes a build would have taken: the first n >= min_rounds at which the estimate is
    tight (as quicksilver.profiler does), else all of them."""
    for n in range(measure.min_rounds, len(passes) + 1):
        head = passes[:n]
        if measure.estimator == "median":
            width = median_ci(head).rel_half_width
        else:
            width = fastest_band(head, measure.fastest_k).rel_half_width
        if width <= measure.target_rel_ci:
            return n
    return len(passes)


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(__doc__, repeats="profiles per solution (default 5)", seed="input seed")
    p.add_argument("--passes", type=int, default=48, help="passes per profile (default 48)")
    args = p.parse_args(argv)
    console = start()
    repeats = args.repeats or 5
    machine, revision = header(console)
    tasks, _ = load_tasks()
    forced = MeasureConfig(
        meter="cpu",
        min_rounds=args.passes,
        max_rounds=args.passes,
        target_rel_ci=1e-9,
        budget_seconds=1e9,
    )
    passes: dict[str, list[list[float]]] = {}
    for rep in range(repeats):
        for bt in tasks:
            pt = bt.build(args.seed)
            names = list(bt.solutions)
            results = profile_many(
                [Job(pt, bt.solutions[n]) for n in names],
                sandbox=SandboxConfig(),
                measure=forced,
                workers=1,
            )
            for name, res in zip(names, results, strict=True):
                if res.passed and res.round_costs:
                    passes.setdefault(f"{bt.task_id}/{name}", []).append(res.round_costs)
            log.info("repeat %d/%d: %s", rep + 1, repeats, bt.task_id)
    kept = {k: v for k, v in passes.items() if len(v) == repeats}
    console.print(f"{len(kept)} solutions, {repeats} profiles of {args.passes} passes each")

    numbers: dict[str, Any] = {"machine": machine, "revision": revision, "by_prefix": {}}
    t = table(
        "spread over repeats (CV; median / P75 / P90 over solutions) of each estimator on the "
        "first k passes",
        ("k passes", "left"),
        *ESTIMATORS,
    )
    for k in (k for k in PREFIXES if k <= args.passes):
        row = [str(k)]
        for name, f in ESTIMATORS.items():
            cvs = spread({s: [f(one[:k]) for one in profs] for s, profs in kept.items()})
            numbers["by_prefix"].setdefault(name, {})[k] = cvs
            row.append(" / ".join(fmt_pct(quantile(cvs, q)) for q in (0.5, 0.75, 0.9)))
        t.add_row(*row)
    console.print(t)

    rules = table(
        "the stopping rule replayed on the same passes",
        ("rule", "left"),
        "passes (mean / median)",
        "CV median",
        "CV P75",
        "CV P90",
    )
    numbers["rules"] = {}
    for label, measure in (
        ("fastest, target 2% (MeasureConfig())", MeasureConfig(meter="cpu")),
        ("fastest, target 1%", MeasureConfig(meter="cpu", target_rel_ci=0.01)),
        ("median CI95, target 2%", MeasureConfig(meter="cpu", estimator="median", min_rounds=5)),
    ):
        used: list[int] = []
        figures: dict[str, list[float]] = {}
        for s, profs in kept.items():
            for one in profs:
                n = stop_at(one, measure)
                used.append(n)
                head = one[:n]
                figures.setdefault(s, []).append(
                    statistics.median(head)
                    if measure.estimator == "median"
                    else fastest_band(head, measure.fastest_k).estimate
                )
        cvs = spread(figures)
        numbers["rules"][label] = {"passes": used, "cv": cvs}
        rules.add_row(
            label,
            f"{statistics.fmean(used):.1f} / {statistics.median(used):g}",
            *(fmt_pct(quantile(cvs, q)) for q in (0.5, 0.75, 0.9)),
        )
    console.print(rules)
    write_json(args.json, numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
