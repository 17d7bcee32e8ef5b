"""The cost of the profiler's integrity checks: profiling throughput before and after, in one run.

Profiles the solutions of bench/tasks/ (the meter bench's tasks, ``--quick``: its smoke set) with
two checkouts of the library in turn: this one (``after``) and the commit named by ``--before``
(checked out into a temporary git worktree). Each profile runs in a subprocess whose
``sys.path`` starts with its checkout, so the host side, the sandbox's harness and the icount
plugin are that checkout's own; the workload (tasks, seeds, solutions) is the same for both.
The order alternates per repeat (before, after, after, before, ...), so drift of the machine
reaches both alike; compare the ratios, never absolute times across runs.

Printed per meter: solutions profiled per minute (median over repeats) before and after and
their ratio, the host CPU both spent, and how far the figures moved (icount: each solution's
count after / before; cpu: the median over solutions of that ratio, which is noise). Results go
to docs/performance.md.

    python bench/checks.py --before 5658634 [--quick] [--repeats 3] [--meters icount,cpu]
"""

from __future__ import annotations

import json
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import REPO, MachineLoad, header, parser, ratio, start, table, write_json

log = logging.getLogger("bench.checks")

# Runs in a subprocess with sys.path[0] = the checkout under test: profiles every solution of
# the named tasks (one zygote per task, as scoring does) and prints one JSON line.
DRIVER = r"""
import json, resource, sys, time
tree, bench, meter, quick = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
sys.path[:0] = [tree, bench]
from profiler import load_tasks
from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.profiler import Job, profile_many
tasks, quick_ids = load_tasks()
if quick:
    tasks = [t for t in tasks if t.task_id in quick_ids]
jobs = []
for t in tasks:
    ptask = t.build(0)
    jobs += [Job(ptask, code, f"{t.task_id}/{name}") for name, code in t.solutions.items()]
measure = MeasureConfig(meter=meter) if meter == "icount" else MeasureConfig(
    meter=meter, min_rounds=5, max_rounds=12, budget_seconds=10.0)
t0 = time.perf_counter()
results = profile_many(jobs, sandbox=SandboxConfig(), measure=measure, workers=1)
wall = time.perf_counter() - t0
me = resource.getrusage(resource.RUSAGE_SELF)
print("@@CHECKS@@" + json.dumps({
    "wall_s": wall,
    "host_cpu_s": me.ru_utime + me.ru_stime,
    "solutions": len(jobs),
    "runtimes": {j.key: r.runtime for j, r in zip(jobs, results)},
    "statuses": {j.key: r.status for j, r in zip(jobs, results)},
}))
"""


def _worktree(rev: str, where: Path) -> Path:
    subprocess.run(
        ["git", "-C", str(REPO), "worktree", "add", "--detach", str(where), rev],
        check=True,
        capture_output=True,
    )
    return where


def _profile(tree: Path, meter: str, quick: bool) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, str(tree), str(REPO / "bench"), meter, str(int(quick))],
        capture_output=True,
        text=True,
        cwd=tree,
        check=False,
    )
    marked = [ln for ln in proc.stdout.splitlines() if ln.startswith("@@CHECKS@@")]
    if proc.returncode != 0 or not marked:
        tail = "\n".join(proc.stderr.strip().splitlines()[-12:])
        raise SystemExit(f"profiling with {tree} ({meter}) failed:\n{tail}")
    return json.loads(marked[-1][len("@@CHECKS@@") :])


def _moved(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> dict[str, float]:
    """Each solution's figure after / before (median over repeats of each side)."""
    out: dict[str, float] = {}
    for key in before[0]["runtimes"]:
        b = [r["runtimes"].get(key) for r in before]
        a = [r["runtimes"].get(key) for r in after]
        b_ok = [x for x in b if x]
        a_ok = [x for x in a if x]
        if b_ok and a_ok:
            out[key] = statistics.median(a_ok) / statistics.median(b_ok)
    return out


def main() -> None:
    p = parser(__doc__, quick="the meter bench's smoke set of tasks", repeats="runs per side")
    p.add_argument("--before", required=True, help="the commit to compare with (git rev)")
    p.add_argument("--meters", default="icount,cpu", help="comma-separated (icount,cpu)")
    args = p.parse_args()
    console = start()
    machine, revision = header(console)
    repeats = args.repeats or (1 if args.quick else 2)
    meters = [m for m in args.meters.split(",") if m]
    numbers: dict[str, Any] = {"revision": revision, "before": args.before, "machine": machine}
    load = MachineLoad()
    with tempfile.TemporaryDirectory(prefix="qs-checks-") as tmp:
        before_tree = _worktree(args.before, Path(tmp) / "before")
        trees = {"before": before_tree, "after": REPO}
        try:
            runs: dict[str, dict[str, list[dict[str, Any]]]] = {}
            for meter in meters:
                runs[meter] = {"before": [], "after": []}
                for rep in range(repeats):
                    order = ("before", "after") if rep % 2 == 0 else ("after", "before")
                    for side in order:
                        t0 = time.perf_counter()
                        got = _profile(trees[side], meter, args.quick)
                        runs[meter][side].append(got)
                        log.info(
                            "%s %s #%d: %d solutions in %.1f s",
                            meter,
                            side,
                            rep + 1,
                            got["solutions"],
                            time.perf_counter() - t0,
                        )
        finally:
            subprocess.run(
                ["git", "-C", str(REPO), "worktree", "remove", "--force", str(before_tree)],
                check=False,
                capture_output=True,
            )
    t = table(
        f"Profiling throughput before ({args.before}) and after ({revision}), one run",
        ("meter", "left"),
        "solutions",
        "before /min",
        "after /min",
        "after / before",
        "host CPU before",
        "host CPU after",
        "figures moved (median after/before)",
        "largest move",
        ("statuses changed", "left"),
    )
    for meter, sides in runs.items():
        rate = {
            side: statistics.median(r["solutions"] / r["wall_s"] * 60 for r in sides[side])
            for side in sides
        }
        cpu = {side: statistics.median(r["host_cpu_s"] for r in sides[side]) for side in sides}
        moved = _moved(sides["before"], sides["after"])
        largest = max(moved.items(), key=lambda kv: abs(kv[1] - 1)) if moved else None
        changed = sorted(
            k
            for k, v in sides["before"][0]["statuses"].items()
            if sides["after"][0]["statuses"].get(k) != v
        )
        t.add_row(
            meter,
            str(sides["after"][0]["solutions"]),
            f"{rate['before']:.1f}",
            f"{rate['after']:.1f}",
            ratio(rate["after"], rate["before"]),
            f"{cpu['before']:.1f} s",
            f"{cpu['after']:.1f} s",
            ratio(statistics.median(moved.values()), 1.0, 4) if moved else "-",
            f"{largest[0]} {largest[1]:.4f}x" if largest else "-",
            ", ".join(changed) or "none",
        )
        numbers[meter] = {"runs": sides, "per_minute": rate, "host_cpu_s": cpu, "moved": moved}
    console.print(t)
    numbers["load"] = load.stop()
    console.print(MachineLoad.describe(numbers["load"], int(machine.get("cores") or 1)))
    console.print(
        "solutions per minute: wall clock of the whole profile (zygote start, calibration, "
        f"verdicts, rounds), one worker; median over {repeats} run(s) per side"
    )
    write_json(args.json, numbers)


if __name__ == "__main__":
    main()
