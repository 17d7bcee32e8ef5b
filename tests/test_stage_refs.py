"""A field a stage returns unchanged is written as a reference to the file that holds it
(quicksilver/pipeline/refs.py), and every read puts the value back (issue 29 item 4).

A small build without a sandbox: load and dedup on four bundled questions, then ``gen`` (fills
``generator``), ``cases`` (sharded: fills ``tests``), ``touch`` (sharded: edits solutions, and
one task's ``tests`` without declaring it) and ``join`` (unsharded, after the shards: fills
``split``). What each stage returned is kept in ``RETURNED`` to compare with what is read back.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from quicksilver.config import BuildConfig, load_build_config
from quicksilver.pipeline.build import Build
from quicksilver.pipeline.files import read_jsonl, read_spans, write_jsonl
from quicksilver.pipeline.records import CaseInput, Generator, TaskRecord
from quicksilver.pipeline.records import Tests as CaseSet
from quicksilver.pipeline.refs import REF, REFERABLE, StageFileError, read_stage_rows
from quicksilver.pipeline.runner import Runner, read_records
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.stages import example
from quicksilver.stages.dedup import DEDUP
from quicksilver.stages.load import LOAD
from tests.conftest import load_bench

ROOT = Path(__file__).resolve().parents[1]
SLUGS = ["best-single-trade", "primes-below", "zeroes-to-end", "cluster-anagrams"]
EDITED = "primes-below"  # ``touch`` drops a test input of this task
RETURNED: dict[tuple[str, str], list[dict]] = {}
AS_BUILT: dict[tuple[str, str], list[dict]] = {}


def _keep(ctx: Context, out: list[TaskRecord]) -> list[TaskRecord]:
    RETURNED[(ctx.stage, ctx.part)] = [r.row() for r in out]
    return out


def gen(ctx: Context, records: list[TaskRecord], *, n: int, min_cases: int) -> list[TaskRecord]:
    """A generator per task; ``testcases.n`` changes the first task's only (``min_cases``:
    read, and changes nothing)."""
    out = []
    for i, r in enumerate(sorted(records, key=lambda r: r.slug)):
        code = f"def generate():  # {r.slug} {n if i == 0 else ''}\n" + "    pass\n" * 50
        out.append(
            r.with_solutions(
                r.solutions, generator=Generator(generator_code=code, generator_path="offline")
            )
        )
    return _keep(ctx, out)


def cases(ctx: Context, records: list[TaskRecord]) -> list[TaskRecord]:
    out = []
    for r in records:
        inputs = [CaseInput(input=[k, r.slug], kind="generated", seed=k) for k in range(3)]
        out.append(r.with_solutions(r.solutions, tests=CaseSet(seed=1, base_seed=0, cases=inputs)))
    return _keep(ctx, out)


def touch(ctx: Context, records: list[TaskRecord]) -> list[TaskRecord]:
    out = []
    for r in records:
        sols = [s.model_copy(update={"native_seconds": 0.5}) for s in r.solutions]
        fields = {}
        if r.slug == EDITED and r.tests is not None:
            fields["tests"] = r.tests.model_copy(update={"cases": r.tests.cases[:2]})
        out.append(r.with_solutions(sols, **fields))
    return _keep(ctx, out)


def join(ctx: Context, records: list[TaskRecord]) -> list[TaskRecord]:
    return _keep(ctx, [r.with_solutions(r.solutions, split="train") for r in records])


GEN = Stage("gen", logic=gen, reads=("testcases.n", "testcases.min_cases"), fills=("generator",))
CASES = Stage("cases", logic=cases, sharded=True, needs=("generator",), fills=("tests",))
TOUCH = Stage("touch", logic=touch, sharded=True, needs=("tests",))
JOIN = Stage("join", logic=join, needs=("tests",), fills=("split",))

REFS_BUILD = Build(
    name="refs",
    title="References",
    config=BuildConfig,
    stages=(LOAD, DEDUP, GEN, CASES, TOUCH, JOIN),
    example=example.mercury_record,
)


def _runner(out: Path, *sets: str) -> Runner:
    cfg = load_build_config(
        ROOT / "configs" / "mercury.yaml",
        [f"out_dir={out}", f"only={json.dumps(SLUGS)}", "runner.shard_size=2", *sets],
    ).resolve(ROOT)
    return Runner(REFS_BUILD, cfg)


def _run_all(runner: Runner) -> dict[str, bool]:
    """Every stage (every shard) in order; which were reused, by ``stage`` or ``stage/shard``."""
    reused = {}
    for stage in runner.build.stages:
        for part in runner.shard_names() if stage.sharded else [""]:
            label = f"{stage.name}/{part}" if part else stage.name
            reused[label] = runner.run(stage.name, part)["reused"]
    return reused


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("refs") / "out"
    _run_all(_runner(out))
    AS_BUILT.update(RETURNED)  # later tests run stages again, with other settings
    return out


def _copy(built: Path, tmp_path: Path) -> Path:
    shutil.copytree(built, tmp_path / "out")
    return tmp_path / "out"


def test_unchanged_fields_are_written_as_references_and_read_back_as_returned(built):
    runner = _runner(built)
    parts = runner.shard_names()
    assert len(parts) == 2
    for part in parts:
        rows = read_jsonl(runner.dir("touch").records(part))
        assert rows and all(
            r["generator"] == {REF: "gen", "sha256": r["generator"]["sha256"]} for r in rows
        )
        for r in rows:  # touch edited one task's tests: that one is written in full
            if r["task"]["slug"] == EDITED:
                assert len(r["tests"]["cases"]) == 2
            else:
                assert r["tests"][REF] == "cases" and r["tests"]["part"] == part
        # what is read back is what the stage returned, field for field
        for stage in ("cases", "touch"):
            got = [r.row() for r in read_records(runner.dir(stage).records(part))]
            assert got == AS_BUILT[(stage, part)]
            assert read_stage_rows(runner.dir(stage).records(part)) == got
    joined = read_jsonl(runner.dir("join").records())
    by_slug = {r["task"]["slug"]: r for r in joined}
    assert by_slug[EDITED]["tests"][REF] == "touch"  # the edited value's holder
    assert {r["tests"][REF] for s, r in by_slug.items() if s != EDITED} == {"cases"}
    assert [r.row() for r in read_records(runner.dir("join").records())] == AS_BUILT[("join", "")]
    # the stage reads what the stage before it returned, references put back
    assert [r.row() for r in runner.read_input(JOIN)] == [
        row for part in parts for row in AS_BUILT[("touch", part)]
    ]
    # and the files are smaller than full copies
    full = sum(len(json.dumps(r).encode()) for r in AS_BUILT[("join", "")])
    generators = sum(len(json.dumps(r["generator"]).encode()) for r in AS_BUILT[("join", "")])
    assert full - runner.dir("join").records().stat().st_size > generators / 2


def _later_keys(runner: Runner) -> dict[str, str]:
    """The keys of the stages after ``cases``: ``touch`` per shard, ``join`` under ""."""
    return {p: runner.key("touch", p) for p in runner.shard_names()} | {"": runner.key("join")}


def test_a_changed_upstream_value_changes_the_keys_after_it_and_no_other(built, tmp_path):
    out = _copy(built, tmp_path)
    before = _runner(out)
    first = sorted(SLUGS)[0]  # the task whose generator mentions testcases.n
    changed = next(p for p, slugs in before.shards() if first in slugs)
    keys = _later_keys(before)
    refs = {
        r["task"]["slug"]: r["generator"] for r in read_jsonl(before.dir("cases").records(changed))
    }
    reused = _run_all(_runner(out, "testcases.n=99"))
    assert not reused["gen"] and not reused[f"cases/{changed}"]
    assert all(v for k, v in reused.items() if k.startswith("cases/") and changed not in k)
    after = _runner(out, "testcases.n=99")
    # cases returned the generator unchanged: its file refers to gen's, with the new digest
    now = {
        r["task"]["slug"]: r["generator"] for r in read_jsonl(after.dir("cases").records(changed))
    }
    assert now[first][REF] == "gen" and now[first]["sha256"] != refs[first]["sha256"]
    assert {s: v for s, v in now.items() if s != first} == {
        s: v for s, v in refs.items() if s != first
    }
    new_keys = _later_keys(after)
    assert {p for p in keys if new_keys[p] != keys[p]} == {changed, ""}
    rows = {r.slug: r for r in read_records(after.dir("join").records())}
    assert rows[first].generator is not None and " 99" in rows[first].generator.generator_code


def test_an_unchanged_value_keeps_the_later_keys(built, tmp_path):
    out = _copy(built, tmp_path)
    keys = _later_keys(_runner(out))
    reused = _run_all(_runner(out, "testcases.min_cases=7"))  # gen reads it, uses it for nothing
    assert not reused["gen"]
    assert all(v for k, v in reused.items() if k not in ("gen",)), reused
    assert _later_keys(_runner(out, "testcases.min_cases=7")) == keys


def test_a_value_gone_from_its_holder_is_one_line_naming_stage_task_and_field(built, tmp_path):
    out = _copy(built, tmp_path)
    runner = _runner(out)
    touch = runner.dir("touch").records("shard-0000")
    slug = read_jsonl(touch)[0]["task"]["slug"]
    gen_file = runner.dir("gen").records()
    rows = read_jsonl(gen_file)
    # another value under the same reference, read by its span or from its line
    changed = [{**r, "generator": {**r["generator"], "generator_code": "x"}} for r in rows]
    for spans in (REFERABLE, ()):
        write_jsonl(gen_file, changed, index_by=lambda r: r["task"]["slug"], spans=spans)
        assert (read_spans(gen_file) is not None and read_spans(gen_file) != {}) == bool(spans)
        with pytest.raises(StageFileError) as err:
            read_records(touch)
        line = str(err.value)
        assert "\n" not in line and f"task {slug}" in line and "field generator" in line
        assert "refers to stage gen" in line and "another digest" in line
    # the holder cut short (its index no longer matches: the file is read whole)
    text = "".join(json.dumps(r) + "\n" for r in rows)
    gen_file.write_text(text[: len(text) // 2])
    with pytest.raises(StageFileError, match=r"task .*: field generator refers to stage gen"):
        read_records(touch)
    # the scheduler's weighing of a shard does not fail on such a file
    assert runner.shard_work("shard-0000") == 0.0


def test_a_shard_lost_in_a_crash_is_redone_alone_and_reads_its_own_holders(built, tmp_path):
    out = _copy(built, tmp_path)
    runner = _runner(out)
    runner.dir("touch").manifest_path("shard-0001").unlink()
    runner.dir("touch").records("shard-0001").unlink()
    reused = _run_all(_runner(out))
    assert [k for k, v in reused.items() if not v] == ["touch/shard-0001"]
    rows = read_jsonl(runner.dir("touch").records("shard-0001"))
    assert {r["tests"].get("part") for r in rows if REF in r["tests"]} == {"shard-0001"}
    assert [r.row() for r in read_records(runner.dir("join").records())] == AS_BUILT[("join", "")]


def test_the_bench_counts_full_copies_as_the_runner_wrote_them_before(built, tmp_path):
    """bench/stage_bytes.py's "full" bytes are the file a stage wrote when it copied every
    field: the rows it returned, written by write_jsonl."""
    bench = load_bench("stage_bytes")
    got = {r.stage: r for r in bench.build_bytes(built, ["gen", "touch", "join"])}
    copy = write_jsonl(tmp_path / "join.jsonl", AS_BUILT[("join", "")])
    join = built / "stages" / "join" / "records.jsonl"
    assert (got["join"].on_disk, got["join"].full) == (join.stat().st_size, copy.stat().st_size)
    assert got["join"].on_disk < got["join"].full and got["join"].tasks == len(SLUGS)
    assert got["gen"].on_disk == got["gen"].full  # it filled what it holds: no references


def test_the_report_reads_shard_times_from_files_with_references(built):
    from quicksilver.report.stagefiles import shard_times

    assert not {"task", "solutions"} & set(REFERABLE)  # all the report reads of a record
    times = shard_times(built, ["touch"])
    assert sorted(s for t in times for s in t.shares) == sorted(SLUGS)


def test_the_index_says_where_each_value_is_and_the_line_is_unchanged(tmp_path):
    rows = [
        {"task": {"slug": "a"}, "tests": {"cases": ["é", 1.5]}, "verdict": {"x": [None]}},
        {"task": {"slug": "b"}, "split": "train", "solutions": []},
    ]
    path = write_jsonl(
        tmp_path / "r.jsonl", rows, index_by=lambda r: r["task"]["slug"], spans=REFERABLE
    )
    plain = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
    assert path.read_text(encoding="utf-8") == plain
    spans = read_spans(path)
    assert spans is not None and set(spans["a"]) == {"tests", "verdict"}
    assert set(spans["b"]) == {"split"}
    data = path.read_bytes()
    for slug, row in zip(("a", "b"), rows, strict=True):
        for name, (at, size) in spans[slug].items():
            assert json.loads(data[at : at + size]) == row[name]


def test_a_reference_reads_its_values_bytes_only(built, monkeypatch):
    from quicksilver.pipeline import refs

    def whole(*args: object) -> None:
        raise AssertionError(f"read lines of a holder: {args[0]}")

    monkeypatch.setattr(refs, "read_jsonl_rows", whole)
    monkeypatch.setattr(refs, "read_jsonl", whole)
    touch = built / "stages" / "touch" / "shard-0000.jsonl"
    rows = [json.loads(line) for line in touch.read_text().splitlines()]
    got = refs.resolve(rows, [touch] * len(rows))
    assert got == AS_BUILT[("touch", "shard-0000")]
