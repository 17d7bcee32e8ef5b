"""Publish's key covers the funnel it writes into the card (issue 27).

A publish stage reads the funnel of the stages before it (``ctx.funnel()``), which its input
records do not show: a stage upstream can drop differently and hand on the same records. Here a
source stage drops as many inputs as ``filters.min_solutions`` says and returns the same task
whatever it is; the stage after it reads the same records and is reused, and the publish stage,
declared ``funnel=True``, runs again because the counts it shows changed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from quicksilver.config import BuildConfig, load_build_config
from quicksilver.pipeline.build import Build
from quicksilver.pipeline.records import Solution, Task, TaskRecord
from quicksilver.pipeline.runner import Runner
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.stages import example


def source(ctx: Context, records: list[TaskRecord], *, min_solutions: int) -> list[TaskRecord]:
    for i in range(min_solutions):
        ctx.drop({"slug": "t", "input": [i]}, "bad-input", f"t: input {i}", dropped="input")
    sols = [Solution(slug="t", hash=h, code=f"# {h}\n") for h in (1, 2)]
    ctx.drop(TaskRecord(task=Task(slug="gone"), solutions=sols[:1]), "gone", "gone: dropped")
    return [TaskRecord(task=Task(slug="t"), solutions=sols)]


def passthrough(ctx: Context, records: list[TaskRecord]) -> list[TaskRecord]:
    return records


def card(ctx: Context, records: list[TaskRecord]) -> list[TaskRecord]:
    rows = [{k: v for k, v in r.items() if k != "seconds"} for r in ctx.funnel()]
    ctx.path("funnel.json").write_text(json.dumps(rows))
    return records


BUILD = Build(
    name="keyed",
    title="Keyed build",
    config=BuildConfig,
    stages=(
        Stage("src", logic=source, reads=("filters.min_solutions",)),
        Stage("mid", logic=passthrough),
        Stage("publish", logic=card, writes=("funnel.json",), funnel=True),
    ),
    example=example.mercury_record,
)


def _runner(out: Path, dropped: int) -> Runner:
    cfg = load_build_config(None, [f"out_dir={out}", f"filters.min_solutions={dropped}"])
    return Runner(BUILD, cfg)


def _run_all(runner: Runner) -> dict[str, bool]:
    return {s.name: runner.run(s.name)["reused"] for s in BUILD.stages}


def _card(out: Path) -> list[dict[str, Any]]:
    return json.loads((out / "stages" / "publish" / "funnel.json").read_text())


def test_publish_reruns_when_an_upstream_stage_drops_differently(tmp_path):
    assert _run_all(_runner(tmp_path, 2)) == {"src": False, "mid": False, "publish": False}
    (src, mid) = _card(tmp_path)  # the stages before publish only
    assert src["drop_inputs"] == {"bad-input": 2}
    assert src["drop_tasks"] == {"gone": 1} and src["drop_solutions"] == {"gone": 1}
    assert mid["stage"] == "mid"
    rejects = (tmp_path / "stages" / "src" / "rejects.jsonl").read_text().splitlines()
    assert [json.loads(r)["dropped"] for r in rejects] == ["input", "input", "task", "solution"]

    # nothing changed: everything reused
    assert _run_all(_runner(tmp_path, 2)) == {"src": True, "mid": True, "publish": True}

    # the source drops one input more and hands on the same records: the stage after it is
    # reused (its input is the same), publish is not (the funnel it shows is not)
    assert _run_all(_runner(tmp_path, 3)) == {"src": False, "mid": True, "publish": False}
    assert _card(tmp_path)[0]["drop_inputs"] == {"bad-input": 3}
    assert _run_all(_runner(tmp_path, 3)) == {"src": True, "mid": True, "publish": True}


def test_a_stage_that_does_not_read_the_funnel_has_no_funnel_in_its_key(tmp_path):
    _run_all(_runner(tmp_path, 2))
    runner = _runner(tmp_path, 2)
    before = runner.key("mid")
    manifest = runner.dir("src").manifest_path()
    info = json.loads(manifest.read_text())
    info["counts"]["drop_inputs"] = {"bad-input": 7}
    manifest.write_text(json.dumps(info))
    assert runner.key("mid") == before
    assert not runner.done("publish")  # the counts it read are not the counts now
