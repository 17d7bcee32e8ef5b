"""Tests for quicksilver.rows: Mercury rows in, the same rows out, bad rows set aside."""

from __future__ import annotations

import copy
import importlib
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from quicksilver.rows import (
    DEFAULT_CONVERT_OFFLINE,
    DEFAULT_EVALUATE_OFFLINE,
    LoadResult,
    RecordError,
    TaskRow,
    TestCase,
    load_hf,
    load_json,
    load_parquet,
    load_records,
)

FIXTURES = Path(__file__).parent / "fixtures" / "records"
MERCURY_JSON = FIXTURES / "mercury_rows.json"

QUESTION = pa.struct(
    [
        ("questionId", pa.string()),
        ("questionFrontendId", pa.string()),
        ("questionTitle", pa.string()),
        ("questionTitleSlug", pa.string()),
        ("content", pa.string()),
        ("difficulty", pa.string()),
        ("categoryTitle", pa.string()),
        ("stats", pa.string()),
        ("topicTags", pa.list_(pa.struct([("name", pa.string()), ("slug", pa.string())]))),
        ("similarQuestions", pa.string()),
    ]
)
SOLUTION = pa.struct([("hash", pa.int64()), ("runtime", pa.string()), ("solution", pa.string())])
MERCURY_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("slug_name", pa.string()),
        ("meta_info", pa.struct([("data", pa.struct([("question", QUESTION)]))])),
        ("difficulty", pa.string()),
        ("pretty_content", pa.list_(pa.string())),
        ("solutions", pa.list_(SOLUTION)),
        ("prompt", pa.string()),
        ("entry_point", pa.string()),
        ("generator_code", pa.string()),
        ("test_cases", pa.string()),
        ("convert_online", pa.string()),
        ("convert_offline", pa.string()),
        ("evaluate_offline", pa.string()),
    ]
)


@pytest.fixture
def raw_rows() -> list[dict[str, Any]]:
    return json.loads(MERCURY_JSON.read_text())


@pytest.fixture
def mercury(raw_rows) -> list[TaskRow]:
    result = load_json(MERCURY_JSON)
    assert result.rejects == []
    assert len(result.records) == len(raw_rows) == 3
    return result.records


@pytest.fixture
def hf(monkeypatch):
    """The datasets module, with the Hub switched off (there is no network here)."""
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return importlib.import_module("datasets")


def assert_same_records(got: list[TaskRow], want: list[TaskRow]) -> None:
    """Equal field by field (declared fields, extras, and each solution), in order."""
    assert [r.task_key for r in got] == [r.task_key for r in want]
    for g, w in zip(got, want, strict=True):
        for name in TaskRow.model_fields:
            assert getattr(g, name) == getattr(w, name), (w.task_key, name)
        assert g.model_extra == w.model_extra, w.task_key
        assert g == w


def write_mercury_parquet(rows: list[dict[str, Any]], path: Path) -> Path:
    pq.write_table(pa.Table.from_pylist(rows, schema=MERCURY_SCHEMA), path)
    return path


# --- the record ---------------------------------------------------------------------------------


def test_mercury_json_loads_every_field(mercury, raw_rows):
    summary = mercury[0]
    assert summary.id == "228"
    assert summary.slug_name == "summary-ranges"
    assert summary.difficulty == "Easy"
    question = summary.meta_info["data"]["question"]
    assert question["questionTitleSlug"] == "summary-ranges"
    assert question["topicTags"] == [{"name": "Array", "slug": "array"}]
    assert json.loads(question["stats"])["totalAccepted"] == "1M"
    assert summary.pretty_content[0].startswith("You are given a sorted unique integer array")
    assert summary.solutions[0].hash == -1234567890123456789
    assert summary.solutions[0].runtime == "40ms"
    assert summary.solutions[0].runtime_ms == 40.0
    assert summary.prompt.endswith("-> List[str]:\n        ")
    assert summary.entry_point == "summaryRanges"
    assert "def generate_test_case():" in summary.generator_code
    assert summary.convert_online == "def convert_online(case):\n    return case\n"
    assert summary.convert_offline == DEFAULT_CONVERT_OFFLINE
    assert summary.evaluate_offline == DEFAULT_EVALUATE_OFFLINE
    # Nothing beyond Mercury's fields was invented, except the inferred kind.
    for record, raw in zip(mercury, raw_rows, strict=True):
        row = record.to_row()
        assert {key: row[key] for key in raw} == raw
        assert record.task_kind == "class"
        assert record.task_id is None and record.provenance is None
        assert record.model_extra == {}


def test_cases_parse_inputs_and_expected(mercury):
    summary, tree, topk = mercury
    assert summary.cases()[0] == TestCase(
        inputs=[[0, 1, 2, 4, 5, 7]], expected=["0->2", "4->5", "7"]
    )
    assert [c.expected for c in summary.cases()] == [
        ["0->2", "4->5", "7"],
        ["0", "2->4", "6", "8->9"],
        [],
        ["-3"],
    ]
    assert tree.cases()[2] == TestCase(inputs=[[1, None, 2]], expected=[1, 2])
    assert topk.cases()[0].inputs == [[1, 1, 1, 2, 2, 3], 2]
    assert len(topk.cases()) == 3


@pytest.mark.parametrize(
    ("test_cases", "complaint"),
    [
        ('[{"input": [1], "expected": 1', "not valid JSON"),
        ('{"input": [1], "expected": 1}', "must be a JSON list of cases, got object"),
        ("[[1, 1]]", "[0] must be an object"),
        ('[{"input": [1], "expected": 1}, {"input": [2]}]', "[1] has no 'expected' key"),
        ('[{"input": 1, "expected": 1}]', "['input'] must be a list of arguments, got int"),
    ],
)
def test_cases_error_names_task_field_and_problem(mercury, test_cases, complaint):
    broken = mercury[0].model_copy(update={"test_cases": test_cases})
    with pytest.raises(RecordError) as caught:
        broken.cases()
    message = str(caught.value)
    assert "'summary-ranges'" in message
    assert "id 228" in message
    assert "field 'test_cases'" in message
    assert complaint in message


def test_int_id_becomes_string(raw_rows):
    row = dict(raw_rows[0], id=2384)
    record = TaskRow.from_row(row)
    assert record.id == "2384"
    assert isinstance(record.id, str)
    assert TaskRow.from_row(dict(raw_rows[0], id=2384.0)).id == "2384"


def test_task_kind_inference(raw_rows):
    function = json.loads((FIXTURES / "function_rows.json").read_text())[0]
    assert TaskRow.from_row(function).task_kind == "function"
    assert TaskRow.from_row(raw_rows[0]).task_kind == "class"
    # The tree prompt starts with a commented TreeNode; class Solution comes later.
    assert TaskRow.from_row(raw_rows[1]).task_kind == "class"
    # A source that gives no class in the prompt but a class Solution in its first solution.
    assert TaskRow.from_row(dict(raw_rows[0], prompt="")).task_kind == "class"
    # A stated kind wins over inference, and its case is normalised.
    assert TaskRow.from_row(dict(raw_rows[0], task_kind="Function")).task_kind == "function"
    with pytest.raises(ValueError, match="task_kind"):
        TaskRow.from_row(dict(raw_rows[0], task_kind="module"))


def test_function_row_with_evalperf_fields():
    result = load_json(FIXTURES / "function_rows.json")
    assert result.rejects == []
    (add,) = result.records
    assert add.task_key == "HumanEval/53"  # no slug: falls back to task_id
    assert add.meta_info == {}  # null in the row
    assert add.reference is not None and len(add.reference) == 2
    assert add.reference[-1] == add.solution_code(0)
    assert json.loads(add.pe_input or "") == [[1, 1000000]]
    assert add.scores == [50.0, 100.0]
    assert add.provenance == {"source": "hand-written fixture", "style": "HumanEval"}
    assert add.cases()[1] == TestCase(inputs=[5, 7], expected=12)
    assert TaskRow.from_row(add.to_row()) == add


def test_task_key_falls_back_to_id(raw_rows):
    assert TaskRow.from_row(raw_rows[0]).task_key == "summary-ranges"
    assert TaskRow.from_row(dict(raw_rows[0], slug_name="")).task_key == "228"
    assert TaskRow.from_row(dict(raw_rows[0], slug_name="", task_id="T/1")).task_key == "T/1"


def test_difficulty_case_is_normalised_others_kept(raw_rows):
    def difficulty(value: str) -> str:
        return TaskRow.from_row(dict(raw_rows[0], difficulty=value)).difficulty

    assert difficulty("easy") == "Easy"
    assert difficulty("MEDIUM") == "Medium"
    assert difficulty(" hard ") == "Hard"
    assert difficulty("Expert") == "Expert"


def test_solution_code(mercury):
    topk = mercury[2]
    assert topk.solution_code(0).startswith("class Solution:")
    assert "collections.Counter" in topk.solution_code(0)
    assert topk.solution_code(1) == topk.solutions[1].solution
    with pytest.raises(RecordError, match=r"'top-k-frequent-elements'.*no solution 2"):
        topk.solution_code(2)


def test_effective_offline_code_uses_defaults_only_when_empty(mercury):
    summary, tree, _ = mercury
    blank = summary.model_copy(update={"convert_offline": "", "evaluate_offline": "  \n"})
    assert blank.effective_convert_offline() == DEFAULT_CONVERT_OFFLINE
    assert blank.effective_evaluate_offline() == DEFAULT_EVALUATE_OFFLINE
    assert "lctk.binaryTree(inputs[0])" in tree.effective_convert_offline()
    assert "lctk.binaryTree2Arr(outputs)" in tree.effective_evaluate_offline()


def test_default_offline_code_runs():
    namespace: dict[str, Any] = {}
    exec(DEFAULT_CONVERT_OFFLINE, namespace)
    exec(DEFAULT_EVALUATE_OFFLINE, namespace)
    case = ([[1, 2]], [3])
    assert namespace["convert_offline"](case) is case
    assert namespace["evaluate_offline"]([[1, 2]], [3], [3]) is True
    assert namespace["evaluate_offline"]([[1, 2]], [4], [3]) is False


def test_runtime_may_be_missing_offline(mercury):
    tree, topk = mercury[1], mercury[2]
    assert tree.solutions[1].runtime is None
    assert tree.solutions[1].runtime_ms is None
    assert topk.solutions[0].runtime == ""
    assert topk.solutions[0].runtime_ms is None
    assert topk.solutions[1].hash == -(2**63)


def test_hash_outside_int64_is_rejected(raw_rows):
    row = copy.deepcopy(raw_rows[0])
    row["solutions"][1]["hash"] = 2**63
    with pytest.raises(ValueError, match="int64"):
        TaskRow.from_row(row)


def test_extra_columns_survive_to_row(tmp_path, raw_rows):
    row = copy.deepcopy(raw_rows[0])
    row["source_url"] = "https://leetcode.com/problems/summary-ranges/"
    row["crawl"] = {"attempt": 2, "tags": ["a", "b"]}
    row["solutions"][0]["language"] = "python3"
    record = TaskRow.from_row(row)
    out = record.to_row()
    assert out["source_url"] == "https://leetcode.com/problems/summary-ranges/"
    assert out["crawl"] == {"attempt": 2, "tags": ["a", "b"]}
    assert out["solutions"][0]["language"] == "python3"
    assert TaskRow.from_row(out) == record
    # ... and through a file written from to_row().
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([out]))
    (again,) = load_json(path).records
    assert again.model_extra == {"source_url": row["source_url"], "crawl": row["crawl"]}
    assert again.solutions[0].model_extra == {"language": "python3"}


def test_to_row_round_trips_through_json(mercury):
    for record in mercury:
        row = json.loads(json.dumps(record.to_row()))
        assert TaskRow.from_row(row) == record


# --- JSON and JSONL -----------------------------------------------------------------------------


def test_malformed_rows_are_set_aside_and_good_rows_load():
    path = FIXTURES / "malformed_rows.json"
    result = load_json(path)
    assert [r.slug_name for r in result.records] == ["good-first", "good-last"]
    by_task = {reject.task: reject for reject in result.rejects}
    assert len(result.rejects) == 4
    missing = by_task["missing-entry-point"]
    assert missing.source == f"{path}[1]"
    assert "field 'entry_point': Field required" in missing.reason
    broken = by_task["broken-test-cases"]
    assert broken.source == f"{path}[2]"
    assert "field 'test_cases' is not valid JSON" in broken.reason
    not_list = by_task["solutions-not-a-list"]
    assert not_list.source == f"{path}[3]"
    assert "field 'solutions'" in not_list.reason
    assert "valid list" in not_list.reason
    not_a_row = by_task[None]
    assert not_a_row.source == f"{path}[4]"
    assert "not an object" in not_a_row.reason


def test_nested_field_location_in_reason(tmp_path, raw_rows):
    row = copy.deepcopy(raw_rows[0])
    row["solutions"][1]["hash"] = "not a number"
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([raw_rows[1], row]))
    result = load_json(path)
    assert [r.slug_name for r in result.records] == ["invert-binary-tree"]
    (reject,) = result.rejects
    assert reject.task == "summary-ranges"
    assert "field 'solutions.1.hash'" in reject.reason


def test_truncated_file_is_one_reject_naming_the_file():
    path = FIXTURES / "truncated.json"
    for result in (load_json(path), load_records(path)):
        assert result.records == []
        (reject,) = result.rejects
        assert reject.source == str(path)
        assert reject.task is None
        assert "invalid JSON at line" in reject.reason
        assert "truncated" in reject.reason


def test_jsonl_with_one_bad_line_keeps_the_others(tmp_path, raw_rows, mercury):
    lines = [json.dumps(row) for row in raw_rows]
    lines.insert(1, lines[1][:50])  # a line cut short
    lines.insert(3, "")  # blank lines are skipped, not rejected
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = load_json(path)
    assert_same_records(result.records, mercury)
    (reject,) = result.rejects
    assert reject.source == f"{path}:2"
    assert "invalid JSON on line 2" in reject.reason


def test_jsonl_detected_by_content(tmp_path, raw_rows, mercury):
    path = tmp_path / "rows.json"
    path.write_text("\n".join(json.dumps(row) for row in raw_rows))
    result = load_records(path)
    assert result.rejects == []
    assert_same_records(result.records, mercury)


def test_jsonl_line_separator_inside_string_is_not_a_line_break(tmp_path, raw_rows):
    row = dict(raw_rows[0], pretty_content=["first\u2028second"])
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    result = load_json(path)
    assert result.rejects == []
    assert result.records[0].pretty_content == ["first\u2028second"]


def test_rows_object_and_single_row(tmp_path, raw_rows, mercury):
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"rows": raw_rows}))
    assert_same_records(load_json(wrapped).records, mercury)
    # The HF datasets-server answer wraps each row.
    server = tmp_path / "server.json"
    server.write_text(
        json.dumps({"rows": [{"row_idx": i, "row": r} for i, r in enumerate(raw_rows)]})
    )
    assert_same_records(load_json(server).records, mercury)
    single = tmp_path / "single.json"
    single.write_text(json.dumps(raw_rows[2]))
    assert_same_records(load_json(single).records, mercury[2:])


def test_top_level_scalar_is_rejected(tmp_path):
    path = tmp_path / "scalar.json"
    path.write_text('"hello"')
    result = load_json(path)
    assert result.records == []
    (reject,) = result.rejects
    assert reject.source == str(path)
    assert "top-level JSON value is a string" in reject.reason


# --- Parquet ------------------------------------------------------------------------------------


def test_parquet_with_structs_round_trips(tmp_path, raw_rows, mercury):
    path = write_mercury_parquet(raw_rows, tmp_path / "mercury.parquet")
    schema = pq.read_schema(path)
    assert pa.types.is_struct(schema.field("meta_info").type)
    assert pa.types.is_list(schema.field("solutions").type)
    assert pa.types.is_struct(schema.field("solutions").type.value_type)
    result = load_parquet(path)
    assert result.rejects == []
    assert_same_records(result.records, mercury)
    first = result.records[0]
    assert type(first.solutions[0].hash) is int
    assert type(first.pretty_content) is list
    assert first.cases()[1].inputs == [[0, 2, 3, 4, 6, 8, 9]]


def test_parquet_int_id_and_to_row_output(tmp_path, raw_rows, mercury):
    rows = [dict(r, id=int(r["id"])) for r in raw_rows]
    schema = MERCURY_SCHEMA.set(0, pa.field("id", pa.int64()))
    path = tmp_path / "int_ids.parquet"
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
    result = load_parquet(path)
    assert [r.id for r in result.records] == ["228", "226", "347"]
    assert_same_records(result.records, mercury)
    # Rows written from to_row() (all fields, inferred types) load back the same.
    written = tmp_path / "to_row.parquet"
    pq.write_table(pa.Table.from_pylist([r.to_row() for r in mercury]), written)
    assert_same_records(load_parquet(written).records, mercury)


def test_parquet_via_pandas_numpy_values(tmp_path, raw_rows, mercury):
    frame = pd.DataFrame(raw_rows, index=[10, 11, 12])  # index written as __index_level_0__
    path = tmp_path / "pandas.parquet"
    frame.to_parquet(path)
    assert "__index_level_0__" in pq.read_schema(path).names
    assert_same_records(load_parquet(path).records, mercury)
    # Rows read back by pandas hold numpy arrays; from_row turns them into lists.
    rows = pd.read_parquet(path).to_dict("records")
    assert type(rows[0]["pretty_content"]).__module__ == "numpy"
    assert [TaskRow.from_row(r) for r in rows] == mercury


def test_parquet_solutions_stored_as_struct_of_lists(tmp_path, raw_rows, mercury):
    rows = copy.deepcopy(raw_rows)
    for row in rows:
        sols = row["solutions"]
        row["solutions"] = {key: [s[key] for s in sols] for key in ("hash", "runtime", "solution")}
    path = tmp_path / "columns.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    assert pa.types.is_struct(pq.read_schema(path).field("solutions").type)
    assert_same_records(load_parquet(path).records, mercury)


def test_parquet_bad_rows_set_aside(tmp_path, raw_rows):
    rows = copy.deepcopy(raw_rows)
    rows[1]["test_cases"] = "[{"
    path = tmp_path / "mixed.parquet"
    pq.write_table(pa.Table.from_pylist(rows, schema=MERCURY_SCHEMA), path)
    result = load_parquet(path)
    assert [r.slug_name for r in result.records] == ["summary-ranges", "top-k-frequent-elements"]
    (reject,) = result.rejects
    assert reject.source == f"{path}[1]"
    assert reject.task == "invert-binary-tree"
    assert "field 'test_cases' is not valid JSON" in reject.reason


def test_truncated_parquet_is_one_reject(tmp_path, raw_rows):
    good = write_mercury_parquet(raw_rows, tmp_path / "good.parquet")
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(good.read_bytes()[:300])
    result = load_records(cut)
    assert result.records == []
    (reject,) = result.rejects
    assert reject.source == str(cut)
    assert reject.reason.startswith("not a readable Parquet file (truncated?): ")


# --- HF datasets --------------------------------------------------------------------------------


def test_hf_dataset_save_to_disk_round_trips(tmp_path, hf, raw_rows, mercury):
    dataset = hf.Dataset.from_list(raw_rows)
    assert_same_records(load_hf(dataset).records, mercury)
    directory = tmp_path / "ds"
    dataset.save_to_disk(str(directory))
    for result in (load_hf(directory), load_records(directory)):
        assert result.rejects == []
        assert_same_records(result.records, mercury)
        assert result.records[1].cases()[0].expected == [4, 7, 2, 9, 6, 3, 1]


def test_hf_dataset_dict_splits(tmp_path, hf, raw_rows, mercury):
    splits = hf.DatasetDict(
        {"eval": hf.Dataset.from_list(raw_rows[:2]), "train": hf.Dataset.from_list(raw_rows[2:])}
    )
    directory = tmp_path / "dd"
    splits.save_to_disk(str(directory))

    every = load_records(directory)
    assert every.rejects == []
    assert_same_records(every.records, mercury)
    assert list(every.splits) == ["eval", "train"]
    assert_same_records(every.splits["eval"], mercury[:2])
    assert_same_records(every.splits["train"], mercury[2:])

    train = load_hf(directory, split="train")
    assert_same_records(train.records, mercury[2:])
    assert list(train.splits) == ["train"]
    assert_same_records(load_hf(splits, split="eval").records, mercury[:2])

    with pytest.raises(RecordError, match=r"no split 'test'; available: eval, train"):
        load_records(directory, split="test")


def test_hf_bad_row_is_rejected_with_split_in_source(hf, raw_rows):
    rows = copy.deepcopy(raw_rows)
    rows[0]["entry_point"] = None
    result = load_hf(hf.DatasetDict({"eval": hf.Dataset.from_list(rows)}))
    assert [r.slug_name for r in result.records] == [
        "invert-binary-tree",
        "top-k-frequent-elements",
    ]
    (reject,) = result.rejects
    assert reject.source == "<DatasetDict>/eval[0]"
    assert reject.task == "summary-ranges"
    assert "field 'entry_point'" in reject.reason


def test_hf_rejects_other_objects(hf):
    with pytest.raises(RecordError, match=r"expected a datasets\.Dataset"):
        load_hf([{"id": "1"}])  # type: ignore[arg-type]


# --- load_records dispatch ----------------------------------------------------------------------


def test_directory_of_parquet_files_one_split_per_stem(tmp_path, raw_rows, mercury):
    write_mercury_parquet(raw_rows[:2], tmp_path / "eval.parquet")
    write_mercury_parquet(raw_rows[2:], tmp_path / "train.parquet")
    result = load_records(tmp_path)
    assert sorted(result.splits) == ["eval", "train"]
    assert_same_records(result.splits["eval"], mercury[:2])
    assert_same_records(result.splits["train"], mercury[2:])
    assert len(result.records) == 3
    only = load_records(tmp_path, split="train")
    assert_same_records(only.records, mercury[2:])
    assert list(only.splits) == ["train"]
    with pytest.raises(RecordError, match="no split 'test'"):
        load_records(tmp_path, split="test")


def test_hub_layout_with_shards_under_data(tmp_path, raw_rows, mercury):
    data = tmp_path / "data"
    data.mkdir()
    write_mercury_parquet(raw_rows[:1], data / "eval-00000-of-00002.parquet")
    write_mercury_parquet(raw_rows[1:2], data / "eval-00001-of-00002.parquet")
    write_mercury_parquet(raw_rows[2:], data / "train-00000-of-00001.parquet")
    (tmp_path / "README.md").write_text("# card\n")
    result = load_records(tmp_path)
    assert list(result.splits) == ["eval", "train"]
    assert_same_records(result.splits["eval"], mercury[:2])
    assert_same_records(result.records, mercury)


def test_load_records_errors(tmp_path):
    with pytest.raises(RecordError, match="no such file or directory"):
        load_records(tmp_path / "missing.json")
    csv = tmp_path / "rows.csv"
    csv.write_text("id,slug_name\n1,a\n")
    with pytest.raises(RecordError, match=r"unsupported file type '\.csv'"):
        load_records(csv)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(RecordError, match="not a record source"):
        load_records(empty)
    with pytest.raises(RecordError, match="single file has no splits"):
        load_records(MERCURY_JSON, split="eval")


def test_load_result_add_split():
    result = LoadResult()
    part = load_json(FIXTURES / "malformed_rows.json")
    result.add_split("eval", part)
    assert result.records == part.records
    assert result.rejects == part.rejects
    assert result.splits == {"eval": part.records}
