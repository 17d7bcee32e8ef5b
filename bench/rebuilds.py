"""Rebuild benchmark: do cold DPE builds from scratch select the same tasks and the same clusters?

Runs the DPE build (``flows/build_dpe.py`` on configs/dpe.yaml, the icount meter at the paper's
bounds) N times, each into a fresh folder (nothing cached), and compares the published rows:
which tasks were kept, each task's cluster partition (the solution hashes of every cluster),
its references and scores, and every solution's cost. With a deterministic meter all N must
agree exactly; the bench prints what differs, if anything, and each build's wall time.

    python bench/rebuilds.py                 # 3 builds
    python bench/rebuilds.py --n 2 --set pe_profile.measure.meter=cpu   # cpu, for contrast
"""

from __future__ import annotations

import logging
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from common import header, parser, run_flow, start, table, write_json

log = logging.getLogger("bench.rebuilds")


def selection(out: Path) -> dict[str, Any]:
    """task_id -> (clusters as sets of solution hashes, references, scores, costs by hash)."""
    import pyarrow.parquet as pq

    rows = []
    for split in sorted((out / "parquet").glob("*.parquet")):
        rows += pq.read_table(split).to_pylist()
    picked = {}
    for row in rows:
        clusters: dict[int, list[int]] = {}
        for sol in row["solution_costs"]:
            clusters.setdefault(int(sol["cluster"]), []).append(int(sol["hash"]))
        picked[row["task_id"]] = {
            "clusters": [sorted(clusters[k]) for k in sorted(clusters)],
            "references": [int(h) for h in row["reference_hashes"]],
            "scores": list(row["scores"]),
            "costs": {int(s["hash"]): s["cost"] for s in row["solution_costs"]},
            "meter": row["cost_meter"],
        }
    return picked


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(__doc__, sets=True)
    p.add_argument("--n", type=int, default=3, help="cold builds (default 3)")
    p.add_argument("--keep", type=Path, default=None, metavar="DIR", help="keep the builds here")
    args = p.parse_args(argv)
    console = start()
    header(console)
    walls, picks = [], []
    with tempfile.TemporaryDirectory(prefix="qs-bench-rebuilds-") as tmp:
        root = args.keep or Path(tmp)
        for k in range(args.n):
            out = root / f"build-{k + 1}"
            log.info("cold DPE build %d of %d ...", k + 1, args.n)
            walls.append(run_flow("build_dpe.py", "dpe.yaml", out, args.set))
            picks.append(selection(out))
            log.info("build %d: %.0f s, %d task(s) kept", k + 1, walls[-1], len(picks[-1]))
    first = picks[0]
    t = table(
        f"{args.n} cold DPE builds from scratch",
        ("build", "left"),
        "wall",
        "tasks kept",
        ("same tasks as build 1", "left"),
        ("same partitions", "left"),
        ("same references and scores", "left"),
        ("same costs", "left"),
    )
    diffs = []
    for k, pick in enumerate(picks):
        same_tasks = set(pick) == set(first)
        common = set(pick) & set(first)
        parts = all(pick[x]["clusters"] == first[x]["clusters"] for x in common)
        refs = all(
            (pick[x]["references"], pick[x]["scores"])
            == (first[x]["references"], first[x]["scores"])
            for x in common
        )
        costs = all(pick[x]["costs"] == first[x]["costs"] for x in common)
        for x in sorted(common):
            if pick[x]["clusters"] != first[x]["clusters"]:
                diffs.append(
                    f"build {k + 1}, {x}: clusters {pick[x]['clusters']} vs {first[x]['clusters']}"
                )
        if not same_tasks:
            diffs.append(f"build {k + 1}: tasks {sorted(set(pick) ^ set(first))} differ")
        t.add_row(
            str(k + 1),
            f"{walls[k]:.0f} s",
            str(len(pick)),
            "yes" if same_tasks else "NO",
            "yes" if parts else "NO",
            "yes" if refs else "NO",
            "yes" if costs else "NO",
        )
    console.print(t)
    meters = {v["meter"] for pick in picks for v in pick.values()}
    console.print(f"meter: {', '.join(sorted(meters))}; kept: {', '.join(sorted(first))}")
    for line in diffs:
        console.print(f"  {line}")
    write_json(args.json, {"walls": walls, "selections": picks})
    return 0


if __name__ == "__main__":
    sys.exit(main())
