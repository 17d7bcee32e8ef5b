"""The DPE build's candidates stage: an LLM's solutions (against a local OpenAI-compatible server)
and model sample files join the snapshots' solutions, each recorded with its source and model;
bad ones are set aside with a reason naming the task."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openai_server import OpenAIServer

from quicksilver.config import CandidatesSection
from tests.stagekit import candidates_stage, load_stage

ROOT = Path(__file__).resolve().parents[1]
SLUG = "best-single-trade"
GOOD = (
    "class Solution:\n    def bestSingleTrade(self, prices: List[int]) -> int:\n"
    "        lo, best = float('inf'), 0\n"
    "        for p in prices:\n            lo = min(lo, p)\n            best = max(best, p - lo)\n"
    "        return best\n"
)


@pytest.fixture(autouse=True)
def _no_llm_env(monkeypatch):
    for var in ("QUICKSILVER_LLM_BASE_URL", "OPENAI_BASE_URL", "QUICKSILVER_LLM_MODEL"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="module")
def loaded() -> dict:
    return load_stage([ROOT / "data" / "snapshot" / "bundled"], only=[SLUG])


def test_no_endpoint_keeps_the_snapshot_solutions_and_says_so(loaded):
    out = candidates_stage(loaded["tasks"], loaded["solutions"], CandidatesSection())
    assert out["solutions"] == loaded["solutions"]
    assert any("no LLM endpoint configured" in n for n in out["counts"].notes)


def test_llm_solutions_are_added_with_their_model(loaded, tmp_path):
    with OpenAIServer() as server:
        server.queue(f"```python\n{GOOD}```\n", "I cannot write code today.")
        section = CandidatesSection(
            llm={"base_url": server.url, "model": "m-1", "max_retries": 0},
            n=2,
            temperature=0.7,
            cache_dir=tmp_path,
        )
        out = candidates_stage(loaded["tasks"], loaded["solutions"], section)
        body = server.requests()[0].body
    assert (body["model"], body["n"], body["temperature"]) == ("m-1", 2, 0.7)
    added = out["solutions"][len(loaded["solutions"]) :]
    assert len(added) == 1
    (row,) = added
    assert (row["source"], row["model"], row["slug"]) == ("llm", "m-1", SLUG)
    assert "min(lo, p)" in row["code"] and row["position"] == len(loaded["solutions"])
    (rej,) = out["rejects"]
    assert rej["slug"] == SLUG and rej["reason"] == "llm-solution-no-code" and SLUG in rej["detail"]
    assert out["counts"].drops == {"llm-solution-no-code": 1}


def test_sample_files_are_attached_to_their_tasks(loaded, tmp_path):
    samples = tmp_path / "samples.jsonl"
    lines = [
        {"task_id": SLUG, "completion": GOOD},
        {"slug_name": "no-such-task", "completion": GOOD},
        {"task_id": SLUG, "completion": "class Solution:\n    def bestSingleTrade(self, p:\n"},
    ]
    samples.write_text("\n".join(json.dumps(x) for x in lines) + "\n{not json\n")
    section = CandidatesSection(sample_files=[{"path": str(samples), "model": "my-model"}])
    out = candidates_stage(loaded["tasks"], loaded["solutions"], section)
    added = out["solutions"][len(loaded["solutions"]) :]
    assert [(r["source"], r["model"]) for r in added] == [("model", "my-model")]
    reasons = sorted(r["reason"] for r in out["rejects"])
    assert reasons == ["malformed-sample", "syntax-error", "unknown-task"]
    unknown = next(r for r in out["rejects"] if r["reason"] == "unknown-task")
    assert "no-such-task" in unknown["detail"]
    assert out["counts"].solutions_out == len(loaded["solutions"]) + 1


def test_a_sample_file_without_a_model_is_a_config_error():
    from quicksilver.config import ConfigError, DPEBuildConfig, load_build_config

    with pytest.raises(ConfigError, match=r"candidates\.sample_files\.0\.model"):
        load_build_config(
            None, ['candidates.sample_files=[{path: s.jsonl, model: ""}]'], cls=DPEBuildConfig
        )
