"""Scaling benchmark: the sharded stages on a Dask cluster of 1 worker against 2, same shards.

Both builds run in this one run, one after the other (``--order`` alternates), each cold (a
fresh output folder, a new Prefect temporary server, a new local Dask cluster), through the
command line a maintainer uses (``python flows/build_mercury.py --set runner.kind=dask``), on a
handful of bundled questions (``--only``), one question per shard. Only ``runner.workers``
differs. Each worker is one process with one thread and profiles with one thread
(``profile.measure.workers=1``), so a worker is one core's worth of work.

Printed: the sharded phase's wall time (testcases -> uniqueness -> profile, from the first shard
start to the last shard manifest), the seconds of work per stage (summed over shards), the
speed-up and parallel efficiency of 2 workers, and the per-solution cost that plans a full
Mercury build (1,889 tasks, ~35,000 solutions) on N workers. The numbers go in
docs/performance.md.

    python bench/scaling.py                  # ~10-15 minutes on 2 cores
    python bench/scaling.py --order 2-first --json /tmp/scaling.json
"""

from __future__ import annotations

import json
import logging
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from common import header, parser, ratio, run_flow, start, table, write_json

log = logging.getLogger("bench.scaling")

QUESTIONS = (
    "zeroes-to-end",
    "primes-below",
    "reverse-chain",
    "three-color-sort",
    "cluster-anagrams",
    "two-sorted-median",
)
SHARDED = ("testcases", "uniqueness", "profile")
FULL_TASKS = 1_889
FULL_SOLUTIONS = 35_000
PLAN_WORKERS = (1, 2, 8, 32, 64)


def sharded_phase(out: Path) -> dict[str, Any]:
    """The sharded stages' seconds of work (summed over shards), the phase's wall time (first
    shard start, its manifest's time less its seconds, to the last shard manifest), and the
    solutions that entered it."""
    stages: dict[str, float] = {}
    starts, ends = [], []
    solutions = tasks = 0
    for stage in SHARDED:
        for manifest in sorted((out / "stages" / stage).glob("_SUCCESS.shard-*.json")):
            info = json.loads(manifest.read_text())
            seconds = float(info.get("seconds", 0.0))
            stages[stage] = stages.get(stage, 0.0) + seconds
            ends.append(manifest.stat().st_mtime)
            starts.append(manifest.stat().st_mtime - seconds)
            if stage == SHARDED[0]:
                solutions += info["counts"]["solutions_in"]
                tasks += info["counts"]["tasks_in"]
    if not ends:
        raise SystemExit(f"{out}: no shard manifests: the build did not run its sharded stages")
    return {
        "wall": max(ends) - min(starts),
        "work": sum(stages.values()),
        "stages": stages,
        "solutions": solutions,
        "tasks": tasks,
    }


def run_build(workers: int, out: Path, only: Sequence[str], extra: Sequence[str]) -> dict[str, Any]:
    sets = [
        "runner.kind=dask",
        f"runner.workers={workers}",
        "runner.shard_size=1",
        "profile.measure.workers=1",
        f"only={json.dumps(list(only))}",
        *extra,
    ]
    log.info("building with %d worker(s) into %s", workers, out)
    build_wall = run_flow("build_mercury.py", "mercury.yaml", out, sets)
    return {"workers": workers, "build_wall": build_wall, **sharded_phase(out)}


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(__doc__, sets=True)
    p.add_argument("--order", choices=("1-first", "2-first"), default="1-first")
    p.add_argument("--only", default=",".join(QUESTIONS), help="bundled questions, comma-separated")
    args = p.parse_args(argv)
    console = start()
    machine, revision = header(console)
    only = [s for s in args.only.split(",") if s]
    counts = (1, 2) if args.order == "1-first" else (2, 1)
    runs: dict[int, dict[str, Any]] = {}
    root = Path(tempfile.mkdtemp(prefix="qs-bench-scaling-"))
    try:
        for n in counts:
            runs[n] = run_build(n, root / f"workers-{n}", only, args.set)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    one, two = runs[1], runs[2]
    if (one["tasks"], one["solutions"]) != (two["tasks"], two["solutions"]):
        log.warning("the two builds did not shard the same work: %s vs %s", one, two)

    t = table(
        f"Sharded stages on a local Dask cluster: {one['tasks']} tasks, "
        f"{one['solutions']} solutions, one task per shard",
        ("", "left"),
        "1 worker",
        "2 workers",
        "1 / 2",
    )
    for stage in SHARDED:
        a, b = one["stages"].get(stage), two["stages"].get(stage)
        t.add_row(f"{stage} (s of work)", f"{a or 0:.1f}", f"{b or 0:.1f}", ratio(a, b))
    t.add_row("work, all stages (s)", f"{one['work']:.1f}", f"{two['work']:.1f}", "")
    t.add_row(
        "[bold]sharded phase, wall (s)",
        f"{one['wall']:.1f}",
        f"{two['wall']:.1f}",
        ratio(one["wall"], two["wall"]),
    )
    t.add_row("whole build, wall (s)", f"{one['build_wall']:.1f}", f"{two['build_wall']:.1f}", "")
    console.print(t)

    speedup = one["wall"] / two["wall"]
    efficiency = speedup / 2
    per_solution = one["wall"] / one["solutions"]  # worker-seconds per solution, one worker
    console.print(
        f"2 workers: {speedup:.2f}x the throughput of 1 (parallel efficiency {efficiency:.0%}); "
        f"one worker spends [bold]{per_solution:.2f} s per solution[/] "
        f"({one['wall'] / one['tasks']:.1f} s per task) in the sharded stages"
    )
    plan = table(
        f"Planning a full Mercury build ({FULL_TASKS:,} tasks, ~{FULL_SOLUTIONS:,} solutions): "
        f"{per_solution:.2f} worker-s per solution / (N x {efficiency:.0%} efficiency)",
        "workers",
        "sharded phase (hours)",
    )
    hours = {}
    for n in PLAN_WORKERS:
        eff = 1.0 if n == 1 else efficiency
        hours[n] = FULL_SOLUTIONS * per_solution / (n * eff) / 3600
        plan.add_row(str(n), f"{hours[n]:.1f}")
    console.print(plan)
    write_json(
        args.json,
        {
            "revision": revision,
            "machine": machine,
            "runs": runs,
            "speedup": speedup,
            "efficiency": efficiency,
            "seconds_per_solution": per_solution,
            "plan_hours": hours,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
