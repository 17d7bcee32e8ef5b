"""The build and score reports (quicksilver/report.py) on small made-up rows: what they say (the
funnel's numbers, every task, the drops, the clusters), that they are self-contained, and, in a
headless Chromium, that every plot renders."""

from __future__ import annotations

import html
import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from quicksilver.report import (
    PLOT_IDS,
    SCORE_PLOT_IDS,
    build_report,
    build_report_html,
    report_from_rows,
    report_markdown,
    score_report_html,
    spread_rows,
    task_rows,
    write_build_report,
)
from tests.conftest import requires_chromium

FUNNEL: list[dict[str, Any]] = [
    {
        "stage": "load",
        "tasks_in": 11,
        "tasks_out": 11,
        "solutions_in": 187,
        "solutions_out": 181,
        "drops": {"syntax-error": 6},
        "drop_tasks": {},
        "drop_solutions": {"syntax-error": 6},
    },
    {
        "stage": "filters",
        "tasks_in": 11,
        "tasks_out": 8,
        "solutions_in": 181,
        "solutions_out": 142,
        "drops": {"paid-only": 1, "min-solutions": 2},
        "drop_tasks": {"paid-only": 1, "min-solutions": 2},
        "drop_solutions": {"paid-only": 37, "min-solutions": 2},
    },
    {
        "stage": "uniqueness",
        "tasks_in": 8,
        "tasks_out": 3,
        "solutions_in": 142,
        "solutions_out": 93,
        "drops": {"ambiguous-output": 5, "wrong-answer": 12},
        "drop_tasks": {"ambiguous-output": 5},
        "drop_solutions": {"ambiguous-output": 37, "wrong-answer": 12},
    },
]


def _mercury_row(
    slug: str, difficulty: str, runtimes: list[float], cases: list[list[Any]] | None = None
) -> dict[str, Any]:
    """``cases``: the test inputs (argument lists), published as the row's ``test_cases``."""
    return {
        "slug_name": slug,
        "test_cases": json.dumps([{"input": c, "expected": 0} for c in cases or [[[1, 2]]]]),
        "difficulty": difficulty,
        "runtime_meter": "cpu",
        "runtime_unit": "s",
        "reference_runtimes": [
            {
                "hash": 1000 + i,
                "runtime": r,
                "ci_low": r * 0.97,
                "ci_high": r * 1.05,
                "rounds": 5 + i,
                "converged": i != 1,
                "flags": [] if i != 1 else ["max-rounds"],
            }
            for i, r in enumerate(runtimes)
        ],
    }


MERCURY = {
    "train": [
        _mercury_row(
            "zeroes-to-end",
            "Easy",
            [0.012, 0.019, 0.031],
            [[[0, 1, 0]], [list(range(1000))], [[5] * 40]],
        ),
        _mercury_row("cluster-anagrams", "Medium", [0.2, 0.21]),
    ],
    "eval": [
        _mercury_row("two-sorted-median", "Hard", [1.5, 2.5, 9.0, 4.0]),
        _mercury_row("stair-paths", "Easy", [0.0002, 0.0011, 1.69]),  # 8,450x: extreme
    ],
}


def _dpe_row(slug: str, costs: list[tuple[float, int]], scores: list[float]) -> dict[str, Any]:
    """``costs``: (cost, cluster) per solution; the first solution of each cluster is its
    reference."""
    refs: dict[int, tuple[int, float]] = {}
    for i, (cost, cluster) in enumerate(costs):
        refs.setdefault(cluster, (2000 + i, cost))
    clusters = sorted(refs)
    return {
        "task_id": slug,
        "difficulty": "Medium",
        "cost_meter": "icount",
        "cost_unit": "instructions",
        "reference_hashes": [refs[c][0] for c in clusters],
        "reference_costs": [refs[c][1] for c in clusters],
        "cluster_sizes": [sum(1 for _, k in costs if k == c) for c in clusters],
        "scores": scores,
        "p99_cv": 0.0,
        "solution_costs": [
            {
                "hash": 2000 + i,
                "cost": cost,
                "cv": 0.0,
                "cv_classic": 0.0,
                "rounds": 1,
                "converged": True,
                "flags": [],
                "cluster": cluster,
                "source": "bundled",
                "model": None,
            }
            for i, (cost, cluster) in enumerate(costs)
        ],
    }


DPE = {
    "test": [
        {
            **_dpe_row(
                "primes-below",
                [(9e7, 0), (8.5e7, 0), (2e7, 1), (1.9e7, 1), (3e6, 2), (2.8e6, 3)],
                [33.3, 66.7, 83.3, 100.0],
            ),
            # the performance input: one call on 5,000 numbers, made at scale 4096
            "pe_input": json.dumps([[list(range(5000))]], separators=(",", ":")),
            "pe_scale": 4096,
            "pe_input_bytes": len(json.dumps([[list(range(5000))]], separators=(",", ":"))),
            "test_cases": json.dumps(
                [{"input": [10], "expected": 4}, {"input": [2], "expected": 0}]
            ),
        },
        _dpe_row(
            "longest-mirror-substring",
            [(5e8, 0), (4e7, 1), (4.1e7, 1), (1e6, 2), (9e5, 3)],
            [20.0, 60.0, 80.0, 100.0],
        ),
    ]
}


def _cells(page: str) -> list[str]:
    return [html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", page, re.S)]


def test_build_report_says_the_funnel_the_drops_and_every_task():
    report = report_from_rows(MERCURY, FUNNEL, title="Mercury build", dataset="/out/mercury")
    page = build_report_html(report)
    assert "<title>Mercury build</title>" in page
    # the funnel's numbers, stage by stage, in its table
    cells = _cells(page)
    for row in FUNNEL:
        i = cells.index(row["stage"])
        assert cells[i + 1 : i + 5] == [
            str(row[k]) for k in ("tasks_in", "tasks_out", "solutions_in", "solutions_out")
        ]
    i = cells.index("uniqueness")
    assert cells[i + 5] == "ambiguous-output: 5 tasks (37 solutions); wrong-answer: 12 solutions"
    # the drops by reason over all stages: the stage that dropped each, tasks and solutions
    i = cells.index("paid-only")
    assert cells[i + 1 : i + 5] == ["1", "37", "0", "filters"]
    # every published task, with its split and its runtimes' range
    rows = {r["task"]: r for r in task_rows(report)}
    assert set(rows) == {"zeroes-to-end", "cluster-anagrams", "two-sorted-median", "stair-paths"}
    assert rows["two-sorted-median"]["split"] == "eval"
    assert rows["two-sorted-median"]["fastest (s)"] == "1.5"
    assert rows["two-sorted-median"]["slowest (s)"] == "9"
    assert rows["zeroes-to-end"]["solutions"] == 3 and "references" not in rows["zeroes-to-end"]
    assert rows["two-sorted-median"]["slowest/fastest"] == "6x"
    for slug in rows:
        assert slug in cells
    # the spread: the CI's width relative to the runtime, rounds, the unconverged one, flags
    spread = {r["task"]: r for r in spread_rows(report)}
    assert spread["zeroes-to-end"]["median CI width"] == "8.00%"
    assert spread["zeroes-to-end"]["rounds"] == "5-7"
    assert spread["zeroes-to-end"]["not converged"] == 1
    assert spread["zeroes-to-end"]["flags"] == "max-rounds: 1"
    # one plot div per plot of a Mercury report, and no clusters section
    for div in PLOT_IDS[:4]:
        assert f'id="{div}"' in page
    assert 'id="plot-clusters"' not in page


def test_build_report_is_self_contained():
    page = build_report_html(
        report_from_rows(MERCURY, FUNNEL, title="Mercury build", dataset="/out")
    )
    from plotly.offline import get_plotlyjs

    assert get_plotlyjs() in page  # plotly.js is inline, not fetched
    ours = page.replace(get_plotlyjs(), "")
    assert not re.search(r"<script[^>]+src=", ours) and "<link" not in ours
    assert not re.search(r"https?://", ours)  # nothing else points at the network


def test_dpe_report_shows_the_clusters_and_their_scores():
    report = report_from_rows(DPE, FUNNEL, title="DPE build", dataset="/out/dpe")
    assert report.kind == "dpe" and report.unit == "instructions"
    rows = {r["task"]: r for r in task_rows(report)}
    assert rows["primes-below"]["clusters"] == 4
    assert rows["primes-below"]["sizes (slowest first)"] == "2 2 1 1"
    assert rows["primes-below"]["scores"] == "33.3 66.7 83.3 100"
    assert rows["primes-below"]["references"] == 4
    page = build_report_html(report)
    assert 'id="plot-clusters"' in page
    cells = _cells(page)
    assert "longest-mirror-substring" in cells and "primes-below" in cells
    md = report_markdown(report, "/out/dpe/report.html")
    assert "## Clusters" in md and "| primes-below | 3 | 1 | 100 | 2.8 M |" in md
    assert "ambiguous-output: 5 tasks (37 solutions)" in md
    assert "`/out/dpe/report.html`" in md


def test_markdown_has_the_funnel_drops_and_tasks():
    md = report_markdown(report_from_rows(MERCURY, FUNNEL, title="Mercury build", dataset="/o"))
    assert "| filters | 11 | 8 | 181 | 142 |" in md
    assert "| paid-only | 1 | 37 | 0 | filters |" in md
    assert "| two-sorted-median | eval | Hard | 4 | 1.5 | 9 | 6x |" in md
    assert "## Spread of the measurements" in md and "## Clusters" not in md


def test_build_report_reads_the_published_parquet(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    (tmp_path / "parquet").mkdir()
    for split, rows in MERCURY.items():
        pq.write_table(pa.Table.from_pylist(rows), tmp_path / "parquet" / f"{split}.parquet")
    report = build_report(tmp_path, FUNNEL, title="Mercury build")
    assert [t.split for t in report.tasks] == ["train", "train", "eval", "eval"]
    assert report.meter == "cpu" and report.dataset == str(tmp_path)
    path = write_build_report(report, tmp_path / "report.html")
    assert "two-sorted-median" in path.read_text()


def test_a_build_that_published_nothing_still_gets_its_funnel(tmp_path):
    report = build_report(tmp_path, FUNNEL, title="Mercury build")
    assert report.tasks == []
    page = build_report_html(report)
    assert 'id="plot-funnel"' in page and 'id="plot-costs"' not in page
    assert "| uniqueness | 8 | 3 | 142 | 93 |" in report_markdown(report)
    assert any("ambiguous-output: 5 tasks (37 solutions)" in c for c in _cells(page))


SCORE: dict[str, Any] = {
    "pass_at_1": 0.75,
    "beyond_at_1": 0.4,
    "pass_at_k": 0.75,
    "beyond_at_k": 0.4,
    "gap": 0.35,
    "n_tasks": 2,
    "n_unscorable": 1,
    "meter": "icount",
    "unit": "instructions",
    "isolation": "bwrap",
    "missing_tasks": ["not-a-task"],
    "dps": 66.7,
    "dps_norm": 75.0,
    "dps_tasks": 1,
    "dpe_tasks": 1,
    "beyond_memory_at_1": 0.35,
    "memory_tasks": 1,
    "nmu": 1.25,
    "nmu_tasks": 1,
    "ntmu": 2.5,
    "ntmu_tasks": 1,
    "tasks": [
        {
            "task_id": "zeroes-to-end",
            "difficulty": "Easy",
            "n": 2,
            "c": 1,
            "pass_at_k": 0.5,
            "beyond": 0.4,
            "beyond_memory": 0.35,
            "nmu": 1.25,
            "ntmu": 2.5,
            "unscorable": False,
            "dpe": False,
            "reference_runtimes": [1.2e6, 2.0e6, 3.1e6],
            "samples": [
                {"index": 0, "status": "passed", "runtime": 1.9e6, "beyond": 0.8},
                {"index": 1, "status": "failed", "runtime": None, "beyond": 0.0},
            ],
        },
        {
            "task_id": "primes-below",
            "difficulty": "Medium",
            "n": 1,
            "c": 1,
            "pass_at_k": 1.0,
            "beyond": None,
            "unscorable": True,
            "dpe": True,
            "dps": 66.7,
            "reference_costs": [None, 2e7, 3e6, None],
            "samples": [
                {"index": 0, "status": "passed", "pe_cost": 1.5e7, "dps": 66.7, "cluster": 1}
            ],
        },
    ],
}


def test_score_report_says_each_tasks_score():
    page = score_report_html(SCORE, dataset="/out/hf", samples="s.jsonl")
    cells = _cells(page)
    i = cells.index("zeroes-to-end")
    assert cells[i + 1 : i + 7] == ["Easy", "2", "1", "0.5", "0.4", "-"]
    assert cells[i + 7 : i + 10] == ["0.35", "1.25", "2.5"]  # Beyond-memory, NMU, NTMU
    i = cells.index("primes-below")
    assert cells[i + 5 : i + 10] == ["-", "66.7", "-", "-", "-"]  # a DPE task: no memory figure
    assert "pass_at_1" in cells and "0.75" in cells and "DPS" in cells
    # the memory figures in the summary, each with the tasks its mean covers
    for figure, value in (("Beyond-memory@1", "0.35"), ("NMU", "1.25"), ("NTMU", "2.5")):
        j = cells.index(f"{figure} (over 1 tasks)")
        assert cells[j + 1] == value
    assert "not-a-task" in page
    for div in SCORE_PLOT_IDS:
        assert f'id="{div}"' in page


# --- in a browser ---------------------------------------------------------------------------------


_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "wbr",
}


class _RenderedPlots(HTMLParser):
    """Which plot divs of a rendered DOM hold plotly's drawing (an ``svg.main-svg``), and the
    text drawn in each (tick labels, panel titles)."""

    def __init__(self, ids: tuple[str, ...]) -> None:
        super().__init__()
        self.ids = ids
        self.stack: list[str | None] = []  # the plot id each open element belongs to
        self.drawn: set[str] = set()
        self.texts: dict[str, list[str]] = {}

    def handle_data(self, data: str) -> None:
        inside = self.stack[-1] if self.stack else None
        if inside and data.strip():
            self.texts.setdefault(inside, []).append(data.strip())

    def _see(self, tag: str, attrs: list[tuple[str, str | None]]) -> str | None:
        a = dict(attrs)
        inside = self.stack[-1] if self.stack else None
        if a.get("id") in self.ids:
            inside = a["id"]
        if tag == "svg" and inside and "main-svg" in (a.get("class") or "").split():
            self.drawn.add(inside)
        return inside

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        inside = self._see(tag, attrs)
        if tag not in _VOID:
            self.stack.append(inside)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._see(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self.stack:
            self.stack.pop()


def _rendered_dom(page: Path, profile: Path) -> str:
    proc = subprocess.run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--virtual-time-budget=10000",
            "--dump-dom",
            page.resolve().as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@requires_chromium
@pytest.mark.parametrize("kind", ["mercury", "dpe", "score"])
def test_every_plot_renders_in_a_headless_browser(tmp_path, kind):
    if kind == "score":
        page, ids = score_report_html(SCORE, dataset="d", samples="s"), SCORE_PLOT_IDS
    else:
        rows = MERCURY if kind == "mercury" else DPE
        page = build_report_html(report_from_rows(rows, FUNNEL, title="b", dataset="/o"))
        # the DPE rows are icount's (exact: no spread plot, a sentence says so); made from rows
        # alone, no stage folders: the seconds per stage, no time per task
        ids = tuple(
            i
            for i in PLOT_IDS
            if i != "plot-time-tasks" and i != ("plot-spread" if kind == "dpe" else "plot-clusters")
        )
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    dom = _rendered_dom(path, tmp_path / "profile")
    parser = _RenderedPlots(ids)
    parser.feed(dom)
    assert parser.drawn == set(ids), f"not drawn: {set(ids) - parser.drawn}"
    # plotly drew the data: the task names are tick labels inside the SVGs
    assert re.search(r"<text[^>]*>[^<]*(zeroes-to-end|primes-below)", dom)


def _render(tmp_path: Path, page: str, ids: tuple[str, ...]) -> tuple[_RenderedPlots, str]:
    """The page as headless Chromium drew it: its plots (and their text), and its DOM."""
    path = tmp_path / "page.html"
    path.write_text(page, encoding="utf-8")
    dom = _rendered_dom(path, tmp_path / "profile")
    parser = _RenderedPlots(ids)
    parser.feed(dom)
    return parser, dom


@requires_chromium
def test_the_new_sections_render_with_their_content(tmp_path):
    """In a browser: the slowest tasks drawn by name, the dropped tasks beside their reason, the
    extreme spread with its ratio, the inputs' sizes; 33 clusters panels titled by task; the
    score report's failures with their reasons."""
    report = _staged_report(tmp_path)
    plots, dom = _render(tmp_path, build_report_html(report), PLOT_IDS)
    cells = _cells(dom)
    assert {"plot-time-stages", "plot-time-tasks"} <= plots.drawn
    drawn = plots.texts["plot-time-tasks"]
    for slug in ("two-sorted-median", "zeroes-to-end", "cluster-anagrams", "stair-paths"):
        assert slug in drawn
    assert {"profile", "testcases"} <= set(plots.texts["plot-time-stages"])
    i = cells.index("knight-tour, longest-mirror-substring")
    assert cells[i - 2 : i] == ["uniqueness", "ambiguous-output"]
    assert "8,450x (extreme)" in cells and "8,450x" in cells
    inputs = _cells(_section(dom, "inputs"))
    assert _table_after(inputs, "zeroes-to-end", 4)[1:] == ["3", "1000", "3893"]

    many = report_from_rows(_many_dpe_tasks(33), FUNNEL, title="b", dataset="/o")
    plots, _ = _render(tmp_path, build_report_html(many), ("plot-clusters",))
    assert plots.drawn == {"plot-clusters"}
    titles = set(plots.texts["plot-clusters"])
    assert all(t.task in titles for t in many.tasks)

    plots, dom = _render(
        tmp_path, score_report_html(FAILING, dataset="d", samples="s"), SCORE_PLOT_IDS
    )
    cells = _cells(dom)
    assert plots.drawn == set(SCORE_PLOT_IDS)
    assert _table_after(cells, "performance input: timeout", 3)[1:] == ["1", "primes-below"]
    assert "case 3: wrong answer: got [1, 0], expected [0, 1]" in cells


def test_numbers_are_formatted_for_people():
    from quicksilver.report import _num, _ratio

    assert _num(7_133_000_000) == "7.13 G" and _num(38_830_000_000) == "38.8 G"
    assert _num(84_500) == "84.5 k" and _num(20_000_000) == "20 M" and _num(1.2e13) == "12 T"
    assert _num(9999) == "9999" and _num(16.666666666666668) == "16.67" and _num(4.27) == "4.27"
    assert _num(0.0123456) == "0.01235" and _num(None) == "-" and _num(0.6666, 3) == "0.667"
    assert _ratio(8450.2) == "8,450x" and _ratio(12.34) == "12.3x" and _ratio(1.049) == "1.05x"


def test_an_exact_meter_gets_a_sentence_not_a_spread_of_zeros():
    """Under icount every count is exact: no spread plot or table of 0.00%, one sentence."""
    from quicksilver.report import EXACT_SPREAD, spread_informative

    exact = report_from_rows(DPE, FUNNEL, title="b", dataset="/o")
    assert exact.meter == "icount" and not spread_informative(exact)
    sentence = EXACT_SPREAD.format(meter="icount")
    page = build_report_html(exact)
    assert sentence in page and 'id="plot-spread"' not in page
    md = report_markdown(exact)
    assert sentence in md and "median CV" not in md
    measured = report_from_rows(MERCURY, FUNNEL, title="b", dataset="/o")
    assert spread_informative(measured)
    page = build_report_html(measured)
    assert sentence not in page and 'id="plot-spread"' in page
    assert "median CI width" in report_markdown(measured)


# --- what the stage folders add: dropped tasks by name, time per task ------------------------------


def _stage_folder(root: Path) -> None:
    """A build folder's stages/ as the runner writes them (records, rejects and manifests, in the
    shapes of quicksilver.pipeline): the filters and uniqueness stages drop tasks and solutions, a
    sharded testcases stage (no answer CPU recorded: split evenly) and a sharded profile stage
    (measured runtimes: split by their work)."""
    from quicksilver.pipeline.files import StageDir, write_jsonl
    from quicksilver.pipeline.records import Runtime, Solution, Task, TaskRecord, solution_hash
    from quicksilver.pipeline.stage import Context

    def record(slug: str, runtimes: list[tuple[float, int]] | None = None) -> TaskRecord:
        sols = [
            Solution(
                slug=slug,
                hash=solution_hash(f"# {slug} {i}"),
                code=f"# {slug} {i}",
                runtime=Runtime(runtime=r, ci_low=r, ci_high=r, rounds=n) if r else None,
            )
            for i, (r, n) in enumerate(runtimes or [(0.0, 0), (0.0, 0)])
        ]
        return TaskRecord(task=Task(slug=slug), solutions=sols)

    def stage(name: str, part: str, kept: list[TaskRecord], ctx: Context, seconds: float) -> None:
        sd = StageDir(root, name)
        write_jsonl(sd.records(part), [r.row() for r in kept])
        write_jsonl(sd.rejects(part), ctx.rejects)
        sd.finish("k", {"stage": name}, part, seconds=seconds)

    ctx = Context("filters")
    ctx.drop(record("meeting-room-count"), "paid-only", "paid-only question")
    ctx.drop(record("max-path-total"), "min-solutions", "1 solution")
    stage("filters", "", [], ctx, 0.5)
    ctx = Context("uniqueness")
    ctx.drop(record("longest-mirror-substring"), "ambiguous-output", "outputs disagree")
    ctx.drop(record("knight-tour"), "ambiguous-output", "outputs disagree")
    wrong = record("zeroes-to-end").solutions
    for sol in wrong:
        ctx.drop(sol, "wrong-answer", "case 3: wrong answer")
    ctx.drop(
        {"slug": "cluster-anagrams", "input": [["ab"]]},
        "invalid-input",
        "not a string",
        dropped="input",
    )
    stage("uniqueness", "", [], ctx, 2.0)
    # two shards of two tasks each: 40 s and 8 s of testcases, 100 s and 30 s of profiling
    heavy = record("two-sorted-median", [(2.0, 4), (0.5, 2)])  # work 9
    light = record("zeroes-to-end", [(0.5, 2)])  # work 1
    stage(
        "testcases",
        "shard-0000",
        [record("two-sorted-median"), record("zeroes-to-end")],
        Context("testcases"),
        40.0,
    )
    stage(
        "testcases",
        "shard-0001",
        [record("cluster-anagrams"), record("stair-paths")],
        Context("testcases"),
        8.0,
    )
    stage("profile", "shard-0000", [heavy, light], Context("profile"), 100.0)
    stage(
        "profile",
        "shard-0001",
        [record("cluster-anagrams", [(1.0, 3)]), record("stair-paths", [(1.0, 1)])],
        Context("profile"),
        30.0,
    )


TIMED_FUNNEL = [
    {**FUNNEL[1], "seconds": 0.5},
    {**FUNNEL[2], "seconds": 2.0},
    {
        **FUNNEL[2],
        "stage": "testcases",
        "drops": {},
        "drop_tasks": {},
        "drop_solutions": {},
        "seconds": 48.0,
    },
    {
        **FUNNEL[2],
        "stage": "profile",
        "drops": {},
        "drop_tasks": {},
        "drop_solutions": {},
        "seconds": 130.0,
    },
]


def _staged_report(tmp_path: Path) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    _stage_folder(tmp_path)
    (tmp_path / "parquet").mkdir()
    for split, rows in MERCURY.items():
        pq.write_table(pa.Table.from_pylist(rows), tmp_path / "parquet" / f"{split}.parquet")
    return build_report(tmp_path, TIMED_FUNNEL, title="Mercury build")


def _section(page: str, section: str) -> str:
    """One section of a page, by its id."""
    part = page[page.index(f'<section id="{section}">') :]
    return part[: part.index("</section>")]


def _table_after(cells: list[str], first: str, n: int) -> list[str]:
    i = cells.index(first)
    return cells[i : i + n]


def test_dropped_tasks_are_named_beside_their_stage_and_reason(tmp_path):
    from quicksilver.report import dropped_name_rows

    report = _staged_report(tmp_path)
    rows = {(r["stage"], r["reason"]): r for r in dropped_name_rows(report)}
    assert rows["filters", "paid-only"]["tasks"] == "meeting-room-count"
    assert rows["filters", "min-solutions"]["tasks"] == "max-path-total"
    amb = rows["uniqueness", "ambiguous-output"]
    assert amb["tasks"] == "knight-tour, longest-mirror-substring"
    assert amb["solutions of"] == "-"  # the dropped tasks' solutions went with them
    assert rows["uniqueness", "wrong-answer"]["solutions of"] == "zeroes-to-end (2)"
    assert rows["uniqueness", "invalid-input"]["other records of"] == "cluster-anagrams (1)"
    cells = _cells(build_report_html(report))
    i = cells.index("knight-tour, longest-mirror-substring")
    assert cells[i - 2 : i] == ["uniqueness", "ambiguous-output"]
    md = report_markdown(report)
    assert "| filters | paid-only | meeting-room-count | - | - |" in md


def test_where_the_time_went_per_stage_and_per_task(tmp_path):
    from quicksilver.report import stage_time_rows, task_time_rows

    report = _staged_report(tmp_path)
    stages = {r["stage"]: r for r in stage_time_rows(report)}
    assert stages["profile"]["seconds"] == "130" and stages["profile"]["share"] == "72.0%"
    assert stages["testcases"]["shards"] == 2 and stages["filters"]["shards"] == "-"
    rows = task_time_rows(report)
    # profile shard-0000's 100 s by work (9 : 1), testcases' 40 s evenly (nothing recorded)
    assert rows[0] == {
        "task": "two-sorted-median",
        "seconds (est.)": "110",
        "testcases (s)": "20",
        "profile (s)": "90",
    }
    assert [r["task"] for r in rows] == [
        "two-sorted-median",
        "zeroes-to-end",
        "cluster-anagrams",
        "stair-paths",
    ]
    assert rows[1]["profile (s)"] == "10" and rows[2]["profile (s)"] == "22.5"
    page = build_report_html(report)
    assert 'id="plot-time-stages"' in page and 'id="plot-time-tasks"' in page
    cells = _cells(_section(page, "time"))
    assert _table_after(cells, "two-sorted-median", 4) == ["two-sorted-median", "110", "20", "90"]
    assert _table_after(cells, "profile", 4) == ["profile", "130", "72.0%", "2"]


def test_a_report_without_stage_folders_says_it_has_no_time_per_task():
    report = report_from_rows(MERCURY, TIMED_FUNNEL, title="b", dataset="/o")
    page = build_report_html(report)
    assert "no time per task" in page and 'id="plot-time-tasks"' not in page
    assert 'id="plot-time-stages"' in page  # the funnel's seconds are there


def test_the_inputs_each_task_was_tested_on():
    from quicksilver.report import input_rows, input_size

    assert input_size([[1, 2, 3], "abcd", 7]) == (8, len('[[1,2,3],"abcd",7]'))
    assert input_size([[[1, 2], [3]]]) == (3, 13)
    rows = {
        r["task"]: r for r in input_rows(report_from_rows(MERCURY, FUNNEL, title="b", dataset="/o"))
    }
    assert rows["zeroes-to-end"]["test cases"] == 3
    assert rows["zeroes-to-end"]["largest input (elements)"] == "1000"
    assert rows["zeroes-to-end"]["largest input (bytes)"] == str(
        len(json.dumps([list(range(1000))], separators=(",", ":")))
    )
    dpe = report_from_rows(DPE, FUNNEL, title="b", dataset="/o")
    rows = {r["task"]: r for r in input_rows(dpe)}
    assert rows["primes-below"]["test cases"] == 2
    assert rows["primes-below"]["pe scale"] == "4096"
    assert rows["primes-below"]["pe input (elements)"] == "5000"
    assert rows["primes-below"]["pe input (bytes)"] == "23.9 k"
    assert rows["longest-mirror-substring"]["pe scale"] == "-"  # the row has no pe input
    cells = _cells(_section(build_report_html(dpe), "inputs"))
    assert _table_after(cells, "primes-below", 7)[1:] == ["2", "1", "4", "4096", "5000", "23.9 k"]


def test_extreme_spreads_are_flagged_with_their_ratio():
    from quicksilver.report import EXTREME_SPREAD, extreme_rows

    assert EXTREME_SPREAD == 100.0
    report = report_from_rows(MERCURY, FUNNEL, title="b", dataset="/o")
    rows = {r["task"]: r for r in task_rows(report)}
    assert rows["stair-paths"]["slowest/fastest"] == "8,450x (extreme)"
    assert rows["two-sorted-median"]["slowest/fastest"] == "6x"  # not flagged
    assert [(r["task"], r["slowest/fastest"]) for r in extreme_rows(report)] == [
        ("stair-paths", "8,450x")
    ]
    page = build_report_html(report)
    section = _section(page, "extreme")
    assert "1 task(s) whose slowest" in section and "stair-paths" in section
    assert "8,450x" in section and "two-sorted-median" not in section
    md = report_markdown(report)
    assert "| stair-paths | eval | 0.0002 | 1.69 | 8,450x |" in md


def _many_dpe_tasks(n: int) -> dict[str, list[dict[str, Any]]]:
    return {
        "test": [
            _dpe_row(
                f"task-{i:02d}-{'x' * (i % 7)}",
                [(1e6 * (i + 2) * 8, 0), (1e6 * (i + 2) * 2, 1), (1e6 * (i + 2), 2)],
                [33.3, 66.7, 100.0],
            )
            for i in range(n)
        ]
    }


def test_clusters_are_small_multiples_one_panel_per_task():
    """33 tasks: 33 panels titled with their task's name, each of a readable size however many
    tasks there are (the grid grows downwards), no legend of 33 lines."""
    from quicksilver.report import clusters_figure

    report = report_from_rows(_many_dpe_tasks(33), FUNNEL, title="b", dataset="/o")
    fig = clusters_figure(report)
    titles = [a.text for a in fig.layout.annotations]
    assert titles == [t.task for t in report.tasks]
    assert len(fig.data) == 33 and fig.layout.showlegend is False
    rows = -(-33 // 4)
    assert fig.layout.height >= 200 * rows
    for axis in ("yaxis", "yaxis33"):  # the first and the last panel
        low, high = fig.layout[axis].domain
        assert (high - low) * fig.layout.height >= 150  # px per panel, not a sliver
    assert fig.layout.xaxis33.type == "log"


# --- the score report: why samples failed ---------------------------------------------------------


FAILING: dict[str, Any] = {
    **SCORE,
    "tasks": [
        {
            **SCORE["tasks"][0],
            "n": 4,
            "samples": [
                *SCORE["tasks"][0]["samples"][:1],
                {
                    "index": 1,
                    "status": "failed",
                    "error": "case 3: wrong answer: got [1, 0], expected [0, 1]",
                },
                {
                    "index": 2,
                    "status": "error",
                    "error": "case 0: NameError: name 'heapq' is not defined " + "x" * 400,
                },
                {"index": 3, "status": "timeout", "error": "CPU limit of 10 s exceeded"},
            ],
        },
        {
            **SCORE["tasks"][1],
            "samples": [
                *SCORE["tasks"][1]["samples"],
                {
                    "index": 1,
                    "status": "failed",
                    "error": "case 0: wrong answer: got 3, expected 4",
                },
                {
                    "index": 2,
                    "status": "passed",
                    "pe_status": "timeout",
                    "pe_error": "CPU limit of 20 s exceeded on the performance input",
                },
            ],
        },
    ],
}


def test_score_report_says_why_each_failed_sample_failed():
    from quicksilver.report import FAILURE_DETAIL_CHARS, failure_rows, failure_summary_rows

    rows = failure_rows(FAILING)
    assert [(r["task"], r["sample"], r["reason"]) for r in rows] == [
        ("zeroes-to-end", 1, "wrong answer"),
        ("zeroes-to-end", 2, "error (NameError)"),
        ("zeroes-to-end", 3, "timeout"),
        ("primes-below", 1, "wrong answer"),
        ("primes-below", 2, "performance input: timeout"),
    ]
    assert rows[0]["error"] == "case 3: wrong answer: got [1, 0], expected [0, 1]"
    cut = rows[1]["error"]
    assert len(cut) == FAILURE_DETAIL_CHARS and cut.endswith("…")
    assert cut.startswith("case 0: NameError: name 'heapq' is not defined")
    assert failure_summary_rows(FAILING)[0] == {
        "reason": "wrong answer",
        "samples": 2,
        "tasks": "primes-below, zeroes-to-end",
    }
    page = score_report_html(FAILING, dataset="/out/hf", samples="s.jsonl")
    cells = _cells(page)
    assert _table_after(cells, "wrong answer", 3) == [
        "wrong answer",
        "2",
        "primes-below, zeroes-to-end",
    ]
    i = cells.index("passed; performance input: timeout")
    assert cells[i - 2 : i] == ["primes-below", "2"]
    # per task, in the tasks table: its failures per reason
    assert "error (NameError): 1; timeout: 1; wrong answer: 1" in cells
    # a run where nothing failed says so
    clean = {**SCORE, "tasks": [{**SCORE["tasks"][1]}]}
    assert "No sample failed." in score_report_html(clean, dataset="d", samples="s")
