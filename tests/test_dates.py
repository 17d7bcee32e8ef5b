"""Release dates end to end: three bundled questions, two with a release date attached (one after
the window, one before) and one undated, built with ``splits.eval_after`` through the core runner
(no Prefect), then scored with ``quicksilver score --released-after``.

Also the pieces on small inputs: the snapshot's optional ``release``, the splits' date window,
the row columns' checks, and rows written before the columns existed loading for scoring.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

import datasets
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from quicksilver.builds import MERCURY
from quicksilver.config import ConfigError, load_build_config
from quicksilver.pipeline.runner import Runner
from quicksilver.publishing.card import split_front_matter
from quicksilver.publishing.schema import check_row
from quicksilver.publishing.views import SFT_FEATURES
from quicksilver.rows import TaskRow, load_records
from quicksilver.scoring import release_window
from quicksilver.sources.snapshot import SnapshotError, parse_snapshot, read_snapshot
from quicksilver.stages.splits import split_tasks
from tests.conftest import requires_bwrap
from tests.test_publish import make_row

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "data" / "snapshot" / "bundled"
WINDOW = "2024-06-01"
DATES = {  # slug -> release attached to its copy; has-repeated-value stays undated
    "primes-below": {"date": "2024-09-01", "provenance": "manual"},
    "zeroes-to-end": {"date": "2023-01-15", "provenance": "question-id"},
}
SLUGS = ["primes-below", "zeroes-to-end", "has-repeated-value"]


# --- small inputs ---------------------------------------------------------------------------------


def test_snapshot_release_is_optional_and_checked():
    data = json.loads((BUNDLED / "primes-below.json").read_text())
    assert parse_snapshot(data).release is None  # the bundled corpus is undated
    dated = parse_snapshot({**data, "release": DATES["primes-below"]})
    assert dated.release is not None and dated.release.date == dt.date(2024, 9, 1)
    with pytest.raises(SnapshotError, match=r"release\.date"):
        parse_snapshot({**data, "release": {"date": "September 2024", "provenance": "manual"}})
    with pytest.raises(SnapshotError, match=r"release\.provenance"):
        parse_snapshot({**data, "release": {"date": "2024-09-01", "provenance": "a guess"}})


def _rows(n: int, dates: list[str | None]) -> list[dict[str, Any]]:
    diffs = ("Easy", "Medium", "Hard")
    return [
        {"slug": f"t{i:02d}", "difficulty": diffs[i % 3], "release_date": dates[i % len(dates)]}
        for i in range(n)
    ]


def test_a_date_window_holds_out_only_tasks_released_after_it():
    after = dt.date(2024, 6, 1)
    rows = _rows(12, ["2024-07-01", "2024-06-01", None, "2025-01-02"])
    window = {r["slug"] for r in rows if r["release_date"] in ("2024-07-01", "2025-01-02")}
    # alone: the whole window, whatever the difficulty
    splits, notes = split_tasks(rows, eval_size=None, seed=0, eval_after=after)
    assert set(splits["eval"]) == window
    assert set(splits["train"]) == {r["slug"] for r in rows} - window
    assert notes[0] == (
        "eval window: tasks released after 2024-06-01: 6 of 12; 3 released on or before it and "
        "3 undated go to train"
    )
    # with the difficulty balance: a third per difficulty, drawn from the window only
    balanced, _ = split_tasks(rows, eval_size=3, seed=0, eval_after=after)
    assert len(balanced["eval"]) == 3 and set(balanced["eval"]) <= window
    assert {r["difficulty"] for r in rows if r["slug"] in balanced["eval"]} == {
        "Easy",
        "Medium",
        "Hard",
    }
    # undated tasks never go to a windowed eval, even when it has room
    undated, _ = split_tasks(_rows(6, [None]), eval_size=6, seed=0, eval_after=after)
    assert "eval" not in undated and len(undated["train"]) == 6


def test_eval_size_null_needs_a_window():
    with pytest.raises(ConfigError, match="eval_size may be null only with eval_after"):
        load_build_config(None, ["splits.eval_size=null"])
    cfg = load_build_config(None, ["splits.eval_size=null", f"splits.eval_after={WINDOW}"])
    assert cfg.splits.eval_after == dt.date(2024, 6, 1)


def test_row_release_columns():
    row = make_row()
    assert check_row(row) == []  # undated: both null
    assert check_row({**row, "release_date": "2024-09-01", "release_date_source": "leetcode"}) == []
    assert check_row({**row, "release_date": "2024-9-1", "release_date_source": "leetcode"}) == [
        ("release_date", "not a YYYY-MM-DD date: '2024-9-1'")
    ]
    assert check_row({**row, "release_date": "2024-09-01"}) == [
        ("release_date_source", "a release_date needs its provenance")
    ]
    assert check_row({**row, "release_date_source": "manual"}) == [
        ("release_date_source", "set, but no release_date")
    ]


def test_rows_without_the_columns_still_load_for_scoring(tmp_path):
    old = {k: v for k, v in make_row().items() if not k.startswith("release_date")}
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(old) + "\n")
    loaded = load_records(path)
    assert not loaded.rejects
    (rec,) = loaded.records
    assert rec.release_date is None and rec.released is None
    kept, left, window = release_window(loaded.records, dt.date(2024, 6, 1))
    assert kept == [] and left == [rec] and (window.undated, window.earlier) == (1, 0)


def test_window_tasks_in_the_training_views_are_counted_and_warned_about(tmp_path, caplog):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from quicksilver.publishing.views import view_slugs
    from quicksilver.scoring import in_training_views

    assert view_slugs(tmp_path) == {}  # no view: nothing to count
    (tmp_path / "hf").mkdir()
    (tmp_path / "views" / "sft").mkdir(parents=True)
    pq.write_table(
        pa.table({"prompt": ["p", "q"], "slug_name": ["t-0", "t-1"]}),
        tmp_path / "views" / "sft" / "train.parquet",
    )
    hub = tmp_path / "hub" / "dpo"  # the Hub's layout: <view>/train-*.parquet
    hub.mkdir(parents=True)
    pq.write_table(pa.table({"slug_name": ["t-2"]}), hub / "train-00000-of-00001.parquet")
    views = view_slugs(tmp_path / "hf")  # the views sit beside the dataset's hf/ folder
    assert views == view_slugs(tmp_path) == {"sft": {"t-0", "t-1"}}
    assert view_slugs(tmp_path / "hub") == {"dpo": {"t-2"}}
    recs = [
        TaskRow.model_validate({**make_row(f"t-{i}", str(i + 1)), "release_date": "2024-07-01"})
        for i in (1, 5)
    ]
    with caplog.at_level("WARNING", logger="quicksilver.scoring"):
        assert in_training_views(recs, views, dt.date(2024, 6, 1)) == 1
    (line,) = [r.getMessage() for r in caplog.records]
    assert "1 of the 2 task(s) in the window are in the dataset's training views (sft)" in line
    assert line.endswith(": t-1") and "\n" not in line
    caplog.clear()
    assert in_training_views(recs[1:], views, dt.date(2024, 6, 1)) == 0
    assert not caplog.records


def test_release_window_counts():
    recs = [
        TaskRow.model_validate({**make_row(f"t-{i}", str(i + 1)), "release_date": d})
        for i, d in enumerate(["2024-06-02", "2024-06-01", None])
    ]
    kept, _, window = release_window(recs, dt.date(2024, 6, 1))
    assert [r.slug_name for r in kept] == ["t-0"]  # strictly after: the day itself is out
    assert (window.tasks, window.earlier, window.undated) == (1, 1, 1)


# --- end to end -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dated_build(tmp_path_factory) -> Path:
    snap = tmp_path_factory.mktemp("snapshot")
    for slug in SLUGS:
        data = json.loads((BUNDLED / f"{slug}.json").read_text())
        if slug in DATES:
            data["release"] = DATES[slug]
        (snap / f"{slug}.json").write_text(json.dumps(data, indent=1))
        read_snapshot(snap / f"{slug}.json")
    out = tmp_path_factory.mktemp("build") / "mercury"
    cfg = load_build_config(
        ROOT / "configs" / "mercury.yaml",
        [
            f"out_dir={out}",
            f"snapshots={json.dumps([str(snap)])}",
            "testcases.n=6",
            "testcases.min_cases=3",
            "testcases.solution_cpu_seconds=5",
            "synthesis.size_cap=40",
            "profile.sandbox.limits.cpu_seconds=30",
            f"splits.eval_after={WINDOW}",
            "splits.eval_size=null",
            "views.dpo_min_gap=0.05",
            "runner.shard_size=3",
        ],
    ).resolve(ROOT)
    runner = Runner(MERCURY, cfg)
    for stage in MERCURY.stages:
        for part in runner.shard_names() if stage.sharded else [""]:
            runner.run(stage.name, part)
    return out


@requires_bwrap
def test_dated_eval_window_built_end_to_end(dated_build, tmp_path):
    out = dated_build
    ev = pq.read_table(out / "parquet" / "eval.parquet").to_pylist()
    train = pq.read_table(out / "parquet" / "train.parquet").to_pylist()
    assert [(r["slug_name"], r["release_date"], r["release_date_source"]) for r in ev] == [
        ("primes-below", "2024-09-01", "manual")
    ]
    assert {(r["slug_name"], r["release_date"], r["release_date_source"]) for r in train} == {
        ("zeroes-to-end", "2023-01-15", "question-id"),
        ("has-repeated-value", None, None),
    }
    meta, body = split_front_matter((out / "README.md").read_text())
    assert "**Eval window: tasks released after 2024-06-01.**" in body
    assert "| eval | 1 | 0 | 2024-09-01 | 2024-09-01 |" in body
    assert "| train | 1 | 1 | 2023-01-15 | 2023-01-15 |" in body
    # the training views: train tasks only, loadable by name
    names = [c["config_name"] for c in meta["configs"]]
    assert names[:2] == ["default", "sft"]
    sft = datasets.load_dataset(
        str(out), name="sft", split="train", cache_dir=str(tmp_path / "cache")
    )
    assert sft.features == SFT_FEATURES
    assert sorted(sft["slug_name"]) == ["has-repeated-value", "zeroes-to-end"]
    if "dpo" in names:
        dpo = datasets.load_dataset(
            str(out), name="dpo", split="train", cache_dir=str(tmp_path / "cache")
        )
        assert set(dpo["slug_name"]) <= {"has-repeated-value", "zeroes-to-end"}
        assert all(
            c < r for c, r in zip(dpo["chosen_runtime"], dpo["rejected_runtime"], strict=True)
        )


@requires_bwrap
def test_score_released_after_scores_only_the_window(dated_build, tmp_path):
    from quicksilver.cli import app

    out = dated_build
    samples = tmp_path / "samples.jsonl"
    with samples.open("w") as fh:
        for split in ("train", "eval"):
            for row in pq.read_table(out / "parquet" / f"{split}.parquet").to_pylist():
                fh.write(
                    json.dumps(
                        {"task_id": row["slug_name"], "completion": row["solutions"][0]["solution"]}
                    )
                    + "\n"
                )
    report = tmp_path / "report.json"
    result = CliRunner().invoke(
        app,
        [
            "score",
            "--dataset",
            str(out),
            "--samples",
            str(samples),
            "--released-after",
            WINDOW,
            "--json",
            str(report),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "released after 2024-06-01: 1 task(s) of the dataset; left out: 1 released on" in (
        " ".join(result.output.split())
    )
    data = json.loads(report.read_text())
    assert data["released_after"] == {
        "after": WINDOW,
        "tasks": 1,
        "earlier_left_out": 1,
        "undated_left_out": 1,
        "samples_left_out": 2,
        "in_training_views": 0,  # the window is the eval split: no view holds it
    }
    assert [t["task_id"] for t in data["tasks"]] == ["primes-below"]
    assert data["missing_tasks"] == [] and data["pass_at_1"] == pytest.approx(1.0)

    # an earlier cutoff takes in a train task, which the sft view holds: counted and said
    early = CliRunner().invoke(
        app,
        [
            "score",
            "--dataset",
            str(out / "hf"),
            "--samples",
            str(samples),
            "--released-after",
            "2022-12-31",
            "--json",
            str(report),
        ],
    )
    assert early.exit_code == 0, early.output
    window = json.loads(report.read_text())["released_after"]
    assert (window["tasks"], window["in_training_views"]) == (2, 1)
    text = " ".join(early.output.replace("│", " ").split())
    assert "1 of the window's tasks are in the training views" in text, text
    assert "WARNING --released-after 2022-12-31: 1 of the 2 task(s) in the window" in text, text

    bad = CliRunner().invoke(
        app, ["score", "--dataset", str(out), "--samples", str(samples), "--released-after", "x"]
    )
    assert bad.exit_code == 2 and "not a YYYY-MM-DD date" in bad.output
    none = CliRunner().invoke(
        app,
        [
            "score",
            "--dataset",
            str(out),
            "--samples",
            str(samples),
            "--released-after",
            "2030-01-01",
        ],
    )
    assert none.exit_code == 2 and "no task of the dataset was released after 2030-01-01" in (
        " ".join(none.output.split())
    )


def test_bundled_snapshots_stay_undated():
    """The bundled corpus is made up: no release date is invented for it."""
    assert all(read_snapshot(p).release is None for p in sorted(BUNDLED.glob("*.json"))[:5])


def test_attach_dates_sets_release_and_names_what_it_did_not_find(tmp_path):
    from quicksilver.cli import app

    for slug in ("primes-below", "zeroes-to-end"):
        shutil.copy(BUNDLED / f"{slug}.json", tmp_path / f"{slug}.json")
    front_id = read_snapshot(tmp_path / "zeroes-to-end.json").question.questionFrontendId
    dates = tmp_path / "dates.json"
    dates.write_text(
        json.dumps({"primes-below": "2024-09-01", front_id: "2023-01-15", "x": "2020-01-01"})
    )
    args = [
        "snapshot",
        "attach-dates",
        str(tmp_path),
        "--dates",
        str(dates),
        "--provenance",
        "contest",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "dated 2 question(s) (contest); 0 already so; 1 named no question: x" in result.output
    release = read_snapshot(tmp_path / "zeroes-to-end.json").release
    assert release is not None and (release.date, release.provenance) == (
        dt.date(2023, 1, 15),
        "contest",
    )
    again = CliRunner().invoke(app, args)
    assert "dated 0 question(s) (contest); 2 already so" in again.output
    dates.write_text(json.dumps({"primes-below": "soon"}))
    bad = CliRunner().invoke(
        app, ["snapshot", "attach-dates", str(tmp_path), "--dates", str(dates)]
    )
    assert bad.exit_code == 2 and "date" in bad.output
