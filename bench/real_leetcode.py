"""Real LeetCode through the Mercury build: a seeded draw of free questions from public corpora.

Takes local mirrors of public LeetCode corpora (bench/leetcode_corpora.py says which and what
each gives: doocs/leetcode's real English statements and Python 3 solutions, walkccc/LeetCode's,
neetcode-gh/leetcode's and theabbie/leetcode's solutions), draws ``--n`` free questions with
``--seed`` in LeetCode's own mix of difficulties (the share of each difficulty among the corpus'
free questions), writes them as a snapshot folder under ``--out`` (never under the repository:
the corpora's content is not ours to commit), and builds it with the shipped configs/mercury.yaml
through the command a maintainer uses (``quicksilver build mercury``). It then prints, from the
build's own stage files:

- how many questions became published tasks, and how many got an offline generator;
- every question the offline synthesizer refused, with the lines it quoted;
- every accepted solution the build rejected: its question, author, stage, reason and the
  evidence the stage recorded (a failing input and the answers, a timeout, a load error);
- tasks dropped for another reason, with theirs.

A question is drawn only if the build could take it at all (free; one ``class Solution`` method;
types among LeetCode's builtins, TreeNode and ListNode; at least two solutions; examples in the
statement that parse); the pool's size and what kept the others out are printed too. Use a fresh
seed to measure (the default draws one and prints it); never tune to one draw.

    python bench/real_leetcode.py --corpora /work/.mirror --n 40            # fresh seed
    python bench/real_leetcode.py --corpora /work/.mirror --n 40 --seed 7 --json /tmp/real.json
    python bench/real_leetcode.py ... --set profile.measure.meter=cpu       # faster, same funnel

``--corpora DIR`` holds the mirrors as ``fetch`` leaves them (``doocs+leetcode/repo``, ...);
``--doocs``, ``--walkccc``, ``--neetcode`` and ``--theabbie`` name them one by one instead.
``--no-build`` stops after the draw (the snapshot folder is written); ``--report WORK`` prints
the findings of an earlier run's work folder again.
"""

from __future__ import annotations

import collections
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from leetcode_corpora import Problem, Repo, Unsupported, load_corpora, snapshot
from rich.markup import escape
from rich.table import Table

from quicksilver.pipeline.files import read_jsonl
from quicksilver.pipeline.refs import read_stage_rows
from quicksilver.sources.snapshot import SnapshotFile, read_snapshot, write_snapshot

from common import REPO, header, parser, start, write_json

STAGES = ("load", "dedup", "filters", "generators", "testcases", "uniqueness", "profile", "publish")
DIFFICULTIES = ("Easy", "Medium", "Hard")


def pool(
    problems: dict[int, Problem], repos: list[Repo]
) -> tuple[list[SnapshotFile], dict[str, int]]:
    """The questions the build could take, and why the others are out (counts)."""
    ok: list[SnapshotFile] = []
    out: collections.Counter[str] = collections.Counter()
    for _, prob in sorted(problems.items()):
        try:
            snap = snapshot(prob, repos)
        except Unsupported as exc:
            out[str(exc).split(" (")[0]] += 1
            continue
        except SyntaxError:
            out["a solution that does not parse"] += 1
            continue
        if len(snap.solutions) < 2:
            out["fewer than 2 solutions"] += 1
        elif not snap.tests:
            out["no example that parses"] += 1
        else:
            ok.append(snap)
    return ok, dict(out)


def draw(
    candidates: list[SnapshotFile], problems: dict[int, Problem], n: int, seed: int
) -> list[SnapshotFile]:
    """``n`` questions, seeded, each difficulty's share that of LeetCode's free questions
    (largest remainder)."""
    free = collections.Counter(p.difficulty for p in problems.values() if not p.paid)
    total = sum(free[d] for d in DIFFICULTIES)
    quotas = {d: n * free[d] / total for d in DIFFICULTIES}
    counts = {d: int(q) for d, q in quotas.items()}
    for d in sorted(DIFFICULTIES, key=lambda d: quotas[d] - counts[d], reverse=True):
        if sum(counts.values()) < n:
            counts[d] += 1
    rng = random.Random(seed)
    picked: list[SnapshotFile] = []
    for d in DIFFICULTIES:
        group = [s for s in candidates if s.question.difficulty == d]
        picked += rng.sample(group, min(counts[d], len(group)))
    return sorted(picked, key=lambda s: int(s.question.questionFrontendId))


def build(snapdir: Path, out: Path, sets: list[str]) -> float:
    """``quicksilver build mercury`` on the folder, as ``make build-dataset`` runs it."""
    argv = [
        sys.executable,
        "-m",
        "quicksilver.cli",
        "build",
        "mercury",
        "--config",
        str(REPO / "configs" / "mercury.yaml"),
        "--set",
        f"snapshots=[{snapdir}]",
        "--set",
        f"out_dir={out}",
        *[x for s in sets for x in ("--set", s)],
    ]
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    t0 = time.perf_counter()
    with open(out.parent / "build.log", "w") as log:
        proc = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, cwd=REPO, env=env)
    if proc.returncode != 0:
        tail = (out.parent / "build.log").read_text().splitlines()[-15:]
        raise SystemExit(f"the build failed (exit {proc.returncode}):\n" + "\n".join(tail))
    return time.perf_counter() - t0


def _stage_rows(out: Path, stage: str, rejects: bool) -> list[dict[str, Any]]:
    folder = out / "stages" / stage
    if not folder.is_dir():
        return []
    pattern = "*rejects.jsonl" if rejects else "*.jsonl"
    rows: list[dict[str, Any]] = []
    for path in sorted(folder.glob(pattern)):
        if rejects:
            rows += read_jsonl(path)
        elif not path.name.endswith("rejects.jsonl"):  # a stage's records: references put back
            rows += read_stage_rows(path)
    return rows


def findings(out: Path, drawn: list[SnapshotFile]) -> dict[str, Any]:
    """What the build did with the draw, read from its stage files."""
    published: list[str] = []
    for split in ("train", "eval"):
        path = out / "parquet" / f"{split}.parquet"
        if path.exists():
            import pyarrow.parquet as pq

            published += pq.read_table(path, columns=["slug_name"]).column(0).to_pylist()
    offline = [
        r["task"]["slug"]
        for r in _stage_rows(out, "generators", rejects=False)
        if (r.get("generator") or {}).get("generator_path") == "offline"
    ]
    authors = {s.url: s.note for snap in drawn for s in snap.solutions}
    refused: list[dict[str, Any]] = []
    tasks: list[dict[str, Any]] = []
    solutions: list[dict[str, Any]] = []
    for stage in STAGES:
        for row in _stage_rows(out, stage, rejects=True):
            what = row.get("dropped")
            base = {"stage": stage, "slug": row.get("slug"), "reason": row.get("reason")}
            if what == "task" and row.get("reason") == "needs-llm-generator":
                refused.append({**base, "detail": row.get("detail")})
            elif what == "task":
                tasks.append({**base, "detail": row.get("detail")})
            elif what == "solution":
                solutions.append(
                    {
                        **base,
                        "author": authors.get(row.get("url"), row.get("source")),
                        "url": row.get("url"),
                        "detail": row.get("detail"),
                        "with_task": any(
                            t["slug"] == row.get("slug") and t["reason"] == row.get("reason")
                            for t in tasks + refused
                        ),
                    }
                )
    return {
        "drawn": len(drawn),
        "published": sorted(published),
        "offline_generators": sorted(offline),
        "refused": refused,
        "tasks_dropped": tasks,
        "solutions_rejected": solutions,
    }


def _short(text: Any, limit: int = 400) -> str:
    """One line, cut at ``limit``, with rich's markup escaped (``edges[i]`` stays itself)."""
    flat = " ".join(str(text or "").split())
    return escape(flat if len(flat) <= limit else flat[: limit - 3] + "...")


def main() -> None:
    p = parser(__doc__, sets=True, verbose=True)
    p.add_argument("--corpora", type=Path, default=None, help="folder of fetch's mirrors")
    p.add_argument("--doocs", type=Path, default=None)
    p.add_argument("--walkccc", type=Path, default=None)
    p.add_argument("--neetcode", type=Path, default=None)
    p.add_argument("--theabbie", type=Path, default=None)
    p.add_argument("--n", type=int, default=40, help="questions to draw")
    p.add_argument("--seed", type=int, default=None, help="the draw's seed (default: a fresh one)")
    p.add_argument("--out", type=Path, default=None, help="work folder (default: a new temp one)")
    p.add_argument("--no-build", action="store_true", help="stop after writing the draw")
    p.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="SLUG",
        help="build these questions of the pool instead of a draw (to look at one finding again)",
    )
    p.add_argument(
        "--report", type=Path, default=None, metavar="WORK", help="print an earlier run's findings"
    )
    args = p.parse_args()
    console = start(verbose=args.verbose)
    if args.report is not None:
        drawn = [read_snapshot(f) for f in sorted((args.report / "snapshot").glob("*/*.json"))]
        found = findings(args.report / "build", drawn)
        _print(console, found, None)
        write_json(args.json, found)
        return

    def mirror(explicit: Path | None, name: str) -> Path | None:
        if explicit is not None:
            return explicit
        if args.corpora is not None and (args.corpora / name / "repo").exists():
            return args.corpora / name / "repo"
        return None

    doocs = mirror(args.doocs, "doocs+leetcode")
    if doocs is None:
        raise SystemExit("no doocs/leetcode mirror: give --corpora DIR or --doocs PATH")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    work = args.out or Path(tempfile.mkdtemp(prefix="qs-real-leetcode-"))
    if work.resolve().is_relative_to(REPO.resolve()):
        raise SystemExit(f"{work}: inside the repository; the corpora's content is never committed")
    machine, _ = header(console)
    problems, repos = load_corpora(
        doocs,
        mirror(args.walkccc, "walkccc+LeetCode"),
        mirror(args.neetcode, "neetcode-gh+leetcode"),
        mirror(args.theabbie, "theabbie+leetcode"),
    )
    candidates, kept_out = pool(problems, repos)
    if args.only:
        by_slug = {s.slug: s for s in candidates}
        missing = [slug for slug in args.only if slug not in by_slug]
        if missing:
            raise SystemExit(f"not in the pool: {', '.join(missing)}")
        drawn = [by_slug[slug] for slug in args.only]
    else:
        drawn = draw(candidates, problems, args.n, seed)
    snapdir = work / "snapshot" / "public-corpora"
    for snap in drawn:
        write_snapshot(snapdir, snap)
    console.print(
        f"corpora: {', '.join(f'{r.name}@{r.commit[:12]}' for r in repos)}; {len(problems)} "
        f"questions, {len(candidates)} the build could take; drew {len(drawn)} with seed {seed} "
        f"({dict(collections.Counter(s.question.difficulty for s in drawn))}) into {snapdir}"
    )
    console.print("kept out of the pool: " + ", ".join(f"{k} {v}" for k, v in kept_out.items()))
    numbers: dict[str, Any] = {
        "machine": machine,
        "seed": seed,
        "corpora": {r.name: r.commit for r in repos},
        "pool": len(candidates),
        "kept_out": kept_out,
        "drawn": [
            {"slug": s.slug, "difficulty": s.question.difficulty, "solutions": len(s.solutions)}
            for s in drawn
        ],
    }
    if args.no_build:
        write_json(args.json, numbers)
        return
    out = work / "build"
    numbers["build_seconds"] = round(build(snapdir, out, args.set), 1)
    found = findings(out, drawn)
    numbers.update(found)
    _print(console, found, numbers["build_seconds"])
    write_json(args.json, numbers)


def _table(title: str, *names: str) -> Table:
    t = Table(title=title, show_lines=True)
    for name in names:
        t.add_column(name, overflow="fold")
    return t


def _print(console: Any, found: dict[str, Any], seconds: float | None) -> None:
    n = found["drawn"]
    t = _table("Questions the offline synthesizer refused", "question", "what it quoted")
    for r in found["refused"]:
        t.add_row(r["slug"], _short(r["detail"], 600))
    console.print(t)
    t = _table("Tasks dropped for another reason", "question", "stage", "reason", "detail")
    for r in found["tasks_dropped"]:
        t.add_row(r["slug"], r["stage"], r["reason"], _short(r["detail"]))
    console.print(t)
    alone = [r for r in found["solutions_rejected"] if not r["with_task"]]
    t = _table(
        "Accepted solutions rejected (not with their task)",
        "question",
        "author",
        "stage",
        "reason",
        "evidence",
    )
    for r in alone:
        t.add_row(r["slug"], str(r["author"]), r["stage"], r["reason"], _short(r["detail"]))
    console.print(t)
    took = f"; build {seconds:.0f} s" if seconds is not None else ""
    console.print(
        f"SUMMARY {len(found['published'])} of {n} questions built into tasks; "
        f"{len(found['offline_generators'])} of {n} got an offline generator "
        f"({len(found['refused'])} refused); {len(alone)} accepted solutions rejected on their "
        f"own, {len(found['solutions_rejected']) - len(alone)} with their task{took}"
    )


if __name__ == "__main__":
    main()
