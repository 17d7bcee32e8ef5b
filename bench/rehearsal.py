"""A full-size rehearsal: hundreds of real questions through the Mercury build, on Dask with two
local workers, and what a 1,889-task build would cost (issue 29 item 4).

Draws ``--n`` questions (seeded, ``--seed``) from public LeetCode corpora mirrored locally
(bench/real_leetcode.py's pool: doocs/leetcode's statements, walkccc's and neetcode's solutions
beside doocs'), writes them as a snapshot folder under ``--out`` (never under the repository),
then runs three builds with the shipped configs/mercury.yaml through the command line a
maintainer uses, each with ``runner.kind=dask`` and ``runner.workers=2``, all reporting to one
Prefect server the bench starts (as ``make ui`` does) so that their task runs can be read back:

1. **half**: a seeded half of the draw (``--half``) through the cheap stages (load, dedup,
   filters, generators: ``--set until=generators``);
2. **full**: the whole draw through the same stages;
3. **sample**: ``--sample`` tasks drawn (seeded) from what came out of full's generators stage,
   through the whole build (the sandbox stages testcases, uniqueness and profile, then splits and
   publish).

Printed, from the builds' own manifests and files:

- per stage: seconds of work (summed over shards), seconds per task and per solution that went
  in, the stage files' size on disk (records and rejects), bytes per task, the same had every
  record been written in full (before a field a stage passes on unchanged was written as a
  reference: bench/stage_bytes.py), and how many of the bytes on disk are ``generator`` fields;
- half against full for the cheap stages: the ratio of seconds per task (1.00x is linear);
- what a shard of the first sandbox stage costs before its work starts, at both sizes: the key
  (a fresh runner, as Prefect's cache key and the stage run each make one) and reading the shard's
  records from the generators stage's one file;
- the Prefect server's overhead per task run, two ways: (a) the same no-op function called bare
  and as a Prefect task run, 200 times, on the bench's server; (b) in the builds, each task run's
  wall time (Prefect's start and end) less the seconds the stage's manifest records;
- memory: the peak resident set of the Prefect server, the build's flow process, each Dask
  worker and the sandboxes (sampled once a second from /proc with psutil);
- the projected wall time of a 1,889-task, 35,000-solution build on N workers (the model is
  printed with it and in docs/performance.md).

    python bench/rehearsal.py --corpora /work/.mirror --n 500 --seed 1       # ~20-30 minutes
    python bench/rehearsal.py --corpora /work/.mirror --n 40 --half 20 --sample 4   # a smoke run

``--set KEY=VALUE`` is passed on to every build (``profile.measure.meter=cpu``: faster).
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common import REPO, header, parser, ratio, run_flow, start, table, write_json
from stage_bytes import stage_bytes

log = logging.getLogger("bench.rehearsal")

CHEAP = ("load", "dedup", "filters", "generators")
SHARDED = ("testcases", "uniqueness", "profile")
AFTER = ("splits", "publish")
FULL_TASKS = 1_889
FULL_SOLUTIONS = 35_000
PLAN_WORKERS = (1, 2, 8, 32)
NOOP_RUNS = 200
NO_INDEX = ", whole file (no index)"
MIRRORS = ("doocs+leetcode", "walkccc+LeetCode", "neetcode-gh+leetcode")

# ============================================================================ the stage files


@dataclass
class StageCost:
    """One stage of one build, from its manifests and files."""

    stage: str
    seconds: float  # of work, summed over shards
    tasks_in: int
    solutions_in: int
    tasks_out: int
    solutions_out: int
    bytes: int  # records and rejects files on disk
    generator_bytes: int  # of the records files: the ``generator`` field, as JSON
    shards: int  # manifests (1 for a whole-build stage)
    # the same files had every record been written in full, as before references
    # (quicksilver/pipeline/refs.py; bench/stage_bytes.py): 0 when not measured
    full_bytes: int = 0

    @property
    def per_task(self) -> float | None:
        return self.seconds / self.tasks_in if self.tasks_in else None

    @property
    def per_solution(self) -> float | None:
        return self.seconds / self.solutions_in if self.solutions_in else None

    @property
    def bytes_per_task(self) -> float | None:
        """Bytes on disk per task that went in (records of kept tasks and rejects of dropped
        ones both scale with what went in)."""
        return self.bytes / self.tasks_in if self.tasks_in else None


def _generator_bytes(path: Path) -> int:
    """Bytes of the ``generator`` field (as the record writes it) in one records file."""
    total = 0
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                gen = json.loads(line).get("generator")
                if gen is not None:
                    total += len(json.dumps(gen, ensure_ascii=False, sort_keys=True).encode())
    return total


def _full_bytes(folder: Path, on_disk: int) -> int:
    """The stage's files' bytes had its records copied every field, not referred to it."""
    sb = stage_bytes(folder)
    return on_disk - sb.on_disk + sb.full


def stage_costs(out: Path, stages: Sequence[str]) -> list[StageCost]:
    """Every stage of ``stages`` that finished in the build at ``out`` (manifests merged over
    shards), with its files' size."""
    rows = []
    for stage in stages:
        folder = out / "stages" / stage
        manifests = sorted(folder.glob("_SUCCESS*.json")) if folder.is_dir() else []
        if not manifests:
            continue
        infos = [json.loads(m.read_text()) for m in manifests]
        files = [p for p in folder.glob("*.jsonl")]
        records = [p for p in files if not p.name.endswith("rejects.jsonl")]
        rows.append(
            StageCost(
                stage=stage,
                seconds=sum(float(i.get("seconds", 0.0)) for i in infos),
                tasks_in=sum(i["counts"]["tasks_in"] for i in infos),
                solutions_in=sum(i["counts"]["solutions_in"] for i in infos),
                tasks_out=sum(i["counts"]["tasks_out"] for i in infos),
                solutions_out=sum(i["counts"]["solutions_out"] for i in infos),
                bytes=sum(p.stat().st_size for p in files),
                full_bytes=_full_bytes(folder, sum(p.stat().st_size for p in files)),
                generator_bytes=sum(_generator_bytes(p) for p in records),
                shards=len(manifests),
            )
        )
    return rows


# ============================================================================ the projection


@dataclass
class Projection:
    """A full build's wall time on N workers, from measured unit costs (module docstring of
    docs/performance.md's section says the same):

    wall(N) = cheap_per_task x tasks                 (the flow process, one stage after another)
            + sharded_per_solution x solutions / N   (the sandbox stages, shards spread evenly)
            + shard_overhead x shards x stages / N   (a shard's key and input before its work)
            + after_per_task x tasks                 (splits and publish, in the flow process)
            + prefect_per_run x task_runs            (the server, one run after another)
    """

    cheap_per_task: float
    sharded_per_solution: float
    after_per_task: float
    prefect_per_run: float
    shard_overhead: float  # seconds per shard-stage run at ``tasks`` tasks
    tasks: int = FULL_TASKS
    solutions: int = FULL_SOLUTIONS
    shard_size: int = 4

    @property
    def shards(self) -> int:
        return -(-self.tasks // self.shard_size)

    @property
    def task_runs(self) -> int:
        return len(CHEAP) + len(AFTER) + self.shards * len(SHARDED)

    def terms(self, workers: int) -> dict[str, float]:
        return {
            "cheap": self.cheap_per_task * self.tasks,
            "sharded": self.sharded_per_solution * self.solutions / workers,
            "shard_overhead": self.shard_overhead * self.shards * len(SHARDED) / workers,
            "after": self.after_per_task * self.tasks,
            "prefect": self.prefect_per_run * self.task_runs,
        }

    def wall(self, workers: int) -> float:
        return sum(self.terms(workers).values())


def per_unit(rows: Iterable[StageCost], stages: Sequence[str], unit: str) -> float:
    """Seconds per task (``unit="task"``) or per solution summed over ``stages``: each stage's
    seconds over what went into it."""
    total = 0.0
    for row in rows:
        if row.stage in stages:
            each = row.per_task if unit == "task" else row.per_solution
            total += each or 0.0
    return total


def scaled_overhead(measured: float, at_tasks: int, tasks: int = FULL_TASKS) -> float:
    """A shard's input cost grows with the whole generators file (every shard reads and keys
    it): linear in the build's tasks, so ``measured`` at ``at_tasks`` scales to ``tasks``."""
    return measured * tasks / at_tasks if at_tasks else 0.0


# ============================================================================ Prefect overhead


def task_run_overheads(
    runs: Iterable[tuple[str, float | None, float | None]], out: Path
) -> list[float]:
    """Each finished task run's wall time (Prefect's start and end, seconds since the epoch)
    less the seconds its stage's manifest records: what running it as a Prefect task added.
    ``runs``: (name, start, end); a shard's run is named ``<stage>-shard-NNNN``, a whole
    stage's ``mercury-<stage>-<3 hex digits>``."""
    found = []
    for name, begun, ended in runs:
        if begun is None or ended is None:
            continue
        if "-shard-" in name:
            stage, part = name.split("-", 1)
            manifest = out / "stages" / stage / f"_SUCCESS.{part}.json"
        else:
            stage = name.removeprefix("mercury-").rsplit("-", 1)[0]
            manifest = out / "stages" / stage / "_SUCCESS.json"
        if not manifest.is_file():
            continue
        seconds = float(json.loads(manifest.read_text()).get("seconds", 0.0))
        found.append((ended - begun) - seconds)
    return found


def read_task_runs(api: str) -> list[tuple[str, float | None, float | None]]:
    """The latest build's task runs on the server at ``api``: (name, start, end)."""
    from ui_check import read_back

    found = read_back(api)
    return [
        (
            t.name,
            t.start_time.timestamp() if t.start_time else None,
            t.end_time.timestamp() if t.end_time else None,
        )
        for t in found["tasks"]
    ]


def noop_overhead(api: str, runs: int = NOOP_RUNS) -> dict[str, float]:
    """The same no-op function ``runs`` times bare and as Prefect task runs in one flow run on
    the server at ``api``: seconds per run each way, and the difference."""
    from prefect import flow, task
    from prefect.settings import PREFECT_API_URL, temporary_settings

    def noop(i: int) -> int:
        return i

    t0 = time.perf_counter()
    for i in range(runs):
        noop(i)
    bare = (time.perf_counter() - t0) / runs
    as_task = task(noop, name="rehearsal-noop")

    @flow(name="rehearsal-noop")
    def many() -> float:
        t1 = time.perf_counter()
        for i in range(runs):
            as_task(i)
        return time.perf_counter() - t1

    from prefect.logging.handlers import APILogHandler

    with temporary_settings(updates={PREFECT_API_URL: api}):
        wall = many()
        APILogHandler().flush()  # its logs sent now, while the server is there (a method)
    return {"bare": bare, "task_run": wall / runs, "overhead": wall / runs - bare}


# ============================================================================ memory


@dataclass
class MemorySampler:
    """Resident memory of the bench's children once a second while builds run, by role: the
    Prefect ``server`` (``prefect server start`` and its children), the build's ``flow``
    process, the Dask ``worker``\\ s (its spawned children), the ``sandbox``\\ es (bubblewrap and
    what runs inside). Per role: the largest process and the largest sum at one moment."""

    period: float = 1.0
    peak_process: dict[str, int] = field(default_factory=dict)
    peak_sum: dict[str, int] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)

    def role(self, proc: Any) -> str:
        import psutil

        chain = [proc, *proc.parents()]
        cmds = []
        for p in chain:
            with contextlib.suppress(psutil.Error):
                cmds.append((p.pid, " ".join(p.cmdline())))
        if any("prefect server start" in cmd for _, cmd in cmds):
            return "server"
        if any("bwrap" in cmd.split(" ", 1)[0] for _, cmd in cmds):
            return "sandbox"
        own = cmds[0][1] if cmds else ""
        if "spawn_main" in own or "forkserver" in own:
            return "worker"
        if "build_mercury.py" in own:
            return "flow"
        return "other"

    def sample(self) -> None:
        import os

        import psutil

        sums: dict[str, int] = {}
        for proc in psutil.Process(os.getpid()).children(recursive=True):
            try:
                rss = proc.memory_info().rss
                role = self.role(proc)
            except psutil.Error:
                continue
            sums[role] = sums.get(role, 0) + rss
            self.peak_process[role] = max(self.peak_process.get(role, 0), rss)
        for role, total in sums.items():
            self.peak_sum[role] = max(self.peak_sum.get(role, 0), total)

    @contextlib.contextmanager
    def running(self) -> Iterator[MemorySampler]:
        def loop() -> None:
            while not self._stop.wait(self.period):
                self.sample()

        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._stop.set()
            thread.join()


# ============================================================================ the builds


@contextlib.contextmanager
def index_hidden(records: Path, hidden: bool) -> Iterator[None]:
    """The records file's index moved aside while the block runs (when ``hidden``): readers
    then read the whole file, as they did before the index."""
    from quicksilver.pipeline.files import index_path

    index = index_path(records)
    aside = index.with_name(index.name + ".aside")
    if hidden and index.exists():
        index.rename(aside)
    try:
        yield
    finally:
        if aside.exists():
            aside.rename(index)


def shard_prelude(
    out: Path, snapdir: Path, sets: Sequence[str], *, indexed: bool = True, probes: int = 3
) -> dict[str, Any]:
    """What a shard of the first sandbox stage costs before its work, in the build at ``out``
    (stopped after generators): a fresh runner's key (Prefect's cache key makes one per run),
    and a fresh runner's completion check and reading of the shard's records (the stage run).
    Medians over the first ``probes`` shards; ``indexed=False``: with the generators file's index
    moved aside (every shard reads the whole file, as before the index)."""
    with index_hidden(out / "stages" / "generators" / "records.jsonl", not indexed):
        return _shard_prelude(out, snapdir, sets, probes)


def _shard_prelude(out: Path, snapdir: Path, sets: Sequence[str], probes: int) -> dict[str, Any]:
    from quicksilver.builds import MERCURY
    from quicksilver.config import load_build_config
    from quicksilver.pipeline.runner import Runner

    cfg = load_build_config(
        REPO / "configs" / "mercury.yaml",
        [f"out_dir={out}", f"snapshots=[{snapdir}]", *sets],
    ).resolve(REPO)
    stage = MERCURY.stage(SHARDED[0])
    parts = Runner(MERCURY, cfg).shard_names()[:probes]
    keys, preludes = [], []
    for part in parts:
        t0 = time.perf_counter()
        Runner(MERCURY, cfg).key(stage.name, part)
        t1 = time.perf_counter()
        runner = Runner(MERCURY, cfg)
        runner.completion(stage.name, part)
        runner.read_input(stage, part)
        t2 = time.perf_counter()
        keys.append(t1 - t0)
        preludes.append(t2 - t1)
    key, prelude = statistics.median(keys), statistics.median(preludes)
    # per shard: the run's prelude, and a fresh key for each sandbox stage's cache key; spread
    # over the sandbox stages (the projection counts shard-stage runs)
    return {"key": key, "prelude": prelude, "per_run": (prelude + len(SHARDED) * key) / 3}


def build(
    name: str,
    snapdir: Path,
    work: Path,
    api: str,
    home: Path,
    sets: Sequence[str],
) -> dict[str, Any]:
    """One build into ``work/<name>``, reporting to ``api``; its wall seconds and task runs."""
    out = work / name
    log.info("build %s: %s", name, " ".join(sets))
    env = {"PREFECT_API_URL": api, "PREFECT_HOME": str(home), "PYTHONPATH": str(REPO)}
    sets = [f"snapshots=[{snapdir}]", "runner.kind=dask", "runner.workers=2", *sets]
    wall = run_flow("build_mercury.py", "mercury.yaml", out, sets, prefect_env=env)
    runs = read_task_runs(api)
    return {"out": out, "wall": wall, "overheads": task_run_overheads(runs, out)}


def draw_questions(args: Any) -> tuple[Any, list[Any], dict[str, Any]]:
    """The corpora, the draw of ``--n`` and what the pool was (bench/real_leetcode.py's)."""
    from leetcode_corpora import load_corpora
    from real_leetcode import draw, pool

    doocs = args.corpora / MIRRORS[0] / "repo"
    if not doocs.exists():
        raise SystemExit(
            f"no LeetCode mirrors in {args.corpora}: fetch github:doocs/leetcode (and "
            "walkccc/LeetCode, neetcode-gh/leetcode) so that DIR/doocs+leetcode/repo exists"
        )
    others = [args.corpora / m / "repo" for m in MIRRORS[1:]]
    problems, repos = load_corpora(doocs, *(p if p.exists() else None for p in others))
    candidates, kept_out = pool(problems, repos)
    if len(candidates) < args.n:
        raise SystemExit(f"the pool has {len(candidates)} questions, fewer than --n {args.n}")
    drawn = draw(candidates, problems, args.n, args.seed)
    about = {
        "corpora": {r.name: r.commit for r in repos},
        "pool": len(candidates),
        "kept_out": kept_out,
    }
    return problems, drawn, about


def write_draws(work: Path, drawn: list[Any], half: int, seed: int) -> dict[str, Path]:
    """The draw as a snapshot folder (``full``), and a seeded ``half`` of it as another."""
    from quicksilver.sources.snapshot import write_snapshot

    halved = random.Random(seed).sample(drawn, min(half, len(drawn)))
    folders = {}
    for name, snaps in (("full", drawn), ("half", halved)):
        folder = work / "snapshot" / name / "public-corpora"
        for snap in snaps:
            write_snapshot(folder, snap)
        folders[name] = folder
    return folders


def draw_sample(out: Path, k: int, seed: int) -> list[str]:
    """``k`` tasks (seeded) of those the generators stage of the build at ``out`` kept."""
    from quicksilver.pipeline.refs import read_stage_rows

    rows = read_stage_rows(out / "stages" / "generators" / "records.jsonl")
    slugs = sorted(row["task"]["slug"] for row in rows)
    return sorted(random.Random(seed).sample(slugs, min(k, len(slugs))))


# ============================================================================ the run


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(__doc__, sets=True, verbose=True, seed="the draws' seed (recorded)")
    p.add_argument("--corpora", type=Path, required=True, help="folder of fetch's mirrors")
    p.add_argument("--n", type=int, default=500, help="questions in the full draw")
    p.add_argument("--half", type=int, default=None, help="questions in the smaller (n // 2)")
    p.add_argument("--sample", type=int, default=24, help="tasks through the sandbox stages")
    p.add_argument("--out", type=Path, default=None, help="work folder (default: a new temp one)")
    args = p.parse_args(argv)
    console = start(verbose=args.verbose)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per API call of the no-op flow
    work = (args.out or Path(tempfile.mkdtemp(prefix="qs-rehearsal-"))).resolve()
    if work.is_relative_to(REPO.resolve()):
        raise SystemExit(f"{work}: inside the repository; the corpora's content is never committed")
    machine, revision = header(console)
    _, drawn, about = draw_questions(args)
    half = args.half if args.half is not None else args.n // 2
    folders = write_draws(work, drawn, half, args.seed)
    console.print(
        f"drew {len(drawn)} of {about['pool']} questions (seed {args.seed}), half {half}; "
        f"work folder {work}"
    )
    home = work / "prefect-home"
    home.mkdir(parents=True, exist_ok=True)
    cheap_sets = ["until=generators", *args.set]
    builds: dict[str, dict[str, Any]] = {}
    from ui_check import prefect_server

    with prefect_server(home) as api, MemorySampler().running() as memory:
        noop_before = noop_overhead(api)
        for name in ("half", "full"):
            builds[name] = build(name, folders[name], work, api, home, cheap_sets)
        prelude = {
            f"{name}{label}": shard_prelude(
                work / name, folders[name], cheap_sets, indexed=not label
            )
            for name in ("half", "full")
            for label in ("", NO_INDEX)
        }
        cheap = {name: stage_costs(b["out"], CHEAP) for name, b in builds.items()}
        report_cheap(console, cheap, prelude)  # printed now: the sample build takes longest
        write_json(args.json, {"costs": {k: [vars(r) for r in v] for k, v in cheap.items()}})
        sample = draw_sample(work / "full", args.sample, args.seed)
        sample_sets = [f"only={json.dumps(sample)}", "profile.measure.workers=1", *args.set]
        builds["sample"] = build("sample", folders["full"], work, api, home, sample_sets)
        noop_after = noop_overhead(api)
    costs = {name: stage_costs(b["out"], CHEAP + SHARDED + AFTER) for name, b in builds.items()}
    numbers = report(
        console,
        costs,
        builds,
        prelude,
        {"before": noop_before, "after": noop_after},
        memory,
    )
    numbers |= {
        "revision": revision,
        "machine": machine,
        "seed": args.seed,
        "n": len(drawn),
        "half": half,
        "sample": sample,
        **about,
    }
    write_json(args.json, numbers)
    return 0


# ============================================================================ the tables


def _mb(n: float) -> str:
    return f"{n / 1e6:,.1f}"


def _s(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def stage_table(title: str, rows: Sequence[StageCost]) -> Any:
    """Per stage: work, cost per task and per solution, files and bytes per task."""
    t = table(
        title,
        ("stage", "left"),
        "tasks in",
        "solutions in",
        "work (s)",
        "s / task",
        "s / solution",
        "files (MB)",
        "KB / task",
        "KB / task as full copies",
        "generator share",
    )
    for r in rows:
        t.add_row(
            r.stage,
            f"{r.tasks_in:,}",
            f"{r.solutions_in:,}",
            f"{r.seconds:.1f}",
            _s(r.per_task),
            _s(r.per_solution, 4),
            _mb(r.bytes),
            _s(r.bytes_per_task / 1e3 if r.bytes_per_task is not None else None, 1),
            _s(r.full_bytes / r.tasks_in / 1e3 if r.tasks_in and r.full_bytes else None, 1),
            f"{r.generator_bytes / r.bytes:.0%}" if r.bytes else "-",
        )
    return t


def growth_table(half: Sequence[StageCost], full: Sequence[StageCost]) -> Any:
    """The cheap stages at both sizes: cost and bytes per task, and full / half (1.00x: linear)."""
    t = table(
        "The cheap stages at two sizes: per task (full / half = 1.00x when a stage grows linearly)",
        ("stage", "left"),
        "tasks in (half, full)",
        "s / task, half",
        "s / task, full",
        "full / half",
        "KB / task, half",
        "KB / task, full",
    )
    by_stage = {r.stage: r for r in half}
    for f in full:
        h = by_stage.get(f.stage)
        if h is None:
            continue
        t.add_row(
            f.stage,
            f"{h.tasks_in:,}, {f.tasks_in:,}",
            _s(h.per_task, 4),
            _s(f.per_task, 4),
            ratio(f.per_task, h.per_task),
            _s((h.bytes_per_task or 0) / 1e3, 1),
            _s((f.bytes_per_task or 0) / 1e3, 1),
        )
    return t


def prelude_table(prelude: dict[str, dict[str, Any]], tasks: dict[str, int]) -> Any:
    t = table(
        f"A {SHARDED[0]} shard before its work: a fresh runner's key, and its completion check "
        "and reading of the shard's records",
        ("build", "left"),
        "tasks in generators' file",
        "key (s)",
        "check + read (s)",
        "per shard-stage run (s)",
        "per run / tasks (ms)",
    )
    for name, p in prelude.items():
        t.add_row(
            name,
            f"{tasks[name]:,}",
            _s(p["key"]),
            _s(p["prelude"]),
            _s(p["per_run"]),
            _s(1e3 * p["per_run"] / tasks[name] if tasks[name] else None),
        )
    return t


def prefect_table(noop: dict[str, dict[str, float]], builds: dict[str, dict[str, Any]]) -> Any:
    t = table(
        "Prefect's overhead per task run",
        ("measured", "left"),
        "runs",
        "median (ms)",
        "p90 (ms)",
    )
    for when, n in noop.items():
        t.add_row(
            f"no-op task, {when} the builds (task run - bare call)",
            str(NOOP_RUNS),
            _s(1e3 * n["overhead"], 1),
            "-",
        )
    for name, b in builds.items():
        xs = sorted(b["overheads"])
        if not xs:
            continue
        t.add_row(
            f"{name} build: task run wall - stage seconds",
            str(len(xs)),
            _s(1e3 * statistics.median(xs), 1),
            _s(1e3 * xs[int(0.9 * (len(xs) - 1))], 1),
        )
    return t


def memory_table(memory: MemorySampler) -> Any:
    t = table(
        "Peak resident memory, sampled once a second over the three builds",
        ("role", "left"),
        "largest process (MB)",
        "largest sum at once (MB)",
    )
    for role in ("server", "flow", "worker", "sandbox", "other"):
        if role in memory.peak_process:
            t.add_row(role, _mb(memory.peak_process[role]), _mb(memory.peak_sum[role]))
    return t


def projection_table(proj: Projection) -> Any:
    t = table(
        f"Projected wall time of a {proj.tasks:,}-task, {proj.solutions:,}-solution build "
        f"({proj.shards:,} shards of {proj.shard_size}, {proj.task_runs:,} task runs)",
        "workers",
        "cheap stages",
        "sandbox stages",
        "shard input",
        "splits+publish",
        "Prefect",
        "[bold]wall (hours)",
    )
    for n in PLAN_WORKERS:
        terms = proj.terms(n)
        t.add_row(
            str(n),
            *(f"{terms[k] / 3600:.2f} h" for k in terms),
            f"[bold]{proj.wall(n) / 3600:.1f}",
        )
    return t


MODEL = (
    "model: wall(N) = cheap s/task x tasks + sandbox s/solution x solutions / N + shard input "
    "x shards x 3 / N + (splits+publish) s/task x tasks + Prefect s/run x task runs; the cheap "
    "stages, splits, publish and the server's bookkeeping run in the flow process one after "
    "another, the shards spread evenly over N workers (no loss to imbalance: bench/build.py "
    "shows the slowest shard), a shard's input cost grows with the tasks in the generators file"
)


def generator_tasks(costs: dict[str, list[StageCost]]) -> dict[str, int]:
    """Per build, the tasks in the generators stage's file (what every first shard read)."""
    return {
        name: next((r.tasks_out for r in rows if r.stage == "generators"), 0)
        for name, rows in costs.items()
    }


def report_cheap(
    console: Any, costs: dict[str, list[StageCost]], prelude: dict[str, dict[str, Any]]
) -> None:
    """The cheap builds' tables: the full draw's stages, both sizes, a shard's input cost."""
    console.print(stage_table("The full draw through the cheap stages", costs["full"]))
    console.print(growth_table(costs["half"], costs["full"]))
    tasks = generator_tasks(costs)
    console.print(prelude_table(prelude, {name: tasks[name.split(",")[0]] for name in prelude}))


def report(
    console: Any,
    costs: dict[str, list[StageCost]],
    builds: dict[str, dict[str, Any]],
    prelude: dict[str, dict[str, Any]],
    noop: dict[str, dict[str, float]],
    memory: MemorySampler,
) -> dict[str, Any]:
    """Print the sample's tables and the projection; return every number for ``--json``."""
    full = [r for r in costs["full"] if r.stage in CHEAP]
    sample = [r for r in costs["sample"] if r.stage in SHARDED + AFTER]
    console.print(stage_table("The sample through the sandbox stages, splits and publish", sample))
    tasks = generator_tasks(costs)
    console.print(prefect_table(noop, builds))
    console.print(memory_table(memory))
    proj = Projection(
        cheap_per_task=per_unit(full, CHEAP, "task"),
        sharded_per_solution=per_unit(sample, SHARDED, "solution"),
        after_per_task=per_unit(sample, AFTER, "task"),
        prefect_per_run=noop["after"]["overhead"],
        shard_overhead=scaled_overhead(prelude["full"]["per_run"], tasks["full"]),
    )
    console.print(projection_table(proj))
    console.print(MODEL)
    per_task = per_unit(sample, SHARDED, "task") * proj.tasks / 3600
    console.print(
        f"the sandbox stages counted per task instead of per solution: {per_task:.1f} h of work "
        f"on one worker (a lower bound when the sample has fewer solutions per task than "
        f"{proj.solutions / proj.tasks:.1f}; the per-solution figure is then an upper one)"
    )
    whole = scaled_overhead(prelude["full" + NO_INDEX]["per_run"], tasks["full"])
    console.print(
        f"shard input at {proj.tasks:,} tasks: {proj.shard_overhead:.3f} s per shard-stage run "
        f"with the index, {whole:.3f} s reading the whole generators file (before it): "
        f"{whole * proj.shards * len(SHARDED) / 3600:.2f} h of work in all without it"
    )
    console.print("builds' wall: " + ", ".join(f"{k} {b['wall']:.0f} s" for k, b in builds.items()))
    return {
        "costs": {k: [vars(r) for r in v] for k, v in costs.items()},
        "walls": {k: b["wall"] for k, b in builds.items()},
        "task_run_overheads": {k: b["overheads"] for k, b in builds.items()},
        "prelude": prelude,
        "noop": noop,
        "memory": {"peak_process": memory.peak_process, "peak_sum": memory.peak_sum},
        "projection": {
            **vars(proj),
            "hours": {n: proj.wall(n) / 3600 for n in PLAN_WORKERS},
            "terms": {n: proj.terms(n) for n in PLAN_WORKERS},
        },
    }


if __name__ == "__main__":
    raise SystemExit(main())
