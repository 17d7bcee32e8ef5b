"""Tests for quicksilver.samples: JSONL, Mercury JSON and JSON lists, bad entries set aside."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quicksilver.samples import (
    POSITIONAL,
    Sample,
    SampleSet,
    class_solution,
    load_samples,
    slug_form,
)

CODE_A = "class Solution:\n    def f(self, x):\n        return x\n"
CODE_B = "class Solution:\n    def f(self, x):\n        return x + 0\n"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def jsonl(path: Path, *objs: object) -> Path:
    return write(path, "".join(json.dumps(o) + "\n" for o in objs))


def test_jsonl_basic_fields_index_and_extra(tmp_path: Path) -> None:
    path = jsonl(
        tmp_path / "s.jsonl",
        {"task_id": "two-sum", "completion": CODE_A, "model": "m1", "temperature": 0.2},
        {"slug_name": "add-two-numbers", "solution": CODE_B},
        {"task_id": "two-sum", "completion": CODE_B, "model": "m2"},
    )
    result = load_samples(path)
    assert result.rejects == []
    assert result.samples == [
        Sample("two-sum", CODE_A, 0, f"{path}:1", {"model": "m1", "temperature": 0.2}, 0),
        Sample("add-two-numbers", CODE_B, 0, f"{path}:2", {}, 1),
        Sample("two-sum", CODE_B, 1, f"{path}:3", {"model": "m2"}, 2),
    ]


def test_jsonl_accepts_a_str_path_and_int_task(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "s.jsonl", {"task_id": 42, "code": CODE_A})
    result = load_samples(str(path))
    assert result.samples == [Sample("42", CODE_A, 0, f"{path}:1", {})]


def test_jsonl_malformed_lines_are_set_aside(tmp_path: Path) -> None:
    lines = [
        json.dumps({"task_id": "a", "completion": CODE_A}),
        "",
        "{this is not json",
        json.dumps([1, 2]),
        json.dumps({"completion": CODE_A}),
        json.dumps({"task_id": "a", "completion": ""}),
        json.dumps({"task_id": "a", "completion": "   \n\t"}),
        json.dumps({"task_id": "a", "completion": 5}),
        json.dumps({"task_id": ["a"], "completion": CODE_A}),
        json.dumps({"task_id": "a", "completion": CODE_B}),
    ]
    path = write(tmp_path / "s.jsonl", "\n".join(lines) + "\n")
    result = load_samples(path)

    assert result.samples == [
        Sample("a", CODE_A, 0, f"{path}:1", {}),
        Sample("a", CODE_B, 1, f"{path}:10", {}),
    ]
    sources = [src for src, _ in result.rejects]
    assert sources == [f"{path}:{n}" for n in (3, 4, 5, 6, 7, 8, 9)]
    reasons = [reason for _, reason in result.rejects]
    assert reasons[0].startswith("invalid JSON: ")
    assert reasons[1:] == [
        "expected an object, got list",
        "no task_id or slug_name",
        "task a: no completion or solution text",
        "task a: no completion or solution text",
        "task a: no completion or solution text",
        "no task_id or slug_name",
    ]


def test_empty_completion_falls_back_to_solution(tmp_path: Path) -> None:
    path = jsonl(
        tmp_path / "s.jsonl",
        {"task_id": "", "slug_name": "x", "completion": "", "solution": CODE_A},
    )
    result = load_samples(path)
    assert result.rejects == []
    assert result.samples == [Sample("x", CODE_A, 0, f"{path}:1", {})]


def test_jsonl_content_detected_without_jsonl_suffix(tmp_path: Path) -> None:
    path = jsonl(
        tmp_path / "samples.json",
        {"task_id": "a", "completion": CODE_A},
        {"task_id": "b", "completion": CODE_B},
    )
    result = load_samples(path)
    assert [(s.task, s.source) for s in result.samples] == [
        ("a", f"{path}:1"),
        ("b", f"{path}:2"),
    ]


def test_mercury_json(tmp_path: Path) -> None:
    doc = {
        "two-sum": [
            {"task_id": 1, "completion": CODE_A},
            {"task_id": 1, "completion": CODE_B, "round": 2},
        ],
        "add-two-numbers": [{"task_id": 2, "completion": CODE_B}],
    }
    path = write(tmp_path / "mercury.json", json.dumps(doc, indent=2))
    result = load_samples(path)
    assert result.rejects == []
    assert result.samples == [
        Sample("two-sum", CODE_A, 0, f"{path}:two-sum[0]", {}),
        Sample("two-sum", CODE_B, 1, f"{path}:two-sum[1]", {"round": 2}),
        Sample("add-two-numbers", CODE_B, 0, f"{path}:add-two-numbers[0]", {}),
    ]


def test_mercury_json_with_nested_objects_at_line_start(tmp_path: Path) -> None:
    doc = {"two-sum": [{"task_id": 1, "completion": CODE_A}]}
    path = write(tmp_path / "mercury.json", json.dumps(doc, indent=0))
    result = load_samples(path)
    assert result.rejects == []
    assert result.samples == [Sample("two-sum", CODE_A, 0, f"{path}:two-sum[0]", {})]


def test_mercury_json_bad_entries(tmp_path: Path) -> None:
    doc = {
        "a": [{"completion": CODE_A}, {"completion": ""}, "oops"],
        "b": {"completion": CODE_B},
        "c": [{"task_id": "c", "solution": CODE_B}],
    }
    path = write(tmp_path / "mercury.json", json.dumps(doc))
    result = load_samples(path)
    assert result.samples == [
        Sample("a", CODE_A, 0, f"{path}:a[0]", {}),
        Sample("c", CODE_B, 0, f"{path}:c[0]", {}),
    ]
    assert result.rejects == [
        (f"{path}:a[1]", "task a: no completion or solution text"),
        (f"{path}:a[2]", "expected an object, got str"),
        (f"{path}:b", "expected a list of samples"),
    ]


def test_json_list(tmp_path: Path) -> None:
    doc = [
        {"task_id": "a", "completion": CODE_A, "model": "m"},
        7,
        {"slug_name": "a", "solution": CODE_B},
    ]
    path = write(tmp_path / "list.json", json.dumps(doc, indent=2))
    result = load_samples(path)
    assert result.samples == [
        Sample("a", CODE_A, 0, f"{path}[0]", {"model": "m"}),
        Sample("a", CODE_B, 1, f"{path}[2]", {}),
    ]
    assert result.rejects == [(f"{path}[1]", "expected an object, got int")]


def test_single_json_object(tmp_path: Path) -> None:
    path = write(tmp_path / "one.json", json.dumps({"task_id": "t", "completion": CODE_A}))
    result = load_samples(path)
    assert result.samples == [Sample("t", CODE_A, 0, str(path), {})]
    assert result.rejects == []


def test_invalid_whole_json_file(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.json", '[{"task_id": "a",')
    result = load_samples(path)
    assert result.samples == []
    assert len(result.rejects) == 1
    assert result.rejects[0][0] == str(path)
    assert result.rejects[0][1].startswith("invalid JSON: ")


def test_missing_file_is_one_reject(tmp_path: Path) -> None:
    path = tmp_path / "nope.jsonl"
    result = load_samples(path)
    assert result.samples == []
    assert len(result.rejects) == 1
    assert result.rejects[0][0] == str(path)
    assert result.rejects[0][1].startswith("cannot read: ")
    assert "No such file" in result.rejects[0][1]


def test_one_undecodable_byte_loses_only_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin.jsonl"
    path.write_bytes(
        json.dumps({"task_id": "a", "completion": CODE_A}).encode()
        + b"\n"
        + b'{"task_id": "b", "completion": "x = \xff"}\n'
        + json.dumps({"task_id": "c", "completion": CODE_B}).encode()
        + b"\n"
    )
    result = load_samples(path)
    assert [(s.task, s.code, s.source) for s in result.samples] == [
        ("a", CODE_A, f"{path}:1"),
        ("c", CODE_B, f"{path}:3"),
    ]
    assert result.rejects == [(f"{path}:2", "not UTF-8 text: byte 0xff at column 37")]


def test_undecodable_byte_in_a_mercury_file_loses_only_its_entry(tmp_path: Path) -> None:
    path = tmp_path / "mercury.json"
    path.write_bytes(
        b'{"a": [{"completion": "x = 1"}, {"completion": "x = \xfe"}], '
        b'"b": [{"completion": "x = 3"}]}'
    )
    result = load_samples(path)
    assert [(s.task, s.code, s.source) for s in result.samples] == [
        ("a", "x = 1", f"{path}:a[0]"),
        ("b", "x = 3", f"{path}:b[0]"),
    ]
    assert result.rejects == [(f"{path}:a[1]", "not UTF-8 text: byte 0xfe")]


def test_malformed_line_of_a_json_named_jsonl_file_loses_only_that_line(tmp_path: Path) -> None:
    """A .json file holding JSONL with one broken line: the others load (they were all lost)."""
    lines = [
        json.dumps({"task_id": "a", "completion": CODE_A}),
        '{"task_id": "b", "completion": "x = ',  # cut short
        json.dumps({"task_id": "c", "completion": CODE_B}),
    ]
    path = write(tmp_path / "samples.json", "\n".join(lines) + "\n")
    result = load_samples(path)
    assert [(s.task, s.source) for s in result.samples] == [("a", f"{path}:1"), ("c", f"{path}:3")]
    ((source, reason),) = result.rejects
    assert source == f"{path}:2" and reason.startswith("invalid JSON: Unterminated string")


def test_line_separator_inside_a_string_does_not_split_the_line(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "s.jsonl", {"task_id": "a", "completion": "x = '\u2028'\n"})
    path.write_text(path.read_text().replace("\\u2028", "\u2028"), encoding="utf-8")
    result = load_samples(path)
    assert result.rejects == []
    assert [s.code for s in result.samples] == ["x = '\u2028'\n"]


def test_directory_is_one_reject(tmp_path: Path) -> None:
    result = load_samples(tmp_path)
    assert result.samples == []
    assert [src for src, _ in result.rejects] == [str(tmp_path)]


def test_by_task_groups_in_file_order(tmp_path: Path) -> None:
    path = jsonl(
        tmp_path / "s.jsonl",
        {"task_id": "b", "completion": "x = 1"},
        {"task_id": "a", "completion": "x = 2"},
        {"task_id": "b", "completion": "x = 3"},
        {"task_id": "b", "completion": "x = 4"},
    )
    groups = load_samples(path).by_task()
    assert list(groups) == ["b", "a"]
    assert [(s.code, s.index) for s in groups["b"]] == [("x = 1", 0), ("x = 3", 1), ("x = 4", 2)]
    assert [(s.code, s.index) for s in groups["a"]] == [("x = 2", 0)]


def test_empty_sample_set() -> None:
    empty = SampleSet()
    assert empty.by_task() == {}
    assert empty.samples == [] and empty.rejects == []


PROMPT = "class Solution:\n    def add(self, a: int, b: int) -> int:\n        "


@pytest.mark.parametrize(
    "completion",
    [
        "        return a + b\n",  # continues the prompt, indented as its body
        "return a + b",  # the body alone, not indented
        "\n    total = a + b\n    return total\n",  # indented less than the body
    ],
)
def test_a_method_body_is_completed_from_the_prompt(completion: str) -> None:
    code = class_solution(PROMPT, completion)
    scope: dict = {}
    exec(code, scope)  # our own test text, not a sample's
    assert scope["Solution"]().add(2, 3) == 5


def test_a_whole_class_or_text_that_does_not_parse_is_left_as_it_is() -> None:
    whole = "class Solution:\n    def add(self, a, b):\n        return a + b\n"
    assert class_solution(PROMPT, whole) == whole
    broken = "return (a +"
    assert class_solution(PROMPT, broken) == broken  # the judge reports its syntax error


def test_bigcode_generations_name_tasks_by_their_place(tmp_path: Path) -> None:
    path = tmp_path / "generations.json"
    path.write_text(json.dumps([["def f(): return 1\n", "def f(): return 2\n"], [], ["x = 1\n"]]))
    loaded = load_samples(path)
    assert loaded.rejects == []
    assert [(s.task, s.index, s.source.rsplit("/", 1)[1]) for s in loaded.samples] == [
        ("#0", 0, "generations.json[0][0]"),
        ("#0", 1, "generations.json[0][1]"),
        ("#2", 0, "generations.json[2][0]"),
    ]
    assert POSITIONAL.fullmatch(loaded.samples[0].task)


def test_an_evalplus_folder_reads_each_task_folders_files_in_numeric_order(tmp_path: Path) -> None:
    for task, files in {"HumanEval_0": ["10", "2", "0"], "two-sum": ["0", "1"]}.items():
        (tmp_path / task).mkdir()
        for n in files:
            (tmp_path / task / f"{n}.py").write_text(f"# {task} {n}\n")
    (tmp_path / "two-sum" / "1.py").write_text("  \n")  # an empty sample: set aside, named
    loaded = load_samples(tmp_path)
    assert [(s.task, s.code.split()[-1]) for s in loaded.samples] == [
        ("HumanEval_0", "0"),
        ("HumanEval_0", "2"),
        ("HumanEval_0", "10"),
        ("two-sum", "0"),
    ]
    assert slug_form(loaded.samples[0].task) == "humaneval-0"  # the converter's slug
    assert [(Path(src).name, why) for src, why in loaded.rejects] == [
        ("1.py", "task two-sum: an empty file")
    ]


def test_a_leetcode_sample_gets_the_imports_leetcodes_judge_would_not_ask_for() -> None:
    """LeetCode accepts ``pairwise`` and ``gcd`` unimported: scoring judges the sample with the
    import lines added (recorded per sample), as the build gives the references theirs; a
    function-style (HumanEval) sample and code that does not parse are left as they are."""
    from quicksilver.rows import TaskRow
    from quicksilver.scoring.matching import match_samples

    leetcode = TaskRow(
        id="1", slug_name="gaps", solutions=[], prompt=PROMPT, entry_point="add", test_cases="[]"
    )
    uses = "class Solution:\n    def add(self, a, b):\n        return gcd(a, b) + len(list(pairwise([a, b])))\n"
    broken = "class Solution:\n    def add(self, a, b):\n        return gcd(a,\n"
    plain = "class Solution:\n    def add(self, a, b):\n        return a + b\n"
    samples = {
        "gaps": [Sample("gaps", c, i, f"s.jsonl:{i}") for i, c in enumerate((uses, broken, plain))]
    }
    ((_row, got),) = match_samples([leetcode], samples).rows.values()
    assert [s.code for s in got] == [
        "from itertools import pairwise\nfrom math import gcd\n" + uses,
        broken,
        plain,
    ]
    assert [s.extra.get("imports_added", []) for s in got] == [
        ["from itertools import pairwise", "from math import gcd"],
        [],
        [],
    ]
    humaneval = leetcode.model_copy(update={"task_kind": "function", "slug_name": "h"})
    function = "def add(a, b):\n    return gcd(a, b)\n"
    h = {"h": [Sample("h", function, 0, "s:0")]}
    ((_row, got),) = match_samples([humaneval], h).rows.values()
    assert got[0].code == function
