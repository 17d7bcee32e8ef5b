"""Meter benchmark: the icount meter, the cpu meter and a Mercury-evaluator baseline, in one run.

All three profile the same solutions of the same tasks, in turn (the order rotates per task and
repeat, so drift of the machine reaches all alike):

- ``icount``: :func:`quicksilver.profiler.profile_many` on all of a task's solutions at once (one
  zygote, one pass each) with the default :class:`~quicksilver.config.MeasureConfig`:
  instructions counted under QEMU, read by the host; deterministic;
- ``cpu``: the same with ``meter="cpu"``: passes repeated in fresh children, interleaved over the
  task's solutions, until the CI95 of the median is within 2% (5 to 64 passes, 20 s budget);
- ``baseline``: what the later Mercury evaluator does (seeds/mercury-eval-readme.txt): one
  sandboxed subprocess per solution that executes the solution and, for every test case, runs
  128 timed iterations of ``Solution().method(*copy.deepcopy(inputs))`` (the copy is outside the
  timed region), timing each call by ``resource.getrusage(RUSAGE_SELF)`` user+sys deltas, and
  reports the per-case mean and a CI95 of the mean (mean +- 1.96 sd / sqrt(n)); runtime = sum over
  cases of the per-case means. It runs under the same bubblewrap command line as ours, so process
  isolation costs the same, and judges the first iteration's output in-process, as Mercury does.

Measured for each: solutions profiled per minute (wall clock; a task's solutions share one
zygote for ours, so its start is spread over them), the median over solutions of the relative
CI95 width (width / runtime), the spread (coefficient of variation) of the runtimes of R
independent profiles of the same solution (median over solutions), and whether the methods rank
each task's solutions alike. A second table lists every solution's runtime by each method.

The tasks (seeded input generators, references, the solutions' sources) are data files under
bench/tasks/, one folder per task (bench/tasks/README.md). Run ``python bench/profiler.py`` (full,
about 10 minutes on 2 cores) or ``--quick`` (a smoke run); ``--json OUT`` dumps every number.
Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from rich.table import Table

from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.profiler import Case, Job, ProfileTask, profile_many
from quicksilver.sandbox import isolation as iso
from quicksilver.stats import coefficient_of_variation

from common import (
    MachineLoad,
    fmt_pct,
    fmt_time,
    header,
    machine_ticks,
    median,
    parser,
    ratio,
    start,
    table,
    write_json,
)

log = logging.getLogger("bench.profiler")

Method = Literal["icount", "cpu", "baseline"]
METHODS: tuple[Method, ...] = ("icount", "cpu", "baseline")
OURS: tuple[Method, ...] = ("icount", "cpu")

BASELINE_ITERATIONS = 128  # per test case, as the Mercury evaluator
BASELINE_TIMEOUT_S = 600.0  # wall time for one baseline subprocess (generous: never hit here)
RESULT_MARK = "@@MERCURY-BASELINE@@"

TASKS_DIR = Path(__file__).resolve().parent / "tasks"
DEFAULT_EVAL: str = ProfileTask("", "", ()).evaluate_offline  # outputs == expected


# ============================================================================ tasks


class TaskFileError(ValueError):
    """A file of bench/tasks/ that is missing or says something the bench cannot use."""


@dataclass(frozen=True)
class BenchTask:
    """A LeetCode-style task: seeded inputs, a trusted reference, solutions to profile."""

    task_id: str
    entry_point: str
    make_inputs: Callable[[random.Random], list[list[Any]]]
    reference: Callable[..., Any]
    solutions: dict[str, str]
    evaluate_offline: str = DEFAULT_EVAL
    note: str = ""

    def build(self, seed: int) -> ProfileTask:
        rng = random.Random(f"{self.task_id}:{seed}")
        cases = tuple(
            Case(inputs, self.reference(*json.loads(json.dumps(inputs))))
            for inputs in self.make_inputs(rng)
        )
        return ProfileTask(
            task_id=self.task_id,
            entry_point=self.entry_point,
            cases=cases,
            evaluate_offline=self.evaluate_offline,
        )


def _toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise TaskFileError(f"{path}: {exc}") from exc


def _names(path: Path, data: dict[str, Any], key: str) -> list[str]:
    """``data[key]``: a list of distinct names."""
    names = data.get(key)
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise TaskFileError(f"{path}: {key!r} must be a list of names")
    if len(set(names)) != len(names):
        raise TaskFileError(f"{path}: {key!r} lists a name twice")
    return names


def _check_listed(path: Path, key: str, listed: list[str], present: set[str], what: str) -> None:
    """Every name ``path`` lists under ``key`` is one of ``present`` (the ``what`` on disk),
    and every one of those is listed."""
    missing, extra = sorted(set(listed) - present), sorted(present - set(listed))
    problems = [f"{key!r} lists {', '.join(missing)}, with no {what}"] if missing else []
    problems += [f"{', '.join(extra)}: {what} that {key!r} does not list"] if extra else []
    if problems:
        raise TaskFileError(f"{path}: {'; '.join(problems)}")


def _function(path: Path, name: str) -> Callable[..., Any]:
    """The function ``name`` that the Python file ``path`` defines, run here, on the bench's
    side (the reference and the input generator; solutions only ever run in the sandbox)."""
    namespace: dict[str, Any] = {"__name__": f"bench.tasks.{path.parent.name}.{path.stem}"}
    try:
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    except OSError as exc:
        raise TaskFileError(f"{path}: {exc}") from exc
    fn = namespace.get(name)
    if not callable(fn):
        raise TaskFileError(f"{path}: defines no function {name}()")
    return fn


def load_task(folder: Path) -> BenchTask:
    """One task folder (bench/tasks/README.md): task.toml, inputs.py, reference.py, the
    solutions' sources as they are written, and the evaluator's if it is not the default."""
    meta_path = folder / "task.toml"
    meta = _toml(meta_path)
    unknown = set(meta) - {"entry_point", "solutions", "note"}
    if unknown:
        raise TaskFileError(f"{meta_path}: unknown key(s) {', '.join(sorted(unknown))}")
    entry_point = meta.get("entry_point")
    if not isinstance(entry_point, str) or not entry_point.isidentifier():
        raise TaskFileError(f"{meta_path}: 'entry_point' must be a method name")
    note = meta.get("note", "")
    if not isinstance(note, str):
        raise TaskFileError(f"{meta_path}: 'note' must be text")
    names = _names(meta_path, meta, "solutions")
    on_disk = {f.stem for f in (folder / "solutions").glob("*.py")}
    _check_listed(meta_path, "solutions", names, on_disk, "solutions/NAME.py")
    evaluator = folder / "evaluate_offline.py"
    return BenchTask(
        task_id=folder.name,
        entry_point=entry_point,
        make_inputs=_function(folder / "inputs.py", "make_inputs"),
        reference=_function(folder / "reference.py", "reference"),
        solutions={
            n: (folder / "solutions" / f"{n}.py").read_text(encoding="utf-8") for n in names
        },
        evaluate_offline=(
            evaluator.read_text(encoding="utf-8") if evaluator.exists() else DEFAULT_EVAL
        ),
        note=note,
    )


def load_tasks(root: Path = TASKS_DIR) -> tuple[list[BenchTask], list[str]]:
    """Every task of ``root``/index.toml in its order, and the ids --quick runs."""
    index_path = root / "index.toml"
    index = _toml(index_path)
    ids = _names(index_path, index, "tasks")
    folders = {d.name for d in root.iterdir() if (d / "task.toml").exists()}
    _check_listed(index_path, "tasks", ids, folders, "task folder (NAME/task.toml)")
    quick = _names(index_path, index, "quick")
    if unknown := sorted(set(quick) - set(ids)):
        raise TaskFileError(f"{index_path}: 'quick' names {', '.join(unknown)}, not in 'tasks'")
    return [load_task(root / task_id) for task_id in ids], quick


# ============================================================================ the baseline

# Runs inside bubblewrap as ``python -I -S -c SCRIPT``; the request arrives on stdin. The names
# Mercury injects into a solution's namespace come from the same prelude as ours (bound
# read-only at /qs/runtime), so both sides load solutions into identical namespaces.
BASELINE_SCRIPT = (
    r"""
import copy, json, math, resource, sys, time
sys.path.insert(0, "/qs/runtime")
from prelude import build_namespace

MARK = "@MARK@"
req = json.loads(sys.stdin.read())
ns = build_namespace()
exec(req["evaluate_offline"], ns)
evaluate = ns["evaluate_offline"]
exec(compile(req["code"], "<solution>", "exec"), ns)
Solution = ns["Solution"]
entry = req["entry_point"]
iterations = req["iterations"]
getrusage, SELF, clock = resource.getrusage, resource.RUSAGE_SELF, time.perf_counter


def ci95(xs):
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def emit(obj):
    sys.stdout.write("\n" + MARK + json.dumps(obj) + "\n")
    sys.stdout.flush()


cases = []
start = getrusage(SELF)
for index, case in enumerate(req["cases"]):
    cpu, wall = [], []
    for it in range(iterations):
        args = copy.deepcopy(case["input"])
        w0 = clock()
        r0 = getrusage(SELF)
        out = getattr(Solution(), entry)(*args)
        r1 = getrusage(SELF)
        w1 = clock()
        cpu.append((r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime))
        wall.append(w1 - w0)
        if it == 0 and not evaluate(args, out, case["expected"]):
            emit({"status": "failed", "case": index})
            sys.exit(0)
    mean, low, high = ci95(cpu)
    wmean, wlow, whigh = ci95(wall)
    ticks = [round(x * 1e6) for x in cpu]
    positive = [t for t in ticks if t > 0]
    cases.append({
        "mean": mean, "ci_low": low, "ci_high": high,
        "wall_mean": wmean, "wall_ci_low": wlow, "wall_ci_high": whigh,
        "n": len(cpu), "zeros": len(cpu) - len(positive),
        "min_positive_us": min(positive) if positive else None,
        "median_us": sorted(ticks)[len(ticks) // 2],
    })
end = getrusage(SELF)
loop_cpu = (end.ru_utime + end.ru_stime) - (start.ru_utime + start.ru_stime)
emit({"status": "passed", "cases": cases, "measure_cpu_seconds": loop_cpu})
"""
).replace("@MARK@", RESULT_MARK)


def baseline_argv(seccomp_fd: int) -> list[str]:
    """The same bubblewrap command line as the profiler's probe, running BASELINE_SCRIPT;
    ``seccomp_fd`` (``iso.seccomp_fd()``) must be passed to bwrap."""
    return [
        *iso.bwrap_argv(seccomp_fd=seccomp_fd),
        str(iso.interpreter()),
        "-I",
        "-S",
        "-c",
        BASELINE_SCRIPT,
    ]


@dataclass
class Profile:
    """One profile of one solution by one method (the numbers both methods share)."""

    method: Method
    task_id: str
    solution: str
    repeat: int
    status: str
    wall_s: float
    host_cpu_s: float  # CPU of this bench process (ours runs its host side here)
    machine_ticks: tuple[int, int]  # (busy, total) jiffies of all cores during the profile
    runtime: float | None = None  # seconds
    ci_low: float | None = None
    ci_high: float | None = None
    error: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def rel_ci_width(self) -> float | None:
        if self.runtime is None or self.ci_low is None or self.ci_high is None:
            return None
        return (self.ci_high - self.ci_low) / self.runtime if self.runtime > 0 else math.inf


def _host_cpu() -> float:
    # RUSAGE_CHILDREN would not do for the sandboxes: a sandbox is killed with its process
    # group, so bwrap never reaps the interpreter and the kernel never adds its CPU to ours.
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


class _Clock:
    """Wall time, this process's CPU and the machine's load over one profile."""

    def __init__(self) -> None:
        self.t0, self.cpu0, self.ticks0 = time.perf_counter(), _host_cpu(), machine_ticks()

    def stop(self) -> tuple[float, float, tuple[int, int]]:
        wall, cpu = time.perf_counter() - self.t0, _host_cpu() - self.cpu0
        busy1, total1, _ = machine_ticks()
        return wall, cpu, (busy1 - self.ticks0[0], total1 - self.ticks0[1])


def run_baseline(task: ProfileTask, code: str, name: str, repeat: int) -> Profile:
    request = json.dumps(
        {
            "code": code,
            "entry_point": task.entry_point,
            "evaluate_offline": task.evaluate_offline,
            "iterations": BASELINE_ITERATIONS,
            "cases": [{"input": c.inputs, "expected": c.expected} for c in task.cases],
        }
    )
    clock = _Clock()
    seccomp_fd = iso.seccomp_fd()
    try:
        proc = subprocess.run(
            baseline_argv(seccomp_fd),
            input=request.encode(),
            capture_output=True,
            timeout=BASELINE_TIMEOUT_S,
            check=False,
            pass_fds=(seccomp_fd,),
        )
    except subprocess.TimeoutExpired:
        return Profile("baseline", task.task_id, name, repeat, "timeout", *clock.stop())
    finally:
        os.close(seccomp_fd)
    wall, cpu, busy = clock.stop()
    lines = [ln for ln in proc.stdout.decode(errors="replace").splitlines() if ln]
    marked = [ln[len(RESULT_MARK) :] for ln in lines if ln.startswith(RESULT_MARK)]
    if proc.returncode != 0 or not marked:
        err = proc.stderr.decode(errors="replace").strip()[-300:]
        return Profile(
            "baseline", task.task_id, name, repeat, "error", wall, cpu, busy, error=err or "?"
        )
    result = json.loads(marked[-1])
    if result["status"] != "passed":
        return Profile(
            "baseline",
            task.task_id,
            name,
            repeat,
            result["status"],
            wall,
            cpu,
            busy,
            error=str(result),
        )
    cases = result["cases"]
    return Profile(
        "baseline",
        task.task_id,
        name,
        repeat,
        "passed",
        wall,
        cpu,
        busy,
        runtime=sum(c["mean"] for c in cases),
        ci_low=sum(c["ci_low"] for c in cases),
        ci_high=sum(c["ci_high"] for c in cases),
        detail={
            "cases": cases,
            "measure_cpu_seconds": result["measure_cpu_seconds"],
            "wall_runtime": sum(c["wall_mean"] for c in cases),
            "wall_ci": [
                sum(c["wall_ci_low"] for c in cases),
                sum(c["wall_ci_high"] for c in cases),
            ],
        },
    )


def run_ours(
    method: Method,
    task: ProfileTask,
    solutions: Sequence[tuple[str, str]],
    repeat: int,
    isolation: iso.Isolation,
) -> list[Profile]:
    """All of a task's solutions in one call (one zygote); wall and host CPU are shared out."""
    measure = MeasureConfig(meter="icount" if method == "icount" else "cpu")
    clock = _Clock()
    results = profile_many(
        [Job(task, code) for _, code in solutions],
        sandbox=SandboxConfig(),
        measure=measure,
        isolation=isolation,
        workers=1,
    )
    wall, cpu, busy = clock.stop()
    n = len(solutions)
    out = []
    for (name, _), res in zip(solutions, results, strict=True):
        prof = Profile(
            method,
            task.task_id,
            name,
            repeat,
            res.status,
            wall / n,
            cpu / n,
            (busy[0] // n, busy[1] // n),
            error=res.error,
        )
        if res.passed and res.runtime is not None and res.runtime_ci is not None:
            prof.runtime = res.runtime
            prof.ci_low, prof.ci_high = res.runtime_ci
            prof.detail = {
                "measure_cpu_seconds": res.measure_cpu_seconds,
                "window_overhead": res.window_overhead,
                "load_cost": res.load_cost,
                "rounds": res.rounds,
                "converged": res.converged,
                "flags": res.flags,
                "charged": res.charged,
                "cases": [
                    {
                        "median": c.median,
                        "ci_low": c.ci_low,
                        "ci_high": c.ci_high,
                        "rounds": c.rounds,
                        "charged": c.charged,
                    }
                    for c in res.cases
                ],
            }
        out.append(prof)
    return out


# ============================================================================ summary


@dataclass
class SolutionSummary:
    task_id: str
    solution: str
    runtime: dict[str, float | None]  # median over the R profiles
    cv: dict[str, float | None]
    rel_ci: dict[str, float | None]  # median over the R profiles
    cross_coverage: dict[str, float | None]
    wall: dict[str, float]  # mean wall seconds per profile
    failures: dict[str, int]


def _cross_coverage(profiles: Sequence[Profile]) -> float | None:
    """Share of ordered pairs (i != j) whose runtime j lies inside profile i's CI95."""
    ok = [p for p in profiles if p.runtime is not None]
    hits = total = 0
    for a in ok:
        for b in ok:
            if a is b or a.ci_low is None or a.ci_high is None or b.runtime is None:
                continue
            total += 1
            hits += a.ci_low <= b.runtime <= a.ci_high
    return hits / total if total else None


def summarise_solution(task_id: str, name: str, profiles: Sequence[Profile]) -> SolutionSummary:
    s = SolutionSummary(task_id, name, {}, {}, {}, {}, {}, {})
    for method in METHODS:
        mine = [p for p in profiles if p.method == method]
        ok = [p for p in mine if p.status == "passed" and p.runtime is not None]
        runtimes = [p.runtime for p in ok if p.runtime is not None]
        widths = [w for p in ok if (w := p.rel_ci_width) is not None]
        s.runtime[method] = median(runtimes)
        s.cv[method] = coefficient_of_variation(runtimes) if len(runtimes) >= 2 else None
        s.rel_ci[method] = median(widths)
        s.cross_coverage[method] = _cross_coverage(ok)
        s.wall[method] = statistics.fmean(p.wall_s for p in mine) if mine else 0.0
        s.failures[method] = len(mine) - len(ok)
    return s


def _ranks(values: Sequence[float]) -> list[int]:
    order = sorted(range(len(values)), key=lambda k: values[k])
    ranks = [0] * len(values)
    for r, k in enumerate(order):
        ranks[k] = r + 1
    return ranks


def summarise(
    profiles: Sequence[Profile], solutions: Sequence[SolutionSummary]
) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for method in METHODS:
        mine = [p for p in profiles if p.method == method]
        wall = sum(p.wall_s for p in mine)
        host_cpu = [p.host_cpu_s for p in mine]
        measure_cpu = [
            float(p.detail["measure_cpu_seconds"])
            for p in mine
            if p.detail.get("measure_cpu_seconds") is not None
        ]
        busy_ticks = sum(p.machine_ticks[0] for p in mine)
        total_ticks = sum(p.machine_ticks[1] for p in mine)
        near = far = counted = 0
        for sol in solutions:
            med = sol.runtime[method]
            if not med:
                continue
            for p in mine:
                if p.task_id == sol.task_id and p.solution == sol.solution and p.runtime:
                    counted += 1
                    near += abs(p.runtime / med - 1) <= 0.05
                    far += p.runtime / med >= 1.3
        wall_widths = [
            (p.detail["wall_ci"][1] - p.detail["wall_ci"][0]) / p.detail["wall_runtime"]
            for p in mine
            if p.detail.get("wall_ci") and p.detail.get("wall_runtime")
        ]
        cvs = [v for s in solutions if (v := s.cv[method]) is not None]
        widths = [v for s in solutions if (v := s.rel_ci[method]) is not None]
        cover = [v for s in solutions if (v := s.cross_coverage[method]) is not None]
        out[method] = {
            "profiles": len(mine),
            "failed_profiles": sum(p.status != "passed" for p in mine),
            "wall_seconds": wall,
            "solutions_per_minute": 60 * len(mine) / wall if wall > 0 else None,
            "wall_seconds_per_solution": wall / len(mine) if mine else None,
            "measure_cpu_seconds_per_solution": statistics.fmean(measure_cpu)
            if measure_cpu
            else None,
            "host_cpu_seconds_per_solution": statistics.fmean(host_cpu) if host_cpu else None,
            "machine_busy_share": busy_ticks / total_ticks if total_ticks > 0 else None,
            "median_rel_ci95_width_wallclock": median(wall_widths),
            "median_rel_ci95_width": median(widths),
            "max_rel_ci95_width": max(widths) if widths else None,
            "median_cv": median(cvs),
            "p90_cv": sorted(cvs)[min(len(cvs) - 1, math.ceil(0.9 * len(cvs)) - 1)]
            if cvs
            else None,
            "max_cv": max(cvs) if cvs else None,
            "median_cross_run_coverage": median(cover),
            "share_within_5pct_of_median": near / counted if counted else None,
            "share_slower_1_3x_median": far / counted if counted else None,
        }
    for method in OURS:
        mine = [p for p in profiles if p.method == method and "rounds" in p.detail]
        out[method]["median_rounds_per_case"] = median([p.detail["rounds"] for p in mine])
        out[method]["median_timed_calls_per_case"] = out[method]["median_rounds_per_case"]
        out[method]["unconverged_profiles"] = sum(bool(p.detail["flags"]) for p in mine)
    out["baseline"]["median_rounds_per_case"] = BASELINE_ITERATIONS
    out["baseline"]["median_timed_calls_per_case"] = BASELINE_ITERATIONS
    out["baseline"]["unconverged_profiles"] = 0
    base_cases = [c for p in profiles if p.method == "baseline" for c in p.detail.get("cases", [])]
    positive = [c["min_positive_us"] for c in base_cases if c["min_positive_us"] is not None]
    n_iter = sum(c["n"] for c in base_cases)
    out["baseline"]["getrusage_min_positive_delta_us"] = min(positive) if positive else None
    out["baseline"]["getrusage_zero_share"] = (
        sum(c["zeros"] for c in base_cases) / n_iter if n_iter else None
    )
    # rank agreement: within each task, do two methods order the solutions the same way?
    by_task: dict[str, list[SolutionSummary]] = {}
    for s in solutions:
        by_task.setdefault(s.task_id, []).append(s)
    out["agreement"] = {}
    for m1, m2 in (("icount", "baseline"), ("cpu", "baseline"), ("icount", "cpu")):
        same = pairs = concordant = 0
        for group in by_task.values():
            if any(s.runtime[m] is None for s in group for m in (m1, m2)):
                continue
            xs = [float(s.runtime[m1] or 0.0) for s in group]
            ys = [float(s.runtime[m2] or 0.0) for s in group]
            same += _ranks(xs) == _ranks(ys)
            for a in range(len(group)):
                for b in range(a + 1, len(group)):
                    pairs += 1
                    concordant += (xs[a] - xs[b]) * (ys[a] - ys[b]) > 0
        out["agreement"][f"{m1}-{m2}"] = {
            "tasks": len(by_task),
            "tasks_same_order": same,
            "solution_pairs": pairs,
            "concordant_pairs": concordant,
        }
    return out


# ============================================================================ output


def fmt_cost(value: float | None, method: str) -> str:
    """Seconds for the cpu meter and the baseline, instructions for icount."""
    if method != "icount":
        return fmt_time(value)
    return "-" if value is None else f"{value:,.0f} instr"


def fmt_num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def fmt_pct2(x: float | None) -> str:
    return fmt_pct(x, 2)


def summary_table(summary: dict[str, dict[str, Any]], repeats: int) -> Table:
    t = table(
        "icount meter, cpu meter and a Mercury-style baseline (same tasks, same run)",
        ("metric", "left"),
        *METHODS,
        "icount / baseline",
        "cpu / baseline",
    )

    def row(label: str, key: str, fmt: Callable[[Any], str], vs_baseline: bool = True) -> None:
        vals = [summary[m].get(key) for m in METHODS]
        base = summary["baseline"].get(key)
        ratios = [ratio(summary[m].get(key), base) if vs_baseline else "" for m in OURS]
        t.add_row(label, *[fmt(v) for v in vals], *ratios)

    row("profiles (solutions x repeats)", "profiles", str, vs_baseline=False)
    row("failed profiles", "failed_profiles", str, vs_baseline=False)
    row("wall time, all profiles", "wall_seconds", lambda v: f"{v:.1f} s")
    row("solutions profiled per minute", "solutions_per_minute", fmt_num)
    row("wall seconds per solution (mean)", "wall_seconds_per_solution", lambda v: fmt_num(v, 2))
    row(
        "measurement CPU s per solution",
        "measure_cpu_seconds_per_solution",
        lambda v: fmt_num(v, 2),
    )
    row(
        "host-side CPU s per solution (bench process)",
        "host_cpu_seconds_per_solution",
        lambda v: fmt_num(v, 2),
        vs_baseline=False,
    )
    row(f"median CV of runtime over {repeats} profiles", "median_cv", fmt_pct2)
    row("P90 CV over solutions", "p90_cv", fmt_pct2, vs_baseline=False)
    row("worst CV over solutions", "max_cv", fmt_pct2, vs_baseline=False)
    row("median relative CI95 width", "median_rel_ci95_width", fmt_pct2)
    row("worst relative CI95 width", "max_rel_ci95_width", fmt_pct2, vs_baseline=False)
    row(
        "profiles within ±5% of their solution's median",
        "share_within_5pct_of_median",
        lambda v: fmt_pct(v, 0),
        vs_baseline=False,
    )
    row(
        "profiles >= 1.3x their solution's median",
        "share_slower_1_3x_median",
        lambda v: fmt_pct(v, 0),
        vs_baseline=False,
    )
    row(
        "cross-run CI coverage (median)",
        "median_cross_run_coverage",
        lambda v: fmt_pct(v, 0),
        vs_baseline=False,
    )
    row(
        "passes / iterations per solution (median)",
        "median_rounds_per_case",
        fmt_num,
        vs_baseline=False,
    )
    row("profiles not converged (flagged)", "unconverged_profiles", str, vs_baseline=False)
    row(
        "all cores busy during the profiles (/proc/stat)",
        "machine_busy_share",
        lambda v: fmt_pct(v, 0),
        vs_baseline=False,
    )
    return t


def solutions_table(solutions: Sequence[SolutionSummary]) -> Table:
    t = table(
        "Per solution: median runtime over the repeats (CV across repeats)",
        ("task", "left"),
        ("solution", "left"),
        *(col for m in METHODS for col in (m, "CV")),
        "cpu/base",
        ("rank i/c/b", "center"),
        "wall i / c / b",
    )
    by_task: dict[str, list[SolutionSummary]] = {}
    for s in solutions:
        by_task.setdefault(s.task_id, []).append(s)
    for task_id, group in by_task.items():
        ranks: dict[str, list[int]] = {}
        for m in METHODS:
            vals = [s.runtime[m] for s in group]
            ranks[m] = _ranks([v if v is not None else math.inf for v in vals])
        for k, s in enumerate(group):
            fails = "".join(f" ({s.failures[m]} failed)" for m in METHODS if s.failures[m])
            cells = []
            for m in METHODS:
                cells += [fmt_cost(s.runtime[m], m), fmt_pct2(s.cv[m])]
            t.add_row(
                task_id if k == 0 else "",
                s.solution + fails,
                *cells,
                ratio(s.runtime["cpu"], s.runtime["baseline"]),
                " / ".join(str(ranks[m][k]) for m in METHODS),
                " / ".join(f"{s.wall[m]:.2f}" for m in METHODS) + " s",
            )
        t.add_section()
    return t


# ============================================================================ main


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(
        __doc__,
        verbose=True,
        quick="3 tasks, 3 repeats: a smoke run",
        repeats="profiles per solution (default 5)",
        seed="seed of the generated test inputs",
    )
    p.add_argument("--tasks", default=None, help="comma-separated task ids (default: all)")
    args = p.parse_args(argv)
    console = start(verbose=args.verbose, width=180)
    repeats = args.repeats or (3 if args.quick else 5)
    if repeats < 2:
        log.error("--repeats must be at least 2 (a CV needs two profiles)")
        return 2
    all_tasks, quick_tasks = load_tasks()
    wanted = args.tasks.split(",") if args.tasks else (quick_tasks if args.quick else None)
    tasks = [t for t in all_tasks if wanted is None or t.task_id in wanted]
    if wanted is not None and len(tasks) != len(wanted):
        known = ", ".join(t.task_id for t in all_tasks)
        log.error("unknown task in %s; known: %s", wanted, known)
        return 2

    measure = MeasureConfig(meter="cpu")
    isolation = iso.resolve(SandboxConfig())
    machine, revision = header(console)
    console.print(
        "[bold]icount[/]: profile_many over a task's solutions, the default MeasureConfig "
        "(one pass each); "
        f"[bold]cpu[/]: the same with meter=cpu (min_rounds={measure.min_rounds}, "
        f"max_rounds={measure.max_rounds}, target_rel_ci={measure.target_rel_ci}, "
        f"budget_seconds={measure.budget_seconds}); isolation: {isolation.mode} "
        f"({isolation.detail})"
    )
    console.print(
        f"[bold]baseline[/]: Mercury-style, {BASELINE_ITERATIONS} iterations per case, "
        "getrusage(RUSAGE_SELF) user+sys per call, mean and mean +- 1.96 sd/sqrt(n), "
        "same bubblewrap argv"
    )

    built: list[tuple[ProfileTask, str, str]] = []
    per_task: list[tuple[ProfileTask, list[tuple[str, str]]]] = []
    for bt in tasks:
        pt = bt.build(args.seed)
        per_task.append((pt, list(bt.solutions.items())))
        for name, code in bt.solutions.items():
            built.append((pt, name, code))
    console.print(
        f"{len(tasks)} tasks, {len(built)} solutions, {repeats} profiles each per method "
        f"({len(METHODS) * repeats * len(built)} profiles)"
    )

    profiles: list[Profile] = []
    started, machine_load = time.perf_counter(), MachineLoad()
    for rep in range(repeats):
        for k, (pt, sols) in enumerate(per_task):
            shift = (rep + k) % len(METHODS)
            for method in METHODS[shift:] + METHODS[:shift]:
                if method == "baseline":
                    got = [run_baseline(pt, code, name, rep) for name, code in sols]
                else:
                    got = run_ours(method, pt, sols, rep, isolation)
                profiles += got
                for prof in got:
                    log.info(
                        "rep %d/%d %-8s %s/%s: %s runtime=%s ci=[%s, %s] wall=%.2fs%s",
                        rep + 1,
                        repeats,
                        method,
                        pt.task_id,
                        prof.solution,
                        prof.status,
                        fmt_cost(prof.runtime, method),
                        fmt_cost(prof.ci_low, method),
                        fmt_cost(prof.ci_high, method),
                        prof.wall_s,
                        f" error={prof.error}" if prof.error else "",
                    )
    elapsed, load = time.perf_counter() - started, machine_load.stop()

    solutions = [
        summarise_solution(
            pt.task_id,
            name,
            [p for p in profiles if p.task_id == pt.task_id and p.solution == name],
        )
        for pt, name, _ in built
    ]
    summary = summarise(profiles, solutions)
    console.print(summary_table(summary, repeats))
    console.print(solutions_table(solutions))
    b = summary["baseline"]
    for pair, agree in summary["agreement"].items():
        console.print(
            f"rank agreement {pair}: {agree['tasks_same_order']}/{agree['tasks']} tasks ordered "
            f"the same, {agree['concordant_pairs']}/{agree['solution_pairs']} solution pairs "
            "concordant."
        )
    console.print(
        f"getrusage: smallest positive per-call delta {b['getrusage_min_positive_delta_us']} µs, "
        f"{fmt_pct2(b['getrusage_zero_share'])} of baseline iterations read 0. "
        f"Total bench time {elapsed:.0f} s; "
        f"{MachineLoad.describe(load, int(machine['cores']))}."
    )
    write_json(
        args.json,
        {
            "machine": machine,
            "revision": revision,
            "isolation": {"mode": isolation.mode, "detail": isolation.detail},
            "measure_config": measure.model_dump(),
            "baseline": {
                "iterations": BASELINE_ITERATIONS,
                "timer": "getrusage(RUSAGE_SELF) user+sys",
            },
            "repeats": repeats,
            "seed": args.seed,
            "tasks": [t.task_id for t in tasks],
            "elapsed_seconds": elapsed,
            "machine_load": load,
            "summary": summary,
            "solutions": [asdict(s) for s in solutions],
            "profiles": [{**asdict(p), "rel_ci_width": p.rel_ci_width} for p in profiles],
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
