"""DPE build benchmark: exponential input sampling and profiling on the chosen input, each against
a baseline measured in the same run, on tasks of the bundled corpus.

For each task (default: primes-below, best-single-trade, window-maxima, rain-capacity; the
snapshot solutions, exact duplicates dropped, the first one being the reference):

1. Sampling. The offline SaS generator (:func:`quicksilver.dpe.sas.offline_sas`) is sampled
   with :func:`quicksilver.dpe.sampling.sample_generator` at scales 2, 4, 8, ... under the DPE
   build's walls (``configs/dpe.yaml``: 1 s of CPU per step, 4 GB, up to 2^20).

   - ``ours``: ``sample_generator`` as the build calls it; it stops at the first wall, cap or
     repeated input (``saturated``: the generator stopped growing, every further step would try
     the same input again);
   - ``baseline``: the EvalPerf paper's loop, without the ``saturated`` stop, run for real: one
     ``sample_generator`` call per scale (each a fresh trace with no earlier input to compare
     with), stopping at the first step that is not "ok" or after ``max_scale_exp``. Same
     generator, reference, limits and sandbox; only the repeat check is missing.

   Printed per task: wall seconds, steps, stop reason, last passing scale, and the CPU the steps
   themselves used (generator + reference; the rest of the wall time is two sandbox starts per
   step). Then, for up to three tasks, how the cost grows with scale (input bytes, generator CPU,
   reference CPU per step of ``ours``' trace) and the least-squares log-log slope of reference
   CPU against scale over the passing steps that cost more than 1 ms.

2. Profiling on the performance-exercising input. The input is chosen by
   :func:`quicksilver.dpe.choosing.choose_pe_input` (the most expensive candidate on which every
   solution finishes within ``finish_cpu_seconds``). The bench does not run the correctness
   stages: a solution is "valid" here when it does not raise; solutions that raise on every
   candidate tried are dropped and listed (wrong answers that do not raise stay: the bench does
   not check answers). Each remaining solution is profiled with
   :func:`quicksilver.profiler.profile_solution` on :func:`quicksilver.dpe.select.pe_cost_task`:

   - ``ours``: the DPE build's measure settings (7-10 rounds, 50 ms windows, CI target 2%,
     20 s budget) and :func:`quicksilver.dpe.select.figures` with 2 warm-up rounds (cost = median
     of the counted rounds; robust CV = 1.4826 MAD / median; classic CV = stdev / mean);
   - ``baseline``: what EvalPerf's code did, one round of one call (``min_rounds = max_rounds =
     1``, no batching): the cost is that round, no CV can be computed.

   Both sides are repeated ``--repeats`` times (interleaved, the order alternating per solution
   and repeat). Printed per task: profiling wall seconds per pass over the task's solutions, the
   clusters (:func:`quicksilver.clustering.adaptive_clusters`, w = 10,000 instructions at 3e9/s)
   of each repeat, how many distinct partitions the repeats gave and how many solution pairs
   they agree on, the selection's P99 robust CV per repeat; per solution: both costs, ours'
   rounds, robust and classic CV, and the spread of the cost across repeats.

Run ``python bench/dpe.py`` (about 4-5 minutes on 2 cores), ``--quick`` (smaller walls: 0.3 s
per step, scales up to 2^14, every solution within 0.5 s, 2 repeats; about 1.5-2.5 minutes),
``--tasks N`` for the first N tasks, ``--only SLUGS`` for other bundled tasks, ``--json OUT`` to
dump every number. Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import itertools
import logging
import math
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rich.table import Table

from quicksilver.clustering import adaptive_clusters, w_for_unit
from quicksilver.config import MeasureConfig, SamplingSection, SandboxConfig, SandboxLimits
from quicksilver.dpe.choosing import (
    Choice,
    choose_pe_input,
)
from quicksilver.dpe.sampling import (
    GeneratorTrace,
    Target,
    sample_generator,
)
from quicksilver.dpe.sas import offline_sas
from quicksilver.dpe.select import figures, p99, pe_cost_task
from quicksilver.pipeline.records import Solution, Task
from quicksilver.pipeline.runner import apply
from quicksilver.profiler import ProfileTask, profile_solution
from quicksilver.sandbox import isolation as iso
from quicksilver.stages.generators import synth_input
from quicksilver.stages.load import LOAD

from common import (
    BUNDLED,
    MachineLoad,
    fmt_pct,
    fmt_time,
    header,
    median,
    parser,
    ratio,
    start,
    table,
    write_json,
)

log = logging.getLogger("bench.dpe")

DEFAULT_TASKS = ("primes-below", "best-single-trade", "window-maxima", "rain-capacity")
GROWTH_TASKS = 3  # tasks shown in the cost-vs-scale table
SLOPE_FLOOR_S = 1e-3  # steps cheaper than this are startup noise, left out of the slope fit

SANDBOX = SandboxConfig(limits=SandboxLimits(cpu_seconds=30, memory_mb=4096, recursion_limit=10000))
OURS_MEASURE = MeasureConfig(
    meter="cpu", min_rounds=7, max_rounds=10, target_rel_ci=0.02, budget_seconds=20
)
BASELINE_MEASURE = MeasureConfig(meter="cpu", min_rounds=1, max_rounds=1)
WARMUP_ROUNDS = 2
W_SECONDS = 1e-6  # replaced in main() by w at this machine's measured instruction rate


@dataclass(frozen=True)
class Settings:
    limits: SamplingSection
    finish_cpu_seconds: float  # every solution must finish the chosen input within this
    max_candidates: int
    repeats: int


def settings(quick: bool, repeats: int | None) -> Settings:
    """configs/dpe.yaml's sampling section; --quick lowers the walls."""
    limits = SamplingSection(
        time_wall_seconds=0.3 if quick else 1.0,
        memory_mb=4096,
        min_scale_exp=1,
        max_scale_exp=14 if quick else 20,
        max_input_bytes=64 * 2**20,
        seed=20260501,
    )
    return Settings(
        limits=limits,
        finish_cpu_seconds=0.5 if quick else 1.5,
        max_candidates=24,
        repeats=repeats or (2 if quick else 3),
    )


# ============================================================================ sampling


@dataclass
class SamplingRun:
    """One side's sampling of one generator."""

    method: str
    wall_s: float
    steps: int
    stop: str
    last_scale: int | None
    last_reference_cost: float | None
    last_input_bytes: int | None
    step_cpu_s: float  # generator + reference CPU over all steps
    trace: dict[str, Any] = field(default_factory=dict)


def _step_cpu(trace: GeneratorTrace) -> float:
    return sum(
        (s.generator_cpu_seconds or 0.0) + (s.reference_cpu_seconds or 0.0) for s in trace.steps
    )


def sample_ours(
    code: str, index: int, reference: str, target: Target, limits: SamplingSection, slug: str
) -> tuple[SamplingRun, GeneratorTrace]:
    started = time.perf_counter()
    trace = sample_generator(
        code,
        index=index,
        reference_code=reference,
        target=target,
        limits=limits,
        sandbox=SANDBOX,
        task=slug,
    )
    wall = time.perf_counter() - started
    last = trace.last
    run = SamplingRun(
        "ours",
        wall,
        len(trace.steps),
        trace.stop,
        last.scale if last else None,
        last.reference_cost if last else None,
        last.input_bytes if last else None,
        _step_cpu(trace),
        trace.to_dict(),
    )
    return run, trace


def sample_baseline(
    code: str, index: int, reference: str, target: Target, limits: SamplingSection, slug: str
) -> SamplingRun:
    """The paper's loop without the saturated stop: one single-step sample_generator per scale."""
    steps: list[dict[str, Any]] = []
    stop = "max-scale"
    last: dict[str, Any] | None = None
    cpu = 0.0
    started = time.perf_counter()
    for exp in range(limits.min_scale_exp, limits.max_scale_exp + 1):
        one = limits.model_copy(update={"min_scale_exp": exp, "max_scale_exp": exp})
        trace = sample_generator(
            code,
            index=index,
            reference_code=reference,
            target=target,
            limits=one,
            sandbox=SANDBOX,
            task=f"{slug} (baseline)",
        )
        step = trace.steps[0]
        steps.append(asdict(step))
        cpu += _step_cpu(trace)
        if step.status != "ok":
            stop = step.status
            break
        if trace.last is not None:
            last = trace.last.to_dict()
    wall = time.perf_counter() - started
    return SamplingRun(
        "baseline",
        wall,
        len(steps),
        stop,
        last["scale"] if last else None,
        last["reference_cost"] if last else None,
        last["input_bytes"] if last else None,
        cpu,
        {"steps": steps, "stop": stop},
    )


def loglog_slope(points: Sequence[tuple[float, float]]) -> float | None:
    """Least-squares slope of log(y) on log(x); None with fewer than two distinct x."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len({x for x, _ in pts}) < 2:
        return None
    mx = statistics.fmean(x for x, _ in pts)
    my = statistics.fmean(y for _, y in pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    sxy = sum((x - mx) * (y - my) for x, y in pts)
    return sxy / sxx


def reference_slope(trace: GeneratorTrace) -> tuple[float | None, int]:
    """(slope, points) of reference CPU vs scale over the passing steps above SLOPE_FLOOR_S."""
    pts = [
        (float(s.scale), s.reference_cpu_seconds)
        for s in trace.steps
        if s.status == "ok"
        and s.reference_cpu_seconds is not None
        and s.reference_cpu_seconds > SLOPE_FLOOR_S
    ]
    return loglog_slope(pts), len(pts)


# ============================================================================ choosing the input


def choose_input(
    candidates: list[Any],
    solutions: dict[str, str],
    target: Target,
    s: Settings,
    slug: str,
) -> tuple[Choice, dict[str, str]]:
    """choose_pe_input over the solutions; a solution that raises (or does not load) on every
    candidate tried is dropped as invalid and the choice is made again without it."""
    dropped: dict[str, str] = {}
    while True:
        remaining = {k: v for k, v in solutions.items() if k not in dropped}
        choice = choose_pe_input(
            candidates,
            remaining,
            target=target,
            cpu_seconds=s.finish_cpu_seconds,
            memory_mb=s.limits.memory_mb,
            sandbox=SANDBOX,
            task=slug,
            max_tries=s.max_candidates,
        )
        if choice.candidate is not None or not remaining:
            return choice, dropped
        raised = {
            r["failed"]: f"{r['status']}: {str(r['detail'])[:120]}"
            for r in choice.tried
            if r["failed"] is not None and r["status"] in ("error", "load-error")
        }
        if not raised:
            return choice, dropped
        for key, why in raised.items():
            log.info("%s: solution %s raises on the candidate inputs, dropped: %s", slug, key, why)
        dropped.update(raised)


# ============================================================================ profiling


@dataclass
class Profile:
    task: str
    solution: str
    method: str
    repeat: int
    wall_s: float
    status: str
    error: str | None
    cost: float | None
    cv: float | None
    cv_classic: float | None
    rounds: int
    calls_per_window: list[int]
    measure_cpu_s: float


def profile_one(
    ptask: ProfileTask,
    code: str,
    name: str,
    method: str,
    repeat: int,
    isolation: iso.Isolation,
) -> Profile:
    measure = OURS_MEASURE if method == "ours" else BASELINE_MEASURE
    started = time.perf_counter()
    res = profile_solution(ptask, code, sandbox=SANDBOX, measure=measure, isolation=isolation)
    wall = time.perf_counter() - started
    fig = figures(res, warmup_rounds=WARMUP_ROUNDS) if res.passed else {}
    cv = fig.get("cv")
    cv_classic = fig.get("cv_classic")
    return Profile(
        ptask.task_id,
        name,
        method,
        repeat,
        wall,
        res.status,
        res.error,
        fig.get("cost"),
        None if cv is None or math.isinf(cv) else cv,
        None if cv_classic is None or math.isinf(cv_classic) else cv_classic,
        int(fig.get("rounds") or 0),
        [1],  # one call per case per pass (fresh processes; no batching any more)
        res.measure_cpu_seconds,
    )


def partition(costs: dict[str, float]) -> tuple[int, frozenset[frozenset[str]]]:
    """(number of clusters, the partition of the solution names) of adaptive_clusters."""
    names = sorted(costs)
    clustering = adaptive_clusters([costs[n] for n in names], w=W_SECONDS)
    groups = frozenset(frozenset(names[i] for i in c.members) for c in clustering.clusters)
    return len(clustering.clusters), groups


def spread(values: Sequence[float]) -> float | None:
    """stdev / mean of a solution's cost across repeats (None below two values)."""
    if len(values) < 2 or statistics.fmean(values) <= 0:
        return None
    return statistics.stdev(values) / statistics.fmean(values)


def pair_agreement(parts: Sequence[frozenset[frozenset[str]]]) -> float | None:
    """Rand index averaged over pairs of repeats: the share of solution pairs that two repeats
    both put in one cluster or both split (1.0: the same partition)."""
    if len(parts) < 2:
        return None
    scores = []
    for a, b in itertools.combinations(parts, 2):
        ca = {n: k for k, g in enumerate(a) for n in g}
        cb = {n: k for k, g in enumerate(b) for n in g}
        names = sorted(set(ca) & set(cb))
        pairs = list(itertools.combinations(names, 2))
        if not pairs:
            continue
        same = sum((ca[x] == ca[y]) == (cb[x] == cb[y]) for x, y in pairs)
        scores.append(same / len(pairs))
    return statistics.fmean(scores) if scores else None


# ============================================================================ per task


@dataclass
class TaskResult:
    slug: str
    solutions: list[str]  # labels "#position"
    duplicates: list[str]
    generators: int
    sas_reason: str | None = None
    ours: list[SamplingRun] = field(default_factory=list)
    baseline: list[SamplingRun] = field(default_factory=list)
    slope: float | None = None
    slope_points: int = 0
    growth: list[dict[str, Any]] = field(default_factory=list)
    candidates: int = 0
    chosen: dict[str, Any] | None = None
    choice_reason: str | None = None
    dropped: dict[str, str] = field(default_factory=dict)
    finish_costs: dict[str, float] = field(default_factory=dict)
    profiled: list[str] = field(default_factory=list)
    profiles: list[Profile] = field(default_factory=list)


def run_task(
    task: dict[str, Any],
    solutions: list[dict[str, Any]],
    s: Settings,
    isolation: iso.Isolation,
    flip: bool,
) -> TaskResult:
    slug = task["slug"]
    ordered = sorted(solutions, key=lambda r: r["position"])
    unique: list[dict[str, Any]] = []
    duplicates: list[str] = []
    seen: set[Any] = set()
    for sol in ordered:
        if sol["hash"] in seen:
            duplicates.append(f"#{sol['position']}")
            continue
        seen.add(sol["hash"])
        unique.append(sol)
    codes = {f"#{sol['position']}": sol["code"] for sol in unique}
    sas = offline_sas(synth_input(Task.model_validate(task), [Solution(**s) for s in unique]))
    out = TaskResult(slug, list(codes), duplicates, len(sas.generators), sas.reason)
    if not sas.generators:
        log.warning("%s: no generator: %s", slug, sas.reason)
        return out
    target = Target.from_meta(task["meta"])
    reference = unique[0]["code"]

    # 1. sampling, ours and the baseline (order alternating per task)
    candidates = []
    for gen in sas.generators:
        first_ours = not flip
        base_run = None
        if not first_ours:
            base_run = sample_baseline(gen.code, gen.index, reference, target, s.limits, slug)
        ours_run, trace = sample_ours(gen.code, gen.index, reference, target, s.limits, slug)
        if base_run is None:
            base_run = sample_baseline(gen.code, gen.index, reference, target, s.limits, slug)
        out.ours.append(ours_run)
        out.baseline.append(base_run)
        candidates += trace.candidates
        if gen.index == sas.generators[0].index:
            out.slope, out.slope_points = reference_slope(trace)
            out.growth = [asdict(step) for step in trace.steps]
    out.candidates = len(candidates)
    if not candidates:
        out.choice_reason = "no candidate input"
        return out

    # 2. the performance-exercising input and the solutions that run on it
    choice, dropped = choose_input(candidates, codes, target, s, slug)
    out.dropped = dropped
    if choice.candidate is None:
        out.choice_reason = choice.reason
        log.warning("%s: %s", slug, choice.reason)
        return out
    c = choice.candidate
    out.chosen = {**c.to_dict(), "tried": len(choice.tried)}
    out.finish_costs = dict(choice.costs)
    out.profiled = [k for k in codes if k in choice.costs]
    ptask = pe_cost_task(
        slug,
        target.entry_point,
        [c.args],
        convert_offline=target.convert_offline,
        difficulty=task.get("difficulty"),
    )

    # 3. profiling, ours and the baseline, interleaved
    for rep in range(s.repeats):
        for k, name in enumerate(out.profiled):
            order = ("ours", "baseline") if (rep + k) % 2 == 0 else ("baseline", "ours")
            for method in order:
                prof = profile_one(ptask, codes[name], name, method, rep, isolation)
                out.profiles.append(prof)
                log.info(
                    "%s %s rep %d %-8s %s cost=%s cv=%s rounds=%d wall=%.2fs%s",
                    slug,
                    name,
                    rep + 1,
                    method,
                    prof.status,
                    fmt_time(prof.cost),
                    fmt_pct(prof.cv),
                    prof.rounds,
                    prof.wall_s,
                    f" error={prof.error}" if prof.error else "",
                )
    return out


# ============================================================================ summaries


def clusters_by_repeat(r: TaskResult, method: str) -> list[tuple[int, frozenset[frozenset[str]]]]:
    out = []
    for rep in range(max((p.repeat for p in r.profiles), default=-1) + 1):
        costs = {
            p.solution: p.cost
            for p in r.profiles
            if p.method == method and p.repeat == rep and p.cost is not None and p.cost > 0
        }
        if costs:
            out.append(partition(costs))
    return out


def task_summary(r: TaskResult, method: str, repeats: int) -> dict[str, Any]:
    mine = [p for p in r.profiles if p.method == method]
    parts = clusters_by_repeat(r, method)
    per_solution = {
        name: [p for p in mine if p.solution == name and p.cost is not None] for name in r.profiled
    }
    spreads = [spread([p.cost for p in ps if p.cost is not None]) for ps in per_solution.values()]
    p99s = []
    for rep in range(repeats):
        cvs_rep = [p.cv for p in mine if p.repeat == rep and p.cv is not None]
        if cvs_rep:
            p99s.append(p99(cvs_rep))
    return {
        "wall_per_pass_s": sum(p.wall_s for p in mine) / max(1, repeats),
        "measure_cpu_per_pass_s": sum(p.measure_cpu_s for p in mine) / max(1, repeats),
        "failed": sum(1 for p in mine if p.cost is None),
        "clusters": [n for n, _ in parts],
        "partitions": len({g for _, g in parts}),
        "pair_agreement": pair_agreement([g for _, g in parts]),
        "median_repeat_spread": median([x for x in spreads if x is not None]),
        "p99_cv": p99s,
    }


def fmt_bytes(n: int | None) -> str:
    if n is None:
        return "-"
    if n >= 2**20:
        return f"{n / 2**20:.1f} MB"
    if n >= 2**10:
        return f"{n / 2**10:.1f} kB"
    return f"{n} B"


def _scale(n: int | None) -> str:
    return "-" if n is None else f"2^{int(math.log2(n))}"


# ============================================================================ tables


def sampling_table(results: Sequence[TaskResult]) -> Table:
    t = table(
        "Exponential input sampling: ours (saturated stop) vs the paper's loop",
        ("task", "left"),
        ("method", "left"),
        "wall",
        "steps",
        ("stop", "left"),
        "last scale",
        "last input",
        "ref. cost there",
        "CPU in steps",
        "wall / step",
        "ref. slope",
    )
    for r in results:
        if not r.ours:
            t.add_row(r.slug, "-", "-", "-", f"no generator ({r.sas_reason})")
            t.add_section()
            continue
        for k, (o, b) in enumerate(zip(r.ours, r.baseline, strict=True)):
            for j, run in enumerate((o, b)):
                slope = (
                    (f"{r.slope:.2f} ({r.slope_points} pts)" if r.slope is not None else "-")
                    if j == 0 and k == 0
                    else ""
                )
                t.add_row(
                    r.slug if j == 0 and k == 0 else "",
                    run.method,
                    f"{run.wall_s:.2f} s",
                    str(run.steps),
                    run.stop,
                    _scale(run.last_scale),
                    fmt_bytes(run.last_input_bytes),
                    fmt_time(run.last_reference_cost),
                    f"{run.step_cpu_s:.2f} s",
                    f"{run.wall_s / max(1, run.steps):.2f} s",
                    slope,
                )
        t.add_section()
    return t


def growth_table(results: Sequence[TaskResult]) -> Table:
    shown = [r for r in results if r.growth][:GROWTH_TASKS]
    t = table(
        "How the cost grows with scale (ours' steps: input, generator CPU, reference)",
        "scale",
        *(
            f"{r.slug}\nbytes" if col == "bytes" else col
            for r in shown
            for col in ("bytes", "gen", "ref")
        ),
    )
    scales = sorted({s["scale"] for r in shown for s in r.growth})
    for scale in scales:
        row = [_scale(scale)]
        for r in shown:
            step = next((s for s in r.growth if s["scale"] == scale), None)
            if step is None:
                row += ["", "", ""]
                continue
            ref = fmt_time(step["reference_cpu_seconds"])
            if step["status"] != "ok":
                ref = step["status"] if step["reference_cpu_seconds"] is None else f"{ref} wall"
            row += [fmt_bytes(step["input_bytes"]), fmt_time(step["generator_cpu_seconds"]), ref]
        t.add_row(*row)
    slopes = ["slope"]
    for r in shown:
        gen = loglog_slope(
            [
                (float(st["scale"]), st["generator_cpu_seconds"])
                for st in r.growth
                if st["status"] == "ok" and (st["generator_cpu_seconds"] or 0) > SLOPE_FLOOR_S
            ]
        )
        slopes += [
            "",
            f"{gen:.2f}" if gen is not None else "-",
            f"{r.slope:.2f}" if r.slope is not None else "-",
        ]
    t.add_section()
    t.add_row(*slopes)
    return t


def choice_table(results: Sequence[TaskResult]) -> Table:
    t = table(
        "The performance-exercising input and the solutions profiled on it",
        ("task", "left"),
        "candidates",
        "chosen",
        "input",
        "ref. cost",
        "tried",
        ("profiled", "left"),
        ("dropped (raise)", "left"),
        ("dupes", "left"),
    )
    for r in results:
        c = r.chosen
        t.add_row(
            r.slug,
            str(r.candidates),
            _scale(c["scale"]) if c else (r.choice_reason or "-")[:60],
            fmt_bytes(c["input_bytes"]) if c else "-",
            fmt_time(c["reference_cost"]) if c else "-",
            str(c["tried"]) if c else "-",
            f"{len(r.profiled)}/{len(r.solutions)}",
            ", ".join(f"{k} ({v.split(':')[0]})" for k, v in r.dropped.items()) or "-",
            ", ".join(r.duplicates) or "-",
        )
    return t


def profiling_table(results: Sequence[TaskResult], repeats: int) -> Table:
    t = table(
        f"Profiling on the chosen input: ours (7-10 rounds) vs one round (base), {repeats} "
        "repeats; wall per pass over the task's solutions; pairs of values: ours / base",
        ("task", "left"),
        "sols",
        "wall ours",
        "base",
        "ratio",
        "clusters ours",
        "base",
        ("partitions", "center"),
        "pair agree",
        "cost spread",
        "P99 robust CV",
    )
    for r in results:
        if not r.profiles:
            continue
        o = task_summary(r, "ours", repeats)
        b = task_summary(r, "baseline", repeats)

        t.add_row(
            r.slug,
            str(len(r.profiled)),
            f"{o['wall_per_pass_s']:.1f} s",
            f"{b['wall_per_pass_s']:.1f} s",
            ratio(o["wall_per_pass_s"], b["wall_per_pass_s"], 1),
            " / ".join(map(str, o["clusters"])),
            " / ".join(map(str, b["clusters"])),
            f"{o['partitions']} / {b['partitions']}",
            f"{fmt_pct(o['pair_agreement'], 0)} / {fmt_pct(b['pair_agreement'], 0)}",
            f"{fmt_pct(o['median_repeat_spread'])} / {fmt_pct(b['median_repeat_spread'])}",
            " / ".join(fmt_pct(x) for x in o["p99_cv"]) or "-",
        )
    return t


def solutions_table(results: Sequence[TaskResult]) -> Table:
    t = table(
        "Per solution: cost (median over repeats), CV over rounds, spread over repeats",
        ("task", "left"),
        ("sol", "left"),
        "ours cost",
        "rounds",
        "calls/win",
        "robust CV",
        "classic CV",
        "spread",
        "baseline cost",
        "CV",
        "spread",
        "o / b",
    )
    for r in results:
        if not r.profiles:
            continue
        for k, name in enumerate(r.profiled):
            row = [r.slug if k == 0 else "", name]
            meds: dict[str, float | None] = {}
            for method in ("ours", "baseline"):
                ps = [p for p in r.profiles if p.solution == name and p.method == method]
                costs = [p.cost for p in ps if p.cost is not None]
                meds[method] = statistics.median(costs) if costs else None
                failed = len(ps) - len(costs)
                cost = fmt_time(meds[method]) + (f" ({failed} failed)" if failed else "")
                if method == "ours":
                    cvs = [p.cv for p in ps if p.cv is not None]
                    cls = [p.cv_classic for p in ps if p.cv_classic is not None]
                    rounds = sorted({p.rounds for p in ps if p.cost is not None})
                    cpw = sorted({c for p in ps for c in p.calls_per_window})
                    row += [
                        cost,
                        "/".join(map(str, rounds)) or "-",
                        "/".join(map(str, cpw)) or "-",
                        fmt_pct(median(cvs)),
                        fmt_pct(median(cls)),
                        fmt_pct(spread(costs)),
                    ]
                else:
                    row += [cost, "n/a", fmt_pct(spread(costs))]
            row.append(ratio(meds["ours"], meds["baseline"], 1).replace("x", ""))
            t.add_row(*row)
        t.add_section()
    return t


# ============================================================================ main


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(
        __doc__,
        verbose=True,
        quick="small walls, 2 repeats: a smoke run",
        repeats="profiles per solution and side",
    )
    p.add_argument("--tasks", type=int, default=None, help="the first N default tasks")
    p.add_argument("--only", default=None, help="comma-separated bundled task slugs instead")
    args = p.parse_args(argv)
    console = start(verbose=args.verbose)
    global W_SECONDS
    from quicksilver.calibration import measure_instruction_rate

    # w = the paper's 10,000 instructions in CPU seconds at this machine's measured rate
    W_SECONDS = w_for_unit("s", instruction_rate=measure_instruction_rate().rate)
    slugs = args.only.split(",") if args.only else list(DEFAULT_TASKS)
    if args.tasks is not None:
        slugs = slugs[: max(1, args.tasks)]
    s = settings(args.quick, args.repeats)
    if s.repeats < 1:
        log.error("--repeats must be at least 1")
        return 2

    records = apply(LOAD, [], source=True, snapshots=[BUNDLED], only=slugs).records
    loaded = {
        "tasks": [r.task.row() for r in records],
        "solutions": [sol.row() for r in records for sol in r.solutions],
    }
    by_slug = {t["slug"]: t for t in loaded["tasks"]}
    missing = [x for x in slugs if x not in by_slug]
    if missing:
        log.error("not in %s: %s", BUNDLED, ", ".join(missing))
        return 2

    isolation = iso.resolve(SANDBOX)
    machine, revision = header(console, f"{isolation.mode} ({isolation.detail})")
    lim = s.limits
    console.print(
        f"[bold]sampling[/]: offline SaS generator, scales 2^{lim.min_scale_exp}..2^"
        f"{lim.max_scale_exp}, {lim.time_wall_seconds:g} s CPU wall per step (generator and "
        f"reference each), {lim.memory_mb} MB, seed {lim.seed}; reference = the first "
        "snapshot solution. [bold]baseline[/]: the paper's loop without the saturated stop, run "
        "for real (one single-step sample_generator per scale, so no input is compared with the "
        "previous one), same limits."
    )
    console.print(
        f"[bold]choice[/]: choose_pe_input, every solution within {s.finish_cpu_seconds:g} s, "
        f"at most {s.max_candidates} candidates; solutions that raise on every candidate tried "
        "are dropped as not valid (answers are not checked: wrong answers that do not raise stay); "
        "exact duplicates (same normalised hash) dropped."
    )
    m = OURS_MEASURE
    console.print(
        f"[bold]profiling ours[/]: rounds {m.min_rounds}-{m.max_rounds} (cpu meter), "
        f"target_rel_ci {m.target_rel_ci}, budget "
        f"{m.budget_seconds:g} s, figures(warmup_rounds={WARMUP_ROUNDS}); [bold]baseline[/]: one "
        f"round of one call (EvalPerf's code). Clusters: adaptive_clusters, bias 0.2, w = "
        f"{W_SECONDS * 1e6:.2f} µs. {s.repeats} repeats per side, interleaved."
    )

    results: list[TaskResult] = []
    started, machine_load = time.perf_counter(), MachineLoad()
    for k, slug in enumerate(slugs):
        sols = [r for r in loaded["solutions"] if r["slug"] == slug]
        t0 = time.perf_counter()
        results.append(run_task(by_slug[slug], sols, s, isolation, flip=k % 2 == 1))
        log.info("%s done in %.1f s", slug, time.perf_counter() - t0)
    elapsed, load = time.perf_counter() - started, machine_load.stop()

    console.print(sampling_table(results))
    for r in results:
        for o, b in zip(r.ours, r.baseline, strict=True):
            if o.stop != "saturated":
                continue
            saved = b.steps - o.steps + 1  # the saturated step, then the rest up to max_scale
            per_step = b.wall_s / max(1, b.steps)
            paper = 26 - int(math.log2(o.trace["steps"][-1]["scale"])) + 1
            console.print(
                f"{r.slug}: saturated at {_scale(o.trace['steps'][-1]['scale'])}; the paper's "
                f"loop ran {saved} more step(s) on the same input ({b.wall_s - o.wall_s:+.2f} s "
                f"here); up to the paper's 2^26 it would run {paper} (~{paper * per_step:.1f} s "
                f"at {per_step:.2f} s per step)."
            )
    console.print(growth_table(results))
    console.print(choice_table(results))
    console.print(profiling_table(results, s.repeats))
    console.print(solutions_table(results))
    sampling_s = sum(r.wall_s for res in results for r in (*res.ours, *res.baseline))
    profiling_s = sum(p.wall_s for res in results for p in res.profiles)
    console.print(
        f"Total bench time {elapsed:.0f} s: sampling {sampling_s:.0f} s (both sides), profiling "
        f"{profiling_s:.0f} s (both sides, {s.repeats} repeats), the rest choosing inputs; "
        f"{MachineLoad.describe(load, int(machine['cores']))}. "
        "'spread' = stdev / mean of a solution's cost across the repeats; 'partitions' = distinct "
        "clusterings over the repeats (1: every repeat clustered the solutions alike); 'pair "
        "agreement' = share of solution pairs two repeats both join or both split (Rand index); "
        "'P99 robust CV' = the selection's stability figure, per repeat; 'ref. slope' = log-log "
        "slope of the "
        f"reference's CPU vs scale over the passing steps above {SLOPE_FLOOR_S * 1e3:g} ms."
    )
    write_json(
        args.json,
        {
            "machine": machine,
            "revision": revision,
            "settings": {
                "limits": s.limits.model_dump(),
                "finish_cpu_seconds": s.finish_cpu_seconds,
                "max_candidates": s.max_candidates,
                "repeats": s.repeats,
                "ours_measure": OURS_MEASURE.model_dump(),
                "baseline_measure": BASELINE_MEASURE.model_dump(),
            },
            "elapsed_seconds": elapsed,
            "machine_load": load,
            "tasks": [
                {
                    **asdict(r),
                    "summary": {m: task_summary(r, m, s.repeats) for m in ("ours", "baseline")},
                }
                for r in results
            ],
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
