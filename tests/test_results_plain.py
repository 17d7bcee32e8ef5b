"""quicksilver/orchestration/results.py: which cached Prefect results a build reads back (only plain JSON written
with the project's serializer) and what it does with the rest (deletes them, one line each)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from prefect._internal.result_records import ResultRecord, ResultRecordMetadata
from prefect.serializers import JSONSerializer, PickleSerializer

from quicksilver.orchestration.results import (
    SERIALIZER,
    decode_object,
    is_plain_record,
    keep_plain_results,
)


def _record(serializer: Any, result: Any) -> bytes:
    meta = ResultRecordMetadata(serializer=serializer, storage_key="k")
    return ResultRecord(metadata=meta, result=result).serialize()


def test_only_records_of_the_projects_serializer_are_plain() -> None:
    summary = {"stage": "load", "part": "", "counts": {"tasks_in": 3, "drops": {}}}
    assert is_plain_record(_record(SERIALIZER, summary))
    assert not is_plain_record(_record(PickleSerializer(), summary))
    assert not is_plain_record(_record(JSONSerializer(), summary))  # Prefect's decoder imports
    other_lib = json.loads(_record(SERIALIZER, summary))
    other_lib["metadata"]["serializer"]["jsonlib"] = "pickle"
    assert not is_plain_record(json.dumps(other_lib).encode())
    assert not is_plain_record(b"\x80\x04not json")
    assert not is_plain_record(b'{"metadata": "x"}')
    assert not is_plain_record(b"[1, 2]")


def test_a_plain_record_reads_back_as_the_same_data() -> None:
    summary = {"stage": "profile", "part": "shard-0001", "reused": False, "n": [1, 2.5, None]}
    back = ResultRecord.deserialize(_record(SERIALIZER, summary))
    assert back.result == summary


def test_tagged_values_are_never_resolved() -> None:
    tagged = {"__class__": "subprocess.Popen", "data": ["touch", "/tmp/x"]}
    assert decode_object(dict(tagged)) == tagged
    exc = decode_object({"__exc_type__": "quicksilver.fsutil.WriteError", "message": "disk full"})
    assert isinstance(exc, RuntimeError)
    assert str(exc) == "quicksilver.fsutil.WriteError: disk full"
    # through Prefect's own reading of a record
    raw = json.loads(_record(SERIALIZER, {"a": 1}))
    raw["result"] = json.dumps({"v": tagged})
    back = ResultRecord.deserialize(json.dumps(raw).encode())
    assert back.result == {"v": tagged}


def test_keep_plain_results_deletes_the_rest_with_one_line_each(tmp_path: Path, caplog) -> None:
    folder = tmp_path / ".prefect-results"
    (folder / "sub").mkdir(parents=True)
    good = folder / "quicksilver-aaaa"
    good.write_bytes(_record(SERIALIZER, {"ok": True}))
    pickled = folder / "quicksilver-bbbb"
    pickled.write_bytes(_record(PickleSerializer(), {"ok": True}))
    truncated = folder / "sub" / "quicksilver-cccc"
    truncated.write_bytes(_record(SERIALIZER, {"ok": True})[:20])
    link = folder / "quicksilver-dddd"
    link.symlink_to(good)
    with caplog.at_level(logging.WARNING, logger="quicksilver.results"):
        deleted = keep_plain_results(folder)
    assert sorted(deleted) == sorted([pickled, truncated, link])
    assert [p.name for p in folder.rglob("*") if p.is_file()] == ["quicksilver-aaaa"]
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3 and all(str(p) in " ".join(lines) for p in deleted)
    assert keep_plain_results(tmp_path / "missing") == []
