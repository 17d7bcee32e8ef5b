"""The end of a build keeps what is valid (issue 13, item 6).

Small stage folders hold what the profile (Mercury) or select (DPE) stage would have left: the
splits and publish stages then run on them as in a build. With fewer tasks than
``splits.eval_size`` the dataset has no train split (said in the log, the funnel and the card),
and that folder works with ``quicksilver publish`` and ``quicksilver score``; a task whose row
cannot be made or does not fit the schema is set aside with its solutions; with no task at all
nothing is written and nothing crashes.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import datasets
import pytest
from typer.testing import CliRunner

from quicksilver.builds import DPE, MERCURY
from quicksilver.cli import app
from quicksilver.config import DPEBuildConfig, load_build_config
from quicksilver.pipeline.files import read_jsonl
from quicksilver.pipeline.runner import Runner, read_records, write_records
from quicksilver.publishing.card import split_front_matter
from quicksilver.publishing.hub import load_published, publish_to_hub
from quicksilver.rows import load_records
from quicksilver.stages import example
from tests.conftest import HUB_TOKEN, requires_bwrap

pytestmark = pytest.mark.filterwarnings("ignore:Use 'content=<...>':DeprecationWarning")

TASKS = [("alpha-sum", "Easy"), ("beta-sum", "Medium"), ("gamma-sum", "Hard")]


def _mercury(tmp_path: Path, tasks: list[tuple[str, str]], *sets: str) -> Runner:
    """A Mercury build folder whose generators, uniqueness and profile stages hold ``tasks`` (the
    example task under other names), as if the long stages had just finished."""
    cfg = load_build_config(None, [f"out_dir={tmp_path / 'out'}", *sets])
    build = Runner(MERCURY, cfg)
    gen, uniq, prof = build.dir("generators"), build.dir("uniqueness"), build.dir("profile")
    for sd in (gen, uniq, prof):
        sd.path.mkdir(parents=True)
    tested = [example.tested(slug, str(i + 1), d) for i, (slug, d) in enumerate(tasks)]
    write_records(gen.records(), tested)
    for part, slugs in build.shards():
        write_records(uniq.records(part), [r for r in tested if r.task.slug in slugs])
    by_slug = {slug: (str(i + 1), d) for i, (slug, d) in enumerate(tasks)}
    for part, slugs in build.shards("profile"):  # its own shards, packed (Runner.groups)
        write_records(
            prof.records(part),
            [example.profiled("icount", "instructions", s, *by_slug[s]) for s in slugs],
        )
    return build


def _finish(build: Runner) -> dict[str, dict[str, Any]]:
    build.run("splits")
    build.run("publish")
    return {row["stage"]: row for row in build.funnel()}


@pytest.fixture
def eval_only(tmp_path, caplog) -> dict[str, Any]:
    """The user's build: 3 tasks built, splits.eval_size 12."""
    build = _mercury(tmp_path, TASKS, "splits.eval_size=12")
    with caplog.at_level(logging.WARNING):
        funnel = _finish(build)
    return {"out": build.root, "funnel": funnel, "log": caplog.text}


def test_fewer_tasks_than_eval_size_publish_eval_alone_and_say_so(eval_only):
    out, funnel = eval_only["out"], eval_only["funnel"]
    note = (
        "train: no task (all 3 task(s) built went to eval, which wanted 12 (splits.eval_size)); "
        "the train split is left out of the dataset"
    )
    assert f"splits: {note}" in eval_only["log"]  # the log says so, in one line
    assert note in funnel["splits"]["notes"]
    assert funnel["publish"]["tasks_out"] == 3 and funnel["publish"]["solutions_out"] == 6
    assert sorted(p.name for p in (out / "parquet").iterdir()) == ["eval.parquet"]
    dd, card = load_published(out)  # what `quicksilver publish` checks before any request
    assert list(dd) == ["eval"] and sorted(dd["eval"]["slug_name"]) == sorted(s for s, _ in TASKS)
    meta, body = split_front_matter(card)
    assert meta["configs"][0]["data_files"] == [{"split": "eval", "path": "parquet/eval.parquet"}]
    assert f"- {note}" in body  # the card's notes
    assert "| difficulty | eval | total |" in body
    assert "quicksilver score --dataset DIR/hf --split eval" in body
    loaded = load_records(out)  # what `quicksilver score` reads
    assert sorted(loaded.splits) == ["eval"] and len(loaded.records) == 3


def test_quicksilver_publish_releases_the_eval_only_folder(eval_only, hub):
    report = publish_to_hub(
        eval_only["out"], "org/small", revision="v1", private=False, token=HUB_TOKEN
    )
    assert report.splits == {"eval": 3}
    files = hub.repo("org/small").files("v1")
    assert sorted(f for f in files if f.startswith("data/")) == ["data/eval-00000-of-00001.parquet"]
    meta, _ = split_front_matter(files["README.md"].decode())
    assert meta["configs"][0]["data_files"] == [{"split": "eval", "path": "data/eval-*"}]


@requires_bwrap
def test_quicksilver_score_on_the_eval_only_folder(eval_only, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")
    samples = tmp_path / "samples.jsonl"
    fast = "class Solution:\n    def sumPair(self, a, b):\n        return a + b\n"
    samples.write_text(
        "".join(json.dumps({"task_id": s, "completion": fast}) + "\n" for s, _ in TASKS)
    )
    report = tmp_path / "report.json"
    args = ["score", "--dataset", str(eval_only["out"]), "--samples", str(samples)]
    limits = ["--meter", "cpu", "--max-rounds", "2", "--budget", "1"]
    cache = ["--cache-dir", str(tmp_path / "cache")]
    result = CliRunner().invoke(app, [*args, *limits, *cache, "--json", str(report)])
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text())
    assert {t["task_id"] for t in data["tasks"]} == {s for s, _ in TASKS}
    assert data["pass_at_1"] == pytest.approx(1.0)
    # the split that is not there: one line naming the one that is
    result = CliRunner().invoke(app, [*args, *limits, *cache, "--split", "train"])
    assert result.exit_code == 2
    assert "no split 'train'; available: eval" in " ".join(result.stderr.split())


def test_a_task_whose_row_is_wrong_is_set_aside_with_its_solutions(tmp_path, monkeypatch):
    from quicksilver.stages import publish

    build = _mercury(tmp_path, [*TASKS, ("delta-sum", "Easy"), ("omega-sum", "Medium")])
    prof = build.dir("profile")
    for p in build.shard_names("profile"):
        records = read_records(prof.records(p))
        for r in records:
            if r.slug == "omega-sum":
                assert r.solutions[0].runtime is not None
                r.solutions[0].runtime.runtime = float("nan")  # a row the schema refuses
        write_records(prof.records(p), records)
    real = publish.mercury_row

    def no_test_cases(record, **kwargs):  # delta-sum: no row can be made
        if record.slug == "delta-sum":
            raise KeyError("test_cases")
        return real(record, **kwargs)

    monkeypatch.setattr(publish, "mercury_row", no_test_cases)
    funnel = _finish(build)
    pub = funnel["publish"]
    assert pub["drops"] == {"row-error": 1, "invalid-row": 1}
    assert pub["drop_tasks"] == {"row-error": 1, "invalid-row": 1}
    assert pub["drop_solutions"] == {"row-error": 2, "invalid-row": 2}
    assert (pub["tasks_in"], pub["tasks_out"]) == (5, 3)
    assert pub["solutions_in"] - pub["solutions_out"] == 4
    rejects = read_jsonl(build.dir("publish").file("rejects.jsonl"))
    by_reason = {(r["slug"], r["reason"], "hash" in r) for r in rejects}
    assert by_reason == {
        ("delta-sum", "row-error", False),
        ("delta-sum", "row-error", True),
        ("omega-sum", "invalid-row", False),
        ("omega-sum", "invalid-row", True),
    }
    (omega,) = [r for r in rejects if r["slug"] == "omega-sum" and "hash" not in r]
    assert "reference_runtimes[0].runtime: must be finite" in omega["detail"]
    dd, card = load_published(build.root)
    published = {s for split in dd.values() for s in split["slug_name"]}
    assert published == {s for s, _ in TASKS}
    assert "delta-sum left out: KeyError: 'test_cases'" in card
    assert "omega-sum left out: it does not fit the schema" in card


def test_no_task_at_all_writes_nothing_and_removes_an_older_dataset(tmp_path, caplog):
    build = _mercury(tmp_path, [])
    out = build.root
    for name in ("parquet", "hf"):
        (out / name).mkdir()
        (out / name / "old").write_text("an earlier build's")
    (out / "README.md").write_text("an earlier build's card")
    with caplog.at_level(logging.WARNING):
        funnel = _finish(build)
    assert json.loads(build.dir("splits").file("splits.json").read_text())["splits"] == {}
    assert funnel["publish"]["tasks_out"] == 0
    (note,) = funnel["publish"]["notes"]
    assert note == (
        "no task to publish (the funnel shows where they were dropped): no dataset written to "
        f"{out}; the dataset an earlier build wrote there was removed"
    )
    assert f"publish: {note}" in caplog.text
    assert sorted(p.name for p in out.iterdir()) == ["stages"]  # the stages' work is kept


def _dpe(tmp_path: Path, slugs: list[str]) -> Runner:
    """A DPE build folder whose select stage holds ``slugs`` (the example task)."""
    cfg = load_build_config(None, [f"out_dir={tmp_path / 'out'}"], cls=DPEBuildConfig)
    build = Runner(DPE, cfg)
    for stage in ("generators", "select"):
        build.dir(stage).path.mkdir(parents=True)
    write_records(
        build.dir("generators").records(),
        [example.tested(s, str(i + 1)) for i, s in enumerate(slugs)],
    )
    write_records(
        build.dir("select").records(),
        [example.selected("icount", "instructions", s, str(i + 1)) for i, s in enumerate(slugs)],
    )
    return build


def test_dpe_publish_with_no_selected_task_says_so_and_writes_nothing(tmp_path, caplog):
    build = _dpe(tmp_path, [])
    with caplog.at_level(logging.WARNING):
        build.run("publish")
    info = build.dir("publish").manifest()
    assert info is not None and info["counts"]["tasks_out"] == 0
    assert info["counts"]["notes"] == [
        "no task to publish (the funnel shows where they were dropped): no dataset written to "
        f"{build.root}"
    ]
    assert "publish: no task to publish" in caplog.text
    assert not (build.root / "README.md").exists() and not (build.root / "hf").exists()


def test_dpe_publish_keeps_the_valid_tasks(tmp_path):
    build = _dpe(tmp_path, ["alpha-sum", "beta-sum"])
    select = build.dir("select")
    records = read_records(select.records())
    records = [
        r.model_copy(update={"pe_input": None}) if r.slug == "beta-sum" else r for r in records
    ]
    write_records(select.records(), records)  # beta-sum's row cannot be made (no input)
    build.run("publish")
    counts = build.dir("publish").manifest()["counts"]
    assert counts["drops"] == {"row-error": 1}
    assert (counts["tasks_out"], counts["solutions_in"], counts["solutions_out"]) == (1, 4, 2)
    dd = datasets.load_from_disk(str(build.root / "hf"))
    assert list(dd) == ["test"] and dd["test"]["task_id"] == ["alpha-sum"]


def test_publish_check_runs_the_real_stage_on_the_example(tmp_path):
    """What the preflight calls: the example dataset is written, valid and readable."""
    for build in (
        Runner(MERCURY, load_build_config(None, ["splits.eval_size=0"])),
        Runner(DPE, load_build_config(None, [], cls=DPEBuildConfig)),
    ):
        out = tmp_path / build.build.name
        build.check_publish(out)
        dd, _ = load_published(out)
        assert list(dd) == (["test"] if build.build is DPE else ["train"])
        assert dd[next(iter(dd))][0]["slug_name"] == example.SLUG
