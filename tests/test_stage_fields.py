"""Stages declare the record fields they need and fill (quicksilver/pipeline/stage.py): a build
whose order cannot provide a field is refused when it is declared, and a stage that returns a
record without a field it fills fails its run, naming the stage, the field and the task."""

from __future__ import annotations

import dataclasses

import pytest

from quicksilver.builds import BUILDS, DPE, MERCURY
from quicksilver.pipeline.build import Build
from quicksilver.pipeline.records import Solution, Task, TaskRecord
from quicksilver.pipeline.runner import apply
from quicksilver.pipeline.stage import Stage


def test_both_builds_provide_every_field_a_stage_needs_in_their_order() -> None:
    for build in BUILDS.values():
        filled: set[str] = set()
        for stage in build.stages:
            assert set(stage.needs) <= filled, (build.name, stage.name)
            filled |= set(stage.fills)
    # the declarations say something: what publishing reads is filled by named stages
    assert {"tests", "verdict", "profile", "solutions.runtime"} <= set(
        MERCURY.stage("publish").needs
    )
    assert {"pe_input", "selected", "solutions.cluster"} <= set(DPE.stage("publish").needs)


def test_a_build_that_publishes_before_profiling_is_refused_when_declared() -> None:
    stages = list(MERCURY.stages)
    profile = MERCURY.stage("profile")
    stages.remove(profile)
    stages.insert(stages.index(MERCURY.stage("publish")) + 1, profile)
    with pytest.raises(ValueError, match=r"stage publish needs profile, solutions\.runtime"):
        dataclasses.replace(MERCURY, stages=tuple(stages))
    # the same stages in the build's own order are accepted
    assert dataclasses.replace(MERCURY, stages=MERCURY.stages).stage_names == MERCURY.stage_names


def test_a_build_without_the_stage_that_fills_a_need_is_refused() -> None:
    without_sas = tuple(s for s in DPE.stages if s.name != "sas")
    with pytest.raises(ValueError, match=r"stage sampling needs perf_generators"):
        Build(DPE.name, DPE.title, DPE.config, without_sas, DPE.example)


def test_a_field_that_records_do_not_have_is_refused() -> None:
    with pytest.raises(ValueError, match=r"'tset' is not a field"):
        Stage("typo", logic=lambda ctx, records: records, needs=("tset",))
    with pytest.raises(ValueError, match=r"'solutions.runtimes' is not a field"):
        Stage("typo", logic=lambda ctx, records: records, fills=("solutions.runtimes",))


def _record(slug: str) -> TaskRecord:
    return TaskRecord(task=Task(slug=slug), solutions=[Solution(slug=slug, hash=1, code="x")])


def test_a_stage_that_returns_a_record_without_a_field_it_fills_fails_its_run() -> None:
    def half_done(ctx, records):  # fills the first record's split only
        return [records[0].model_copy(update={"split": "eval"}), *records[1:]]

    stage = Stage("splitter", logic=half_done, fills=("split",))
    with pytest.raises(RuntimeError, match=r"stage splitter fills split, .* 1 record\(s\).*: b$"):
        apply(stage, [_record("a"), _record("b")])
    # filled for every record: the run goes on
    done = Stage(
        "splitter",
        logic=lambda ctx, rs: [r.model_copy(update={"split": "eval"}) for r in rs],
        fills=("split",),
    )
    assert [r.split for r in apply(done, [_record("a"), _record("b")]).records] == ["eval", "eval"]


def test_a_solution_field_is_checked_on_every_solution() -> None:
    stage = Stage("clusters", logic=lambda ctx, rs: rs, fills=("solutions.cluster",))
    with pytest.raises(RuntimeError, match=r"stage clusters fills solutions\.cluster.*: a$"):
        apply(stage, [_record("a")])
