"""DPE candidate solutions from an LLM, against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openai_server import Choices, OpenAIServer, Status
from pydantic import ValidationError

from quicksilver.config import NOT_CONFIGURED, CandidatesSection, LLMConfig
from quicksilver.dpe.llm_solutions import (
    LLMCandidates,
    extract_solution,
)
from quicksilver.synth import SynthInput

STATEMENT = (
    "<p>Return the largest value of <code>nums</code>.</p>\n"
    "<p><strong>Constraints:</strong></p>\n<ul>\n"
    "\t<li><code>1 &lt;= nums.length &lt;= 10<sup>5</sup></code></li>\n"
    "\t<li><code>-10<sup>9</sup> &lt;= nums[i] &lt;= 10<sup>9</sup></code></li>\n</ul>\n"
)
STARTER = "class Solution:\n    def largest(self, nums: List[int]) -> int:\n        "
REFERENCE = (
    "class Solution:\n    def largest(self, nums):\n        return sorted(nums)[-1]  # REF\n"
)
TASK = SynthInput(
    slug="largest-value",
    title="Largest Value",
    content_html=STATEMENT,
    meta={
        "name": "largest",
        "params": [{"name": "nums", "type": "integer[]"}],
        "return": {"type": "integer"},
    },
    prompt=STARTER,
    examples=(([3, 1, 2],),),
    reference_code=REFERENCE,
)

FAST = "class Solution:\n    def largest(self, nums: List[int]) -> int:\n        return max(nums)\n"
LOOP = (
    "class Solution:\n    def largest(self, nums: List[int]) -> int:\n"
    "        best = nums[0]\n        for x in nums:\n            best = x if x > best else best\n"
    "        return best\n"
)


def fenced(body: str, lang: str = "python") -> str:
    return f"```{lang}\n{body}```\n"


@pytest.fixture
def server():
    with OpenAIServer() as s:
        yield s


@pytest.fixture(autouse=True)
def _no_llm_env(monkeypatch):
    for var in ("QUICKSILVER_LLM_BASE_URL", "OPENAI_BASE_URL", "QUICKSILVER_LLM_MODEL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def candidates(server: OpenAIServer, tmp_path: Path, **overrides: Any) -> LLMCandidates:
    llm = {"base_url": server.url, "model": "sol-model", "max_retries": 0, "request_timeout_s": 5.0}
    llm.update(overrides.pop("llm", {}))
    fields: dict[str, Any] = {"n": 3, "cache_dir": str(tmp_path / "cache")}
    fields.update(overrides)
    return LLMCandidates(CandidatesSection(llm=LLMConfig(**llm), **fields))


def test_config_defaults() -> None:
    cfg = CandidatesSection()
    assert (cfg.n, cfg.temperature, cfg.max_tokens, cfg.prompt_template) == (
        8,
        0.8,
        2048,
        "dpe_solution.j2",
    )
    with pytest.raises(ValidationError):
        CandidatesSection(k=2)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "answer,code,category",
    [
        ("Use max.\n" + fenced(FAST), FAST, "ok"),
        (fenced(FAST, "py"), FAST, "ok"),
        (fenced(FAST, ""), FAST, "ok"),
        # a helper block first, then the solution
        (fenced("def helper(x):\n    return x\n") + fenced(FAST), FAST, "ok"),
        # no fences: the code from its first line, prose after it dropped
        ("Here you go:\n" + FAST + "\nThis is O(n).", FAST, "ok"),
        (None, None, "empty-answer"),
        ("Just take the maximum.", None, "no-code"),
        ("```python\nclass Solution:\n    def largest(self, nums):\n", None, "truncated"),
        (fenced("class Solution:\n    def largest(self, nums:\n"), None, "syntax-error"),
        (fenced("def largest(nums):\n    return max(nums)\n"), None, "no-solution-class"),
        (
            fenced("class Solution:\n    def biggest(self, nums):\n        return max(nums)\n"),
            None,
            "no-solution-class",
        ),
    ],
)
def test_extract_solution(answer: str | None, code: str | None, category: str) -> None:
    got, cat, detail = extract_solution(answer, "largest")
    assert (got, cat) == (code, category), detail
    if category == "no-solution-class":
        assert "no class Solution defining largest (found: " in detail


def test_the_prompt_has_the_task_but_not_the_reference(tmp_path) -> None:
    cfg = CandidatesSection(
        llm=LLMConfig(base_url="http://unused/v1", model="m"), cache_dir=str(tmp_path)
    )
    system, user = LLMCandidates(cfg).messages(TASK)
    assert system["role"] == "system" and "LeetCode" in system["content"]
    text = user["content"]
    assert "Largest Value" in text and "Return the largest value of nums." in text
    assert "1 <= nums.length <= 10^5" in text and STARTER.strip() in text
    assert "`largest(nums)`" in text and "[[3, 1, 2]]" in text
    assert "# REF" not in text  # the model's own solutions, not a paraphrase of the reference


def test_answers_become_solutions_or_rejections(server, tmp_path) -> None:
    commented = "# fast\n" + FAST.replace("return", "# builtin\n        return")
    server.queue(
        fenced(FAST),
        "I would loop over the values.",
        fenced(commented),  # the first answer with comments: a duplicate
        fenced("def largest(nums):\n    return max(nums)\n"),
        fenced(LOOP),
    )
    s = candidates(server, tmp_path, n=5, temperature=0.6, max_tokens=512)
    solutions, rejected = s.ask(TASK, seed=4)
    body = server.requests()[0].body
    assert (body["model"], body["n"], body["temperature"], body["max_tokens"], body["seed"]) == (
        "sol-model",
        5,
        0.6,
        512,
        4,
    )
    assert solutions == [
        {"code": FAST, "model": "sol-model", "answer_index": 0, "temperature": 0.6},
        {"code": LOOP, "model": "sol-model", "answer_index": 4, "temperature": 0.6},
    ]
    assert [(r["answer"], r["reason"]) for r in rejected] == [
        (1, "no-code"),
        (2, "duplicate"),
        (3, "no-solution-class"),
    ]
    assert all(r["detail"].startswith("largest-value: answer ") for r in rejected)
    assert json.loads(json.dumps(solutions)) == solutions


def test_endpoint_trouble_is_a_rejection_not_a_crash(server, tmp_path) -> None:
    server.queue(Choices([fenced(FAST)]), Status(503))
    solutions, rejected = candidates(server, tmp_path).ask(TASK)
    assert [s["answer_index"] for s in solutions] == [0]
    assert rejected[-1]["reason"] == "endpoint-error" and rejected[-1]["answer"] == 1
    assert "HTTP 503" in rejected[-1]["detail"] and "answers 1..2" in rejected[-1]["detail"]


def test_not_configured(tmp_path) -> None:
    s = LLMCandidates(CandidatesSection(cache_dir=str(tmp_path)))
    assert not s.configured
    assert s.ask(TASK) == (
        [],
        [{"answer": 0, "reason": "not-configured", "detail": NOT_CONFIGURED}],
    )


def test_the_cache_replays_without_a_request(server, tmp_path) -> None:
    server.queue(fenced(FAST), fenced(LOOP), "")
    first = candidates(server, tmp_path).ask(TASK)
    assert server.count == 1
    with OpenAIServer() as other:
        again = candidates(other, tmp_path).ask(TASK)
        assert other.count == 0
    assert again == first
    (entry,) = (tmp_path / "cache").rglob("*.json")
    assert json.loads(entry.read_text())["kind"] == "dpe-solution"
