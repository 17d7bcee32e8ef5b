"""The LLM path of generator synthesis, against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import logging
import socket
from pathlib import Path

import pytest
from conftest import requires_bwrap
from openai_server import DROP, Choices, OpenAIServer, Raw, Status
from pydantic import ValidationError

from quicksilver.config import NOT_CONFIGURED, LLMConfig, SandboxConfig
from quicksilver.execute import case_seeds
from quicksilver.synth import SynthInput
from quicksilver.synth.llm import (
    LLMSynthesizer,
    conforms,
    extract_code,
)

STATEMENT = (
    "<p>Given an integer array <code>nums</code> and an integer <code>k</code>, return "
    "<em>the number of pairs</em> <code>(i, j)</code> with <code>i &lt; j</code> and "
    "<code>nums[i] + nums[j] == k</code>.</p>\n\n"
    '<p><strong class="example">Example 1:</strong></p>\n<pre>\n<strong>Input:</strong> '
    "nums = [1,2,3,4], k = 5\n<strong>Output:</strong> 2\n</pre>\n\n"
    "<p><strong>Constraints:</strong></p>\n<ul>\n"
    "\t<li><code>1 &lt;= nums.length &lt;= 10<sup>5</sup></code></li>\n"
    "\t<li><code>-10<sup>9</sup> &lt;= nums[i] &lt;= 10<sup>9</sup></code></li>\n"
    "\t<li><code>1 &lt;= k &lt;= 10<sup>9</sup></code></li>\n</ul>\n"
)
STARTER = "class Solution:\n    def countPairs(self, nums: List[int], k: int) -> int:\n        "
REFERENCE = (
    "class Solution:\n    def countPairs(self, nums: List[int], k: int) -> int:\n"
    "        seen, out = {}, 0\n        for x in nums:\n            out += seen.get(k - x, 0)\n"
    "            seen[x] = seen.get(x, 0) + 1\n        return out\n"
)
TASK = SynthInput(
    slug="count-pairs",
    title="Count Pairs",
    content_html=STATEMENT,
    meta={
        "name": "countPairs",
        "params": [{"name": "nums", "type": "integer[]"}, {"name": "k", "type": "integer"}],
        "return": {"type": "integer"},
    },
    prompt=STARTER,
    examples=(([1, 2, 3, 4], 5),),
    reference_code=REFERENCE,
)

GOOD_CODE = (
    "import random\n\n\ndef generate_test_case():\n"
    "    n = random.randint(1, 50)\n"
    "    nums = [random.randint(-10**9, 10**9) for _ in range(n)]\n"
    "    return [nums, random.randint(1, 10**9)]\n"
)
GOOD = f"Sure! Here is the generator:\n\n```python\n{GOOD_CODE}```\n\nIt respects all constraints."


def fenced(body: str) -> str:
    return f"```python\n{body}```\n"


PROSE = "You could draw random integers for nums and pick k between 1 and 10^9."
SYNTAX = fenced("import random\n\ndef generate_test_case():\n    return [[1, 2], 3\n")
NO_ENTRY = fenced("import random\n\ndef make_input():\n    return [[1], 1]\n")
RAISES = fenced("def generate_test_case():\n    raise ValueError('boom')\n")
HANGS = fenced("def generate_test_case():\n    while True:\n        pass\n")
ARITY = fenced("import random\n\ndef generate_test_case():\n    return [[random.randint(1, 9)]]\n")
TYPES = fenced("def generate_test_case():\n    return ['abc', 3]\n")

WEAK = SandboxConfig(isolation="weak", allow_weak=True)  # for tests that never run code


@pytest.fixture
def server():
    with OpenAIServer() as s:
        yield s


@pytest.fixture(autouse=True)
def _no_llm_env(monkeypatch):
    for var in ("QUICKSILVER_LLM_BASE_URL", "OPENAI_BASE_URL", "QUICKSILVER_LLM_MODEL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def synth(server: OpenAIServer, tmp_path: Path, **overrides) -> LLMSynthesizer:
    sandbox = overrides.pop("sandbox", None)
    cache = overrides.pop("cache_dir", tmp_path / "cache")
    fields = {
        "base_url": server.url,
        "model": "test-model",
        "max_retries": 0,
        "request_timeout_s": 5.0,
        "validation_seeds": 3,
        "validation_cpu_seconds": 2.0,
    }
    fields.update(overrides)
    return LLMSynthesizer(LLMConfig(**fields), cache, sandbox=sandbox)


def last_user(seen) -> str:
    return [m for m in seen.messages if m["role"] == "user"][-1]["content"]


# --------------------------------------------------------------------------------------------
# Pieces
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value,t,fragment",
    [
        (3, "integer", None),
        (True, "integer", "expected integer, got bool"),
        (2**31, "integer", "outside the 32-bit range"),
        (2**40, "long", None),
        (1.5, "integer", "expected integer, got float"),
        (2, "double", None),
        (2.5, "double", None),
        (False, "double", "expected double, got bool"),
        (True, "boolean", None),
        (1, "boolean", "expected boolean, got int"),
        ("abc", "string", None),
        ("a", "character", None),
        ("ab", "character", "a str of length 2"),
        ([1, 2], "integer[]", None),
        ("abc", "integer[]", "expected integer[], got str"),
        ([1, "x"], "integer[]", "expected integer, got str at [1]"),
        ([[1], [2, 3]], "integer[][]", None),
        ([[1], [2, 3.5]], "list<list<integer>>", "at [1][1]"),
        ([["a", "b"]], "character[][]", None),
        ([["ab"]], "character[][]", "expected character"),
        ([3, 9, 20, None, None, 15, 7], "TreeNode", None),
        ([], "TreeNode", None),
        ([None, 1], "TreeNode", "starting with None"),
        ([1, "2"], "TreeNode", "ints and None"),
        ([1, 2, 3], "ListNode", None),
        ([1, None], "ListNode", "a list of ints"),
        ([[1, 4], [], [2]], "ListNode[]", None),
        ([1, 4], "ListNode[]", "expected ListNode"),
        ([[1], [None, 2]], "list<TreeNode>", "starting with None at [1]"),
        (1, "Node", "unsupported LeetCode type"),
    ],
)
def test_conforms(value, t, fragment):
    got = conforms(value, t)
    if fragment is None:
        assert got is None
    else:
        assert got is not None and fragment in got, got


def test_extract_code_picks_the_block_that_defines_the_generator():
    assert extract_code(GOOD) == GOOD_CODE
    assert extract_code(f"```\n{GOOD_CODE}```") == GOOD_CODE  # a bare fence
    assert extract_code(f"```py\n{GOOD_CODE}") == GOOD_CODE  # unterminated (cut off)
    two = f"Example:\n```python\nprint(generate_test_case())\n```\nCode:\n```python\n{GOOD_CODE}```"
    assert extract_code(two) == GOOD_CODE
    other_lang = f"```json\n[[1, 2], 3]\n```\n```python\n{GOOD_CODE}```"
    assert extract_code(other_lang) == GOOD_CODE
    indented = (
        "1. The code:\n\n   ```python\n   def generate_test_case():\n       return [[1], 1]\n   ```"
    )
    assert extract_code(indented) == "def generate_test_case():\n    return [[1], 1]\n"
    # no fences: the code from its first line, trailing prose dropped
    assert extract_code(f"Here it is:\n{GOOD_CODE}\nHope this helps!") == GOOD_CODE.rstrip() + "\n"
    assert extract_code(PROSE) is None
    assert extract_code("") is None
    assert extract_code(None) is None


def test_config_defaults_validation_and_environment(monkeypatch):
    cfg = LLMConfig()
    assert (cfg.temperature, cfg.n, cfg.max_attempts, cfg.validation_seeds) == (0.2, 1, 4, 5)
    assert cfg.api_key_env == "OPENAI_API_KEY" and cfg.prompt_template == "mercury_generator.j2"
    assert not cfg.configured
    with pytest.raises(ValidationError):
        LLMConfig(api_key="sk-secret")  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        LLMConfig(temperature=2.5)
    with pytest.raises(ValidationError):
        LLMConfig(n=0)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://fallback/v1")
    monkeypatch.setenv("QUICKSILVER_LLM_MODEL", "env-model")
    assert LLMConfig().resolved().base_url == "http://fallback/v1"
    monkeypatch.setenv("QUICKSILVER_LLM_BASE_URL", "http://preferred/v1")
    resolved = LLMConfig().resolved()
    assert (resolved.base_url, resolved.model, resolved.configured) == (
        "http://preferred/v1",
        "env-model",
        True,
    )
    explicit = LLMConfig(base_url="http://explicit/v1", model="m").resolved()
    assert (explicit.base_url, explicit.model) == ("http://explicit/v1", "m")


def test_not_configured_is_a_reason_not_an_error(tmp_path):
    res = LLMSynthesizer(LLMConfig(), tmp_path).synthesize(TASK)
    assert not res.ok and res.path == "llm" and res.reason == NOT_CONFIGURED
    assert "QUICKSILVER_LLM_BASE_URL" in res.reason and "QUICKSILVER_LLM_MODEL" in res.reason


def test_unsupported_parameter_type_asks_nothing(server, tmp_path):
    task = SynthInput(
        slug="graph",
        title="Graph",
        content_html="<p>x</p>",
        meta={"name": "f", "params": [{"name": "node", "type": "Node"}]},
        prompt="class Solution: ...",
    )
    res = synth(server, tmp_path, sandbox=WEAK).synthesize(task)
    assert not res.ok and "Node" in (res.reason or "") and server.count == 0


def test_the_prompt_carries_the_task(tmp_path):
    syn = LLMSynthesizer(LLMConfig(base_url="http://unused/v1", model="m"), tmp_path)
    system, user = syn.messages(TASK)
    assert system["role"] == "system" and user["role"] == "user"
    text = user["content"]
    assert "Count Pairs" in text
    assert "return the number of pairs (i, j) with i < j and nums[i] + nums[j] == k" in text
    for constraint in ("1 <= nums.length <= 10^5", "-10^9 <= nums[i] <= 10^9", "1 <= k <= 10^9"):
        assert constraint in text
    assert STARTER.strip() in text and REFERENCE.strip() in text
    assert "`nums`: LeetCode type `integer[]`" in text and "`k`: LeetCode type `integer`" in text
    assert "[[1, 2, 3, 4], 5]" in text  # the example as an argument list
    assert "generate_test_case()" in text and "no list or string longer than 1000" in text
    assert "random.seed" in text and "standard library" in text
    assert "<code>" not in text and "&lt;" not in text


def test_the_prompts_dir_and_size_cap_can_be_overridden(tmp_path):
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "mine.j2").write_text(
        "{% set system %}S{% endset %}{% macro feedback(reason) %}{{ reason }}{% endmacro %}"
        "cap={{ size_cap }} {{ params | map(attribute='name') | join(',') }}"
    )
    cfg = LLMConfig(base_url="http://unused/v1", model="m", prompt_template="mine.j2")
    syn = LLMSynthesizer(cfg, tmp_path / "c", prompts_dir=prompts, size_cap=64)
    assert syn.messages(TASK)[1]["content"] == "cap=64 nums,k\n"


# --------------------------------------------------------------------------------------------
# The endpoint misbehaving (no code runs: a weak sandbox config keeps bwrap out of it)
# --------------------------------------------------------------------------------------------


def test_persistent_500_ends_with_a_clear_reason(server, tmp_path):
    server.always(Status(500, retry_after="0.01"))
    res = synth(server, tmp_path, max_retries=2, sandbox=WEAK).synthesize(TASK)
    assert not res.ok and res.attempts == []
    assert res.reason is not None
    assert res.reason.startswith("count-pairs: the LLM endpoint failed on attempt 1: HTTP 500")
    assert "after 2 retries" in res.reason
    assert server.count == 3  # the first request and the client's two retries


@pytest.mark.parametrize(
    "item,fragment",
    [
        (Raw(b'{"id": "x", "choi'), "malformed response"),
        (Raw(b"<html>gateway</html>", "text/html"), "malformed response"),
        (Raw(b"{}"), "malformed response"),
        (Choices([]), "no choices"),
        (DROP, "connection failed"),
        (Status(401), "HTTP 401"),
    ],
)
def test_bad_answers_from_the_endpoint_end_with_a_reason(server, tmp_path, item, fragment):
    server.queue(item)
    res = synth(server, tmp_path, sandbox=WEAK).synthesize(TASK)
    assert not res.ok and res.reason is not None
    assert res.reason.startswith("count-pairs: the LLM endpoint failed") and fragment in res.reason
    assert not list((tmp_path / "cache").rglob("*.json"))  # nothing cached


def test_connection_refused(tmp_path):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = LLMConfig(base_url=f"http://127.0.0.1:{port}/v1", model="m", max_retries=0)
    res = LLMSynthesizer(cfg, tmp_path, sandbox=WEAK).synthesize(TASK)
    assert not res.ok and "connection failed" in (res.reason or "")


def test_budget_exhausted_lists_the_attempts(server, tmp_path):
    server.queue(PROSE, "", NO_ENTRY)  # the third is never asked for
    res = synth(server, tmp_path, max_attempts=2, sandbox=WEAK).synthesize(TASK)
    assert not res.ok and server.count == 2
    assert res.reason == (
        "no usable generator in 2 attempts: 1: no Python code in the answer; 2: empty answer"
    )
    assert [a["verdict"] for a in res.attempts] == ["rejected", "rejected"]
    assert [a["attempt"] for a in res.attempts] == [1, 2]


def test_the_api_key_comes_from_the_named_variable_and_is_never_stored(
    server, tmp_path, monkeypatch, caplog
):
    secret = "sk-test-0123456789abcdef"
    monkeypatch.setenv("MY_LLM_KEY", secret)
    server.queue(PROSE)
    caplog.set_level(logging.DEBUG)
    res = synth(server, tmp_path, api_key_env="MY_LLM_KEY", max_attempts=1, sandbox=WEAK)
    res = res.synthesize(TASK)
    assert not res.ok
    assert server.requests()[0].headers["authorization"] == f"Bearer {secret}"
    for f in (tmp_path / "cache").rglob("*"):
        if f.is_file():
            assert secret not in f.read_text()
    assert secret not in json.dumps(res.to_dict())
    assert all(secret not in r.getMessage() for r in caplog.records)


def test_the_request_carries_model_temperature_n_and_seed(server, tmp_path):
    server.queue(PROSE, PROSE)
    syn = synth(server, tmp_path, temperature=0.7, n=2, max_attempts=2, sandbox=WEAK)
    res = syn.synthesize(TASK, seed=11)
    assert server.count == 1  # two answers in one request
    body = server.requests()[0].body
    assert (body["model"], body["temperature"], body["n"], body["seed"]) == (
        "test-model",
        0.7,
        2,
        11,
    )
    assert body["messages"] == syn.messages(TASK)
    assert [a["attempt"] for a in res.attempts] == [1, 2]


# --------------------------------------------------------------------------------------------
# Answers validated in the sandbox
# --------------------------------------------------------------------------------------------


@requires_bwrap
def test_a_good_answer_is_accepted_and_recorded(server, tmp_path):
    server.queue(GOOD)
    syn = synth(server, tmp_path)
    res = syn.synthesize(TASK, seed=3)
    assert res.ok and res.reason is None
    assert (res.path, res.model, res.generator_code) == ("llm", "test-model", GOOD_CODE)
    assert len(res.attempts) == 1
    (attempt,) = res.attempts
    assert attempt["attempt"] == 1 and attempt["verdict"] == "ok" and attempt["cached"] is False
    assert attempt["reason"] is None and len(attempt["answer_sha256"]) == 64
    assert any("validated on 3 seeds" in n for n in res.notes)
    assert server.count == 1 and server.requests()[0].messages == syn.messages(TASK)
    cached = list((tmp_path / "cache").rglob("*.json"))
    assert len(cached) == 1 and json.loads(cached[0].read_text())["answers"] == [GOOD]


@requires_bwrap
def test_unusable_answers_are_rejected_with_reasons_and_the_next_one_is_used(server, tmp_path):
    answers = [PROSE, SYNTAX, NO_ENTRY, RAISES, HANGS, ARITY, TYPES, GOOD]
    server.queue(*answers)
    res = synth(server, tmp_path, max_attempts=8, validation_cpu_seconds=0.5).synthesize(TASK)
    assert res.ok and res.generator_code == GOOD_CODE, res.reason
    seed0 = case_seeds(0, 3)[0]
    expected = [
        "no Python code in the answer",
        "syntax error at line 4: ",
        "no top-level function generate_test_case() (found: make_input)",
        f"raised ValueError: boom on seed {seed0}",
        f"timed out on seed {seed0} (over 0.5 s of CPU)",
        f"returned 1 value for 2 parameters (nums, k); return the argument list [nums, k] "
        f"on seed {seed0}",
        f"argument 1 (nums): expected integer[], got str on seed {seed0}",
    ]
    reasons = [a["reason"] for a in res.attempts]
    assert [a["verdict"] for a in res.attempts] == ["rejected"] * 7 + ["ok"]
    for got, want in zip(reasons, expected, strict=False):
        assert got.startswith(want), (got, want)
    # one conversation: each follow-up carries the previous answer and what was wrong with it
    seen = server.requests()
    assert len(seen) == 8
    for i in range(1, 8):
        msgs = seen[i].messages
        assert msgs[: len(seen[i - 1].messages)] == seen[i - 1].messages
        assert msgs[-2] == {"role": "assistant", "content": answers[i - 1]}
        assert reasons[i - 1] in last_user(seen[i])
        assert "generate_test_case()" in last_user(seen[i])


@requires_bwrap
@pytest.mark.parametrize(
    "body,fragment",
    [
        (
            "import random\n\ndef generate_test_case():\n    random.seed(1)\n"
            "    return [[random.randint(1, 9)], 1]\n",
            "calls random.seed",
        ),
        (
            "from random import seed as s\n\ndef generate_test_case():\n    s(1)\n"
            "    return [[1], 1]\n",
            "calls random.seed",
        ),
        (
            "import numpy as np\n\ndef generate_test_case():\n    return [[1], 1]\n",
            "imports numpy, which is not in the Python standard library",
        ),
        (
            "def generate_test_case(n):\n    return [[1] * n, 1]\n",
            "has required parameters (n)",
        ),
        (
            "import random\nR = random.Random()\n\ndef generate_test_case():\n"
            "    return [[R.randint(1, 10**9)], 1]\n",
            "not reproducible",
        ),
        (
            "def generate_test_case():\n    return [list(range(1001)), 1]\n",
            "argument 1 (nums): a list or string of length 1001 is over the size cap of 1000",
        ),
        (
            "def generate_test_case():\n    return [[1, 2], True]\n",
            "argument 2 (k): expected integer, got bool",
        ),
        (
            "def generate_test_case():\n    return {'nums': [1], 'k': 1}\n",
            "returned dict, not the list of 2 arguments [nums, k]",
        ),
        (
            "def generate_test_case():\n    return [[1], object()]\n",
            "not plain data",
        ),
        (
            "x = 1 / 0\n\ndef generate_test_case():\n    return [[1], 1]\n",
            "failed to load: ZeroDivisionError",
        ),
    ],
)
def test_more_rejections(server, tmp_path, body, fragment):
    server.queue(fenced(body))
    res = synth(server, tmp_path, max_attempts=1).synthesize(TASK)
    assert not res.ok and len(res.attempts) == 1
    assert fragment in res.attempts[0]["reason"], res.attempts[0]["reason"]
    assert res.reason == f"no usable generator in 1 attempt: 1: {res.attempts[0]['reason']}"


@requires_bwrap
def test_trees_and_lists_are_checked_in_their_leetcode_form(server, tmp_path):
    task = SynthInput(
        slug="merge",
        title="Merge",
        content_html="<p>Merge a tree into lists.</p>",
        meta={
            "name": "merge",
            "params": [
                {"name": "root", "type": "TreeNode"},
                {"name": "lists", "type": "ListNode[]"},
            ],
            "return": {"type": "ListNode"},
        },
        prompt="class Solution:\n    def merge(self, root, lists): ...",
    )
    bad = "def generate_test_case():\n    return [[None, 1], [[1, 2]]]\n"
    good = "def generate_test_case():\n    return [[1, None, 2], [[1, 4], [], [2]]]\n"
    server.queue(fenced(bad), fenced(good))
    res = synth(server, tmp_path).synthesize(task)
    assert res.ok, res.reason
    assert "argument 1 (root): expected TreeNode" in res.attempts[0]["reason"]
    text = server.requests()[0].messages[1]["content"]
    assert "`root`: LeetCode type `TreeNode`, given as a level-order list" in text
    assert "`lists`: LeetCode type `ListNode[]`" in text


@requires_bwrap
def test_n_answers_per_request(server, tmp_path):
    server.queue(PROSE, GOOD)
    res = synth(server, tmp_path, n=2).synthesize(TASK)
    assert res.ok and server.count == 1
    assert [(a["attempt"], a["verdict"]) for a in res.attempts] == [(1, "rejected"), (2, "ok")]


@requires_bwrap
def test_429_then_success(server, tmp_path):
    server.queue(Status(429, retry_after="0.01"), GOOD)
    res = synth(server, tmp_path, max_retries=2).synthesize(TASK)
    assert res.ok, res.reason
    assert [s.status for s in server.requests()] == [429, 200]


@requires_bwrap
def test_the_cache_replays_answers_without_the_endpoint(server, tmp_path):
    cache = tmp_path / "shared-cache"
    server.queue(PROSE, GOOD)
    first = synth(server, tmp_path, cache_dir=cache).synthesize(TASK, seed=5)
    assert first.ok and server.count == 2
    files = sorted(cache.rglob("*.json"))
    assert len(files) == 2 and not list(cache.rglob("*.tmp"))

    # the same requests from a new synthesizer (another endpoint URL, even): zero requests
    with OpenAIServer() as other:
        again = synth(other, tmp_path, cache_dir=cache).synthesize(TASK, seed=5)
        assert other.count == 0
    assert again.ok and again.generator_code == first.generator_code
    assert [a["cached"] for a in again.attempts] == [True, True]
    assert [a["answer_sha256"] for a in again.attempts] == [
        a["answer_sha256"] for a in first.attempts
    ]

    # what shapes the answer is in the key: temperature, model, seed
    server.reset()
    server.queue(GOOD, GOOD, GOOD)
    assert synth(server, tmp_path, cache_dir=cache, temperature=0.9).synthesize(TASK, seed=5).ok
    assert server.count == 1
    assert synth(server, tmp_path, cache_dir=cache, model="other-model").synthesize(TASK, seed=5).ok
    assert server.count == 2
    assert server.requests()[-1].body["model"] == "other-model"
    assert synth(server, tmp_path, cache_dir=cache).synthesize(TASK, seed=6).ok
    assert server.count == 3


@requires_bwrap
def test_a_cached_answer_is_validated_again(server, tmp_path):
    """A cache entry edited (or written by an older validator) is judged, not trusted."""
    cache = tmp_path / "cache"
    server.queue(GOOD)
    assert synth(server, tmp_path).synthesize(TASK).ok
    (entry,) = cache.rglob("*.json")
    data = json.loads(entry.read_text())
    data["answers"] = [TYPES]
    entry.write_text(json.dumps(data))
    server.queue(GOOD)
    res = synth(server, tmp_path).synthesize(TASK)
    assert res.ok and server.count == 2  # the follow-up after the rejected cached answer
    assert res.attempts[0]["cached"] is True and res.attempts[0]["verdict"] == "rejected"
    assert res.attempts[1]["cached"] is False

    entry.write_text("{not json")  # an unreadable entry is a miss, with a warning
    server.queue(GOOD)
    assert synth(server, tmp_path).synthesize(TASK).ok and server.count == 3
