"""The build and score reports (quicksilver/report.py) on small made-up rows: what they say (the
funnel's numbers, every task, the drops, the clusters), that they are self-contained, and, in a
headless Chromium, that every plot renders."""

from __future__ import annotations

import html
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


def _mercury_row(slug: str, difficulty: str, runtimes: list[float]) -> dict[str, Any]:
    return {
        "slug_name": slug,
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
        _mercury_row("zeroes-to-end", "Easy", [0.012, 0.019, 0.031]),
        _mercury_row("cluster-anagrams", "Medium", [0.2, 0.21]),
    ],
    "eval": [_mercury_row("two-sorted-median", "Hard", [1.5, 2.5, 9.0, 4.0])],
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
        _dpe_row(
            "primes-below",
            [(9e7, 0), (8.5e7, 0), (2e7, 1), (1.9e7, 1), (3e6, 2), (2.8e6, 3)],
            [33.3, 66.7, 83.3, 100.0],
        ),
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
    assert set(rows) == {"zeroes-to-end", "cluster-anagrams", "two-sorted-median"}
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
    assert [t.split for t in report.tasks] == ["train", "train", "eval"]
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
    """Which plot divs of a rendered DOM hold plotly's drawing (an ``svg.main-svg``)."""

    def __init__(self, ids: tuple[str, ...]) -> None:
        super().__init__()
        self.ids = ids
        self.stack: list[str | None] = []  # the plot id each open element belongs to
        self.drawn: set[str] = set()

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
        # the DPE rows are icount's (exact: no spread plot, a sentence says so)
        ids = tuple(i for i in PLOT_IDS if i != "plot-spread") if kind == "dpe" else PLOT_IDS[:4]
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    dom = _rendered_dom(path, tmp_path / "profile")
    parser = _RenderedPlots(ids)
    parser.feed(dom)
    assert parser.drawn == set(ids), f"not drawn: {set(ids) - parser.drawn}"
    # plotly drew the data: the task names are tick labels inside the SVGs
    assert re.search(r"<text[^>]*>[^<]*(zeroes-to-end|primes-below)", dom)


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
