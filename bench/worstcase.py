"""Offline worst-case input search against max-size random inputs, on the bundled DPE corpus.

For each task of the bundled corpus that the offline perf synthesizer writes a generator for
(``--max-tasks N``: the first N of them, ``--only SLUGS``), both ways in one run, with the same
generator, seed, walls, sandbox and solutions:

- ``random``: the generator as the offline synthesizer writes it (every size as large as
  allowed, random values), sampled with the scale doubling
  (:func:`quicksilver.dpe.sampling.sample_generator`);
- ``search``: :func:`quicksilver.dpe.worstcase.search_worst_case` first (structured variants at
  ``2**scale_exp``, costed with icount on the first 3 solutions), then the winner sampled the
  same way (the random generator again if the winner gives no input, as the build does).

Then, per side: the performance-exercising input (:func:`quicksilver.dpe.choosing.choose_pe_input`:
the most expensive candidate every solution finishes within ``finish_cpu_seconds``; a solution
that raises on every candidate is dropped as invalid, answers are not checked), every remaining
solution profiled on it with the icount meter (one pass: exact counts), the adaptive clusters
(bias 0.2, w = 10,000 instructions) and EvalPerf's selection (at least 4 solutions, the fastest
above 10,000 instructions, at least 4 clusters; CV is 0 under icount).

Printed: per task the pattern chosen and its gain at the search scale, the chosen input's scale
and its cost for the reference (icount), the clusters, whether the task passes selection, each
way; then totals. The walls are lower than configs/dpe.yaml's (``--wall``, ``--finish``,
``--max-scale-exp``) to keep the run short; the icount counts are exact, so a busy machine only
moves the CPU-time walls. Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import logging
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from quicksilver.clustering import adaptive_clusters
from quicksilver.config import (
    MeasureConfig,
    SamplingSection,
    SandboxConfig,
    SandboxLimits,
    SelectionSection,
    WorstCaseSection,
)
from quicksilver.dpe.choosing import (
    choose_pe_input,
)
from quicksilver.dpe.sampling import (
    Candidate,
    Target,
    sample_generator,
)
from quicksilver.dpe.sas import offline_sas
from quicksilver.dpe.select import pe_cost_task
from quicksilver.dpe.worstcase import search_worst_case, separation_for
from quicksilver.pipeline.records import Solution, Task
from quicksilver.pipeline.runner import apply
from quicksilver.profiler import profile_solution
from quicksilver.stages.generators import synth_input
from quicksilver.stages.load import LOAD

from common import BUNDLED, MachineLoad, header, parser, start, table, write_json

log = logging.getLogger("bench.worstcase")

SANDBOX = SandboxConfig(limits=SandboxLimits(cpu_seconds=60, memory_mb=4096, recursion_limit=10000))
SEED = 20260501  # configs/dpe.yaml sampling.seed
W_INSTRUCTIONS = 10_000.0  # the paper's w
MIN_COST = 10_000.0  # the paper's too-cheap bound
MIN_SOLUTIONS = 4  # configs/dpe.yaml selection.min_solutions
MIN_CLUSTERS = 4
METHODS = ("random", "search")


@dataclass
class Side:
    """One way (random or search) on one task."""

    method: str
    pattern: str = "random"
    gain: float | None = None  # the pattern's cost ratio vs random at the search scale
    search_s: float = 0.0
    sampling_s: float = 0.0
    stop: str | None = None
    scale: int | None = None
    input_bytes: int | None = None
    reference_cost: float | None = None  # icount, the reference on the chosen input
    costs: dict[str, float] = field(default_factory=dict)  # icount per solution
    clusters: int | None = None
    selected: bool = False
    why: str | None = None  # why not selected
    dropped: list[str] = field(default_factory=list)
    search: dict[str, Any] | None = None


def choose(
    candidates: list[Candidate],
    codes: dict[str, str],
    target: Target,
    finish: float,
    slug: str,
) -> tuple[Candidate | None, list[str], str | None]:
    """choose_pe_input; solutions that raise on every candidate tried are dropped and it runs
    again (the bench has no correctness stage)."""
    dropped: list[str] = []
    while True:
        remaining = {k: v for k, v in codes.items() if k not in dropped}
        choice = choose_pe_input(
            candidates,
            remaining,
            target=target,
            cpu_seconds=finish,
            memory_mb=4096,
            sandbox=SANDBOX,
            task=slug,
            max_tries=24,
        )
        if choice.candidate is not None or not remaining:
            return choice.candidate, dropped, choice.reason
        raised = [
            r["failed"]
            for r in choice.tried
            if r["failed"] is not None and r["status"] in ("error", "load-error")
        ]
        if not raised:
            return None, dropped, choice.reason
        dropped += [k for k in raised if k not in dropped]


def run_side(
    method: str,
    code: str,
    codes: dict[str, str],
    target: Target,
    limits: SamplingSection,
    section: WorstCaseSection,
    finish: float,
    slug: str,
) -> Side:
    side = Side(method)
    original = code
    reference = next(iter(codes.values()))
    if method == "search":
        t0 = time.perf_counter()
        res = search_worst_case(
            code,
            index=0,
            solutions=codes,
            target=target,
            section=section,
            seed=SEED,
            memory_mb=4096,
            sandbox=SANDBOX,
            task=slug,
            separation=separation_for(SelectionSection(), section.meter),
        )
        side.search_s = time.perf_counter() - t0
        side.search = res.to_dict()
        side.pattern, side.gain = res.label, res.ratio
        code = res.code
    t0 = time.perf_counter()
    trace = sample_generator(
        code, index=0, reference_code=reference, target=target, limits=limits, sandbox=SANDBOX
    )
    if method == "search" and side.pattern != "random" and not trace.candidates:
        side.pattern = f"random (fallback from {side.pattern})"
        trace = sample_generator(
            original,
            index=0,
            reference_code=reference,
            target=target,
            limits=limits,
            sandbox=SANDBOX,
        )
    side.sampling_s = time.perf_counter() - t0
    side.stop = trace.stop
    if not trace.candidates:
        side.why = f"no input ({trace.stop})"
        return side
    cand, dropped, reason = choose(trace.candidates, codes, target, finish, slug)
    side.dropped = dropped
    if cand is None:
        side.why = f"no common input: {str(reason)[:80]}"
        return side
    side.scale, side.input_bytes = cand.scale, cand.input_bytes
    ptask = pe_cost_task(
        slug, target.entry_point, [cand.args], convert_offline=target.convert_offline
    )
    measure = MeasureConfig(meter="icount", min_rounds=1, max_rounds=1)
    for key, sol in codes.items():
        if key in dropped:
            continue
        res_p = profile_solution(ptask, sol, meter="icount", sandbox=SANDBOX, measure=measure)
        if res_p.passed and res_p.runtime is not None:
            side.costs[key] = float(res_p.runtime)
    side.reference_cost = side.costs.get(next(iter(codes)))
    if len(side.costs) < MIN_SOLUTIONS:
        side.why = f"too-few-solutions ({len(side.costs)})"
        return side
    clustering = adaptive_clusters(list(side.costs.values()), w=W_INSTRUCTIONS)
    side.clusters = len(clustering.clusters)
    if min(side.costs.values()) <= MIN_COST:
        side.why = "too-cheap"
    elif side.clusters < MIN_CLUSTERS:
        side.why = "too-few-clusters"
    else:
        side.selected = True
    return side


def fmt_count(x: float | None) -> str:
    return "-" if x is None else f"{x:.3g}"


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(__doc__, verbose=True)
    p.add_argument("--max-tasks", type=int, default=None, help="the first N tasks with a generator")
    p.add_argument("--only", default=None, help="comma-separated bundled task slugs")
    p.add_argument("--wall", type=float, default=0.5, help="CPU wall per sampling step (s)")
    p.add_argument("--finish", type=float, default=1.0, help="every solution within this (s)")
    p.add_argument("--max-scale-exp", type=int, default=17, help="last scale 2**N")
    p.add_argument(
        "--scale-exp", type=int, default=None, help="search scale 2**N (default: config)"
    )
    p.add_argument(
        "--rule",
        choices=("separation", "cost"),
        default=None,
        help="how the search ranks variants (default: config)",
    )
    p.add_argument(
        "--solutions", type=int, default=None, help="solutions the variants are costed on"
    )
    args = p.parse_args(argv)
    console = start(verbose=args.verbose)
    limits = SamplingSection(
        time_wall_seconds=args.wall,
        memory_mb=4096,
        min_scale_exp=1,
        max_scale_exp=args.max_scale_exp,
        seed=SEED,
    )
    overrides = {
        "scale_exp": args.scale_exp,
        "rule": args.rule,
        "solutions": args.solutions,
    }
    section = WorstCaseSection(**{k: v for k, v in overrides.items() if v is not None})
    only = args.only.split(",") if args.only else None
    records = apply(LOAD, [], source=True, snapshots=[BUNDLED], only=only).records
    machine, revision = header(console, None)
    console.print(
        f"sampling: scales 2^1..2^{args.max_scale_exp}, {args.wall:g} s CPU wall per step, "
        f"seed {SEED}; every solution within {args.finish:g} s; search at 2^{section.scale_exp} "
        f"on {section.solutions} solutions ({section.meter}, rule {section.rule}), "
        f"min gain {section.min_gain:g}x, "
        f"combine {section.combine}; profiling: icount, one pass; clusters bias 0.2, w 10,000 "
        f"instructions; selection: >= {MIN_SOLUTIONS} solutions, fastest > 10,000 instructions, "
        f">= {MIN_CLUSTERS} clusters."
    )
    rows: list[dict[str, Any]] = []
    started, load = time.perf_counter(), MachineLoad()
    for record in records:
        if args.max_tasks is not None and len(rows) >= args.max_tasks:
            break
        slug = record.slug
        seen: set[int] = set()
        sols: list[Solution] = []
        for s in sorted(record.solutions, key=lambda s: s.position):
            if s.hash not in seen:
                seen.add(s.hash)
                sols.append(s)
        sas = offline_sas(synth_input(Task.model_validate(record.task.row()), sols))
        if not sas.generators:
            continue
        codes = {f"#{s.position}": s.code for s in sols}
        target = Target.from_meta(record.task.meta)
        t0 = time.perf_counter()
        sides = {}
        for method in METHODS:
            sides[method] = run_side(
                method,
                sas.generators[0].code,
                codes,
                target,
                limits,
                section,
                args.finish,
                slug,
            )
        r, s = sides["random"], sides["search"]
        log.info(
            "%s done in %.1f s: pattern %s (%s); reference cost random %s, search %s; "
            "clusters %s / %s; selected %s / %s",
            slug,
            time.perf_counter() - t0,
            s.pattern,
            s.gain,
            fmt_count(r.reference_cost),
            fmt_count(s.reference_cost),
            r.clusters,
            s.clusters,
            r.selected or r.why,
            s.selected or s.why,
        )
        rows.append({"task": slug, **{m: asdict(s) for m, s in sides.items()}})
    elapsed, busy = time.perf_counter() - started, load.stop()

    t = table(
        "Worst-case search vs max-size random (reference cost on the chosen input, icount)",
        ("task", "left"),
        ("pattern (search)", "left"),
        "gain@search",
        "scale r/s",
        "ref. cost random",
        "ref. cost search",
        "search/random",
        "clusters r/s",
        ("selected r/s", "left"),
    )
    for row in rows:
        r, s = row["random"], row["search"]
        rc, sc = r["reference_cost"], s["reference_cost"]
        t.add_row(
            row["task"],
            s["pattern"],
            "-" if s["gain"] is None else f"{s['gain']:.2f}x",
            f"{r['scale'] or '-'} / {s['scale'] or '-'}",
            fmt_count(rc),
            fmt_count(sc),
            "-" if not rc or sc is None else f"{sc / rc:.2f}x",
            f"{r['clusters'] or '-'} / {s['clusters'] or '-'}",
            f"{'yes' if r['selected'] else r['why']} / {'yes' if s['selected'] else s['why']}",
        )
    console.print(t)
    summary = {}
    for m in METHODS:
        sel = [row for row in rows if row[m]["selected"]]
        clusters = [row[m]["clusters"] for row in rows if row[m]["clusters"]]
        summary[m] = {
            "tasks": len(rows),
            "selected": len(sel),
            "clusters_total": sum(clusters),
            "clusters_mean": statistics.mean(clusters) if clusters else None,
            "clusters_mean_selected": (
                statistics.mean(row[m]["clusters"] for row in sel) if sel else None
            ),
            "search_s": sum(row[m]["search_s"] for row in rows),
            "sampling_s": sum(row[m]["sampling_s"] for row in rows),
        }
    both = [
        row
        for row in rows
        if row["random"]["reference_cost"] and row["search"]["reference_cost"] is not None
    ]
    ratios = [row["search"]["reference_cost"] / row["random"]["reference_cost"] for row in both]
    s2 = table("Totals", ("", "left"), "random", "search")
    for label, key, fmt in (
        ("tasks passing selection", "selected", "{}"),
        ("clusters (all profiled tasks)", "clusters_total", "{}"),
        ("clusters per profiled task", "clusters_mean", "{:.2f}"),
        ("clusters per selected task", "clusters_mean_selected", "{:.2f}"),
        ("search CPU+wall s", "search_s", "{:.0f}"),
        ("sampling wall s", "sampling_s", "{:.0f}"),
    ):
        s2.add_row(
            label,
            *("-" if summary[m][key] is None else fmt.format(summary[m][key]) for m in METHODS),
        )
    console.print(s2)
    patterns = [row for row in rows if not row["search"]["pattern"].startswith("random")]
    if ratios:
        console.print(
            f"{len(rows)} tasks; the search chose a structured pattern on {len(patterns)}; "
            f"reference cost on the chosen input, search / random: geometric mean "
            f"{statistics.geometric_mean(ratios):.2f}x over {len(ratios)} tasks with both, "
            f"higher on {sum(x > 1.0001 for x in ratios)}, equal on "
            f"{sum(abs(x - 1) <= 1e-4 for x in ratios)}, lower on "
            f"{sum(x < 0.9999 for x in ratios)}. Bench {elapsed:.0f} s; "
            f"{MachineLoad.describe(busy, int(machine['cores']))}. Revision {revision}."
        )
    write_json(
        args.json,
        {
            "machine": machine,
            "revision": revision,
            "settings": {
                "limits": limits.model_dump(),
                "finish_cpu_seconds": args.finish,
                "worst_case": section.model_dump(),
                "seed": SEED,
            },
            "elapsed_seconds": elapsed,
            "machine_load": busy,
            "summary": summary,
            "tasks": rows,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
