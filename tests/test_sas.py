"""SaS: parsing messy LLM answers, dedup, the offline perf synthesizer, and the LLM path against a
scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import requires_bwrap
from openai_server import Choices, OpenAIServer, Raw, Status
from pydantic import ValidationError

from quicksilver.config import NOT_CONFIGURED, LLMConfig, SaSSection
from quicksilver.dpe.llm_answers import normalise_for_dedup
from quicksilver.dpe.sas import (
    OFFLINE_PERF_SYNTHESIZER,
    SAS_ENTRY,
    PerfGenerator,
    SaSResult,
    SaSSynthesizer,
    offline_sas,
    parse_sas_answer,
)
from quicksilver.execute import run_generator
from quicksilver.sources.snapshot import SnapshotFile, load_snapshot_dir
from quicksilver.synth import SynthInput
from quicksilver.synth.offline import (
    PERF_SPEC_CAP,
    build_spec,
    sample_spec,
    synthesize_offline,
    synthesize_offline_perf,
)

BUNDLED = Path(__file__).resolve().parents[1] / "data" / "snapshot" / "bundled"
SCALES = [2**e for e in range(1, 13)]

GEN = (
    "import random\n\n\n"
    "def perf_input_gen(scale: int):\n"
    "    n = min(scale, 10**5)\n"
    "    return ([random.randint(-10**9, 10**9) for _ in range(n)], 10**9)\n"
)


def fenced(body: str, lang: str = "python") -> str:
    return f"```{lang}\n{body}```\n"


# --------------------------------------------------------------------------------------------
# parse_sas_answer
# --------------------------------------------------------------------------------------------

COT = (
    " a list of ints `nums` and an int `k`.\n2. Is this task O(1) solvable? No\n"
    "3. Time complexity: O(n)\n4. Space complexity: O(n)\n"
    "5. What kind of input can exercise its performance? A long list.\n\n"
)


@pytest.mark.parametrize(
    "answer",
    [
        COT + fenced(GEN),  # the expected shape: analysis, then one block
        COT + fenced(GEN, "py"),
        COT + fenced(GEN, "python3"),
        COT + fenced(GEN, ""),  # an unlabeled fence
        COT + fenced(GEN, "Python"),
        # two blocks: a usage example first, the generator second
        COT + fenced("print(perf_input_gen(8))\n") + "And the generator:\n" + fenced(GEN),
        # a JSON sample input, then the generator
        COT + fenced("[[1, 2, 3], 5]\n", "json") + fenced(GEN),
        # an earlier draft (no parse) then the revised generator
        COT + fenced("def perf_input_gen(scale):\n    return (\n") + "Fixed:\n" + fenced(GEN),
        # indented in a numbered list
        COT + "6. Code:\n\n" + "\n".join("   " + ln for ln in fenced(GEN).splitlines()) + "\n",
    ],
)
def test_the_generator_block_is_found(answer: str) -> None:
    code, category, detail = parse_sas_answer(answer)
    assert (code, category) == (GEN, "ok"), detail
    assert "perf_input_gen" in detail


def test_raw_code_without_fences_drops_the_prose_around_it() -> None:
    answer = COT + "Here is the generator:\n" + GEN + "\nThis grows linearly with scale."
    code, category, _ = parse_sas_answer(answer)
    assert category == "ok" and code == GEN.rstrip() + "\n"


def test_two_defining_blocks_the_last_that_parses_wins() -> None:
    first = "def perf_input_gen(scale):\n    return ([1] * scale, 1)\n"
    code, category, _ = parse_sas_answer(fenced(first) + "Better:\n" + fenced(GEN))
    assert category == "ok" and code == GEN
    code, category, _ = parse_sas_answer(
        fenced(GEN) + "Broken edit:\n" + fenced("def perf_input_gen(s:\n")
    )
    assert category == "ok" and code == GEN


@pytest.mark.parametrize(
    "answer,category,fragment",
    [
        (None, "empty-answer", "empty"),
        ("", "empty-answer", "empty"),
        ("  \n\t", "empty-answer", "empty"),
        (" two integers `x` and `y`.\n2. Is this task O(1) solvable? Yes\n", "o1-solvable", "O(1)"),
        (" one int.\n2. Is this task O(1) solvable? **Yes**.", "o1-solvable", "O(1)"),
        (
            " one int.\n2. Is this task O(1) solvable? Yes\n\n"
            + fenced("def f(x):\n    return x\n"),
            "o1-solvable",
            "O(1)",
        ),
        (COT, "no-code", "analysis ends without"),
        ("Draw random integers for nums and pick k.", "no-code", "no Python code"),
        (
            COT + "```python\nimport random\n\ndef perf_input_gen(scale):\n    n = ",
            "truncated",
            "cut off",
        ),
        (
            COT + "```python\nimport random\n\ndef perf_input_gen(scale):\n    n = scale\n",
            "truncated",
            "cut off",
        ),
        (COT + "```python\n", "truncated", "opening code fence"),
        (
            COT + fenced("def perf_input_gen():\n    return ([1] * 10, 1)\n"),
            "wrong-signature",
            "takes no parameter",
        ),
        (
            COT + fenced("def perf_input_gen(scale, n):\n    return ([1] * n, scale)\n"),
            "wrong-signature",
            "2 required parameters (scale, n)",
        ),
        (
            COT + fenced("def perf_input_gen(scale, *, seed):\n    return ([1], 1)\n"),
            "wrong-signature",
            "keyword-only",
        ),
        (
            COT + fenced("async def perf_input_gen(scale):\n    return ([1], 1)\n"),
            "wrong-signature",
            "async",
        ),
        (
            COT + fenced("def perf_input_gen(scale):\n    return ([1] * scale, 1\n"),
            "syntax-error",
            "syntax error at line 2",
        ),
        (
            COT
            + fenced(
                "import random\n\ndef perf_input_gen(scale):\n    random.seed(0)\n    return ([1], 1)\n"
            ),
            "seeds-random",
            "random.seed",
        ),
        (
            COT
            + fenced(
                "from random import seed as s\n\ndef perf_input_gen(scale):\n    s(1)\n    return ([1], 1)\n"
            ),
            "seeds-random",
            "random.seed",
        ),
        (
            COT
            + fenced(
                "import random\nR = random.Random(42)\n\ndef perf_input_gen(scale):\n    return ([R.random()], 1)\n"
            ),
            "seeds-random",
            "random.Random",
        ),
        (
            COT
            + fenced(
                "import numpy as np\n\ndef perf_input_gen(scale):\n    return (list(np.arange(scale)), 1)\n"
            ),
            "non-stdlib-import",
            "numpy",
        ),
        (
            COT + fenced("def make_input(scale):\n    return ([1] * scale, 1)\n"),
            "no-perf_input_gen",
            "found: make_input",
        ),
        (
            COT
            + fenced("class Gen:\n    def perf_input_gen(self, scale):\n        return ([1], 1)\n"),
            "no-perf_input_gen",
            "no top-level function perf_input_gen",
        ),
    ],
)
def test_unusable_answers_get_a_category_and_a_detail(
    answer: str | None, category: str, fragment: str
) -> None:
    code, got, detail = parse_sas_answer(answer)
    assert code is None
    assert got == category, (got, detail)
    assert fragment in detail, detail


@pytest.mark.parametrize(
    "signature",
    ["scale", "scale: int", "scale=10", "scale, extra=1", "*args", "scale, /", "n"],
)
def test_signatures_callable_with_one_argument_are_accepted(signature: str) -> None:
    code = f"def perf_input_gen({signature}):\n    return ([1], 1)\n"
    got, category, _ = parse_sas_answer(fenced(code))
    assert (got, category) == (code, "ok")


# --------------------------------------------------------------------------------------------
# Dedup
# --------------------------------------------------------------------------------------------


def test_comments_blank_lines_and_trailing_spaces_do_not_make_a_new_generator() -> None:
    a = (
        "import random\n\n\n"
        "def perf_input_gen(scale: int):\n"
        '    """A long list."""\n'
        "    n = min(scale, 10**5)\n"
        "    return ([random.randint(0, 9) for _ in range(n)],)\n"
    )
    b = (
        "# generator for the task\nimport random   \n"
        "def perf_input_gen(scale: int):  # scale grows\n"
        '    """A long list."""\n\n'
        "    # the length follows scale\n"
        "    n = min(scale, 10**5)\n\n\n"
        "    return ([random.randint(0, 9) for _ in range(n)],)   # done\n"
    )
    assert normalise_for_dedup(a) == normalise_for_dedup(b)
    assert normalise_for_dedup(a).splitlines() == [
        "import random",
        "def perf_input_gen(scale: int):",
        '    """A long list."""',
        "    n = min(scale, 10**5)",
        "    return ([random.randint(0, 9) for _ in range(n)],)",
    ]
    other_doc = a.replace('"""A long list."""', '"""A very long list."""')
    assert normalise_for_dedup(other_doc) != normalise_for_dedup(a)  # docstrings are kept
    other_value = a.replace("randint(0, 9)", "randint(0, 8)")
    assert normalise_for_dedup(other_value) != normalise_for_dedup(a)
    hashes = "def perf_input_gen(scale):\n    return ('#' * scale,)  # x\n"
    assert normalise_for_dedup(hashes) == "def perf_input_gen(scale):\n    return ('#' * scale,)"


# --------------------------------------------------------------------------------------------
# The offline perf synthesizer (perf mode of quicksilver.synth.offline)
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus() -> dict[str, SnapshotFile]:
    loaded = load_snapshot_dir(BUNDLED)
    assert loaded.rejects == []
    return {s.slug: s for s in loaded.files}


def synth_input(snap: SnapshotFile) -> SynthInput:
    q = snap.question
    return SynthInput(
        slug=snap.slug,
        title=q.title,
        content_html=q.content or "",
        meta=q.meta(),
        prompt=q.python3_snippet() or "",
    )


def load_perf(code: str) -> dict[str, Any]:
    ns: dict[str, Any] = {}
    exec(compile(code, "<perf generator>", "exec"), ns)
    return ns


def perf(ns: dict[str, Any], scale: int, seed: int = 0) -> list[Any]:
    random.seed(seed)
    return ns[SAS_ENTRY](scale)


def tree_nodes(level_order: list[Any]) -> int:
    return sum(v is not None for v in level_order)


def total(value: Any) -> int:
    """Lengths summed over every nested list / string."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        return len(value) + sum(total(v) for v in value if isinstance(v, list | str))
    return 0


# slug -> (the size of each argument we follow, the stated maximum of each)
SIZES: dict[str, tuple[Any, list[int]]] = {
    "best-single-trade": (lambda prices: [len(prices)], [10**4]),
    "rain-capacity": (lambda h: [len(h)], [10**4]),
    "longest-distinct-run": (lambda s: [len(s)], [5 * 10**4]),
    "is-search-tree": (lambda root: [tree_nodes(root)], [10**4]),
    "cluster-anagrams": (lambda words: [len(words), max(map(len, words))], [10**4, 100]),
    "merge-many-chains": (
        lambda lists: [len(lists), max(map(len, lists)), sum(map(len, lists))],
        [1000, 500, 5 * 10**4],
    ),
    "fewest-coins": (lambda coins, amount: [len(coins), amount], [12, 10**4]),
    "floor-square-root": (lambda x: [x], [2**31 - 1]),
    "two-sorted-median": (
        lambda a, b: [len(a), len(b), len(a) + len(b)],
        [10**5, 10**5, 2 * 10**5],
    ),
    "count-islands": (lambda grid: [len(grid), len(grid[0])], [300, 300]),
    "window-maxima": (lambda nums, k: [len(nums)], [3 * 10**4]),
}


@pytest.mark.parametrize("slug", sorted(SIZES))
def test_perf_sizes_grow_with_scale_within_the_stated_maxima(
    corpus: dict[str, SnapshotFile], slug: str
) -> None:
    res = synthesize_offline_perf(synth_input(corpus[slug]))
    assert res.ok and res.path == "offline" and res.model == OFFLINE_PERF_SYNTHESIZER, res.reason
    ns = load_perf(res.generator_code or "")
    measure, maxima = SIZES[slug]
    previous: list[int] | None = None
    for scale in [*SCALES, 2**16]:
        args = perf(ns, scale)
        sizes = measure(*args)
        assert all(s <= m for s, m in zip(sizes, maxima, strict=True)), (scale, sizes, maxima)
        # the first size is a length or count: exactly min(stated max, scale)
        assert sizes[0] == min(maxima[0], scale), (scale, sizes)
        if previous is not None:
            assert all(a <= b for a, b in zip(previous, sizes, strict=True)), (previous, sizes)
        previous = sizes


def test_perf_respects_values_and_reaches_the_uncapped_maximum(
    corpus: dict[str, SnapshotFile],
) -> None:
    ns = load_perf(synthesize_offline_perf(synth_input(corpus["best-single-trade"])).generator_code)
    for scale in (5000, 10**4, 10**4 + 1, 10**6):
        (prices,) = perf(ns, scale, seed=scale)
        assert len(prices) == min(scale, 10**4)  # never above 10^4, not capped at Mercury's 1000
        assert all(isinstance(p, int) and 0 <= p <= 10**4 for p in prices)
    ns = load_perf(synthesize_offline_perf(synth_input(corpus["shift-right"])).generator_code)
    nums, k = perf(ns, 2**20)
    assert len(nums) == 10**5 and k == 10**5  # k in [0, 10^5]: magnitude-like, grows too
    assert all(-(2**31) <= x <= 2**31 - 1 for x in nums)


def test_perf_is_deterministic_per_seed_and_random_across_seeds(
    corpus: dict[str, SnapshotFile],
) -> None:
    inp = synth_input(corpus["rain-capacity"])
    code = synthesize_offline_perf(inp).generator_code or ""
    a, b = load_perf(code), load_perf(code)
    for scale in (2, 64, 4096):
        assert perf(a, scale, seed=7) == perf(b, scale, seed=7)
        assert perf(a, scale, seed=7) == perf(a, scale, seed=7)
    assert perf(a, 4096, seed=7) != perf(a, 4096, seed=8)  # values stay random
    assert len(perf(a, 4096, seed=7)[0]) == len(perf(a, 4096, seed=8)[0]) == 4096
    # the in-process runtime in "max" mode is the same program
    spec = build_spec(inp, size_cap=PERF_SPEC_CAP).spec
    assert spec is not None
    assert sample_spec(spec, 7, 4096, mode="max") == perf(a, 4096, seed=7)
    with pytest.raises(ValueError):
        sample_spec(spec, 7, 10, mode="largest")


def test_the_perf_file_keeps_generate_test_case_unchanged(corpus: dict[str, SnapshotFile]) -> None:
    inp = synth_input(corpus["best-single-trade"])
    res = synthesize_offline_perf(inp)
    code = res.generator_code or ""
    head = " ".join(ln.removeprefix("# ") for ln in code.splitlines()[:2])
    assert head == (
        "Performance-input generator perf_input_gen(scale) written by "
        "quicksilver-offline-perf-synth/1, the offline perf synthesizer (no LLM)."
    )
    assert "min(stated max, scale)" in code and "Sampling policy:" in code
    assert "prices.length in [1, 10^4], min(its max, scale)" in code
    assert "4611686018427387904" not in code  # the spec cap is never written
    mercury = load_perf(synthesize_offline(inp).generator_code or "")
    ns = load_perf(code)
    perf(ns, 10**4)  # perf mode is switched off again after the call
    for seed in (1, 2, 3):
        random.seed(seed)
        mine = ns["generate_test_case"]()
        random.seed(seed)
        assert mine == mercury["generate_test_case"]()
        assert len(mine[0]) <= 1000
    assert ns["_SIZE_MODE"] == "random"


def test_perf_mode_does_not_change_the_test_input_generator(
    corpus: dict[str, SnapshotFile],
) -> None:
    """Every bundled question: the same spec, and the test generator draws as before."""
    for slug, snap in corpus.items():
        inp = synth_input(snap)
        base = build_spec(inp)
        if base.spec is None:
            continue
        assert build_spec(inp, size_cap=PERF_SPEC_CAP).spec == base.spec, slug
        ns = load_perf(synthesize_offline(inp).generator_code or "")
        random.seed(11)
        assert ns["generate_test_case"]() == sample_spec(base.spec, 11), slug


def test_perf_reports_what_it_cannot_satisfy(corpus: dict[str, SnapshotFile]) -> None:
    res = synthesize_offline_perf(synth_input(corpus["dominant-element"]))
    assert not res.ok and res.needs_llm and res.model == OFFLINE_PERF_SYNTHESIZER
    assert "The input is generated such that a dominant value always exists." in (res.reason or "")


@requires_bwrap
def test_perf_generator_in_the_sandbox(corpus: dict[str, SnapshotFile]) -> None:
    res = synthesize_offline_perf(synth_input(corpus["is-search-tree"]))
    code = res.generator_code or ""
    sizes = []
    for scale in (16, 1024, 2**14):
        batch = run_generator(code, seeds=[3, 3], entry=SAS_ENTRY, args=[scale], cpu_seconds=10)
        assert batch.ok, batch.first_error()
        first, again = (o.value for o in batch.outcomes)
        assert first == again
        sizes.append(tree_nodes(first[0]))
    assert sizes == [16, 1024, 10**4]


# --------------------------------------------------------------------------------------------
# offline_sas
# --------------------------------------------------------------------------------------------


def test_offline_sas_writes_one_generator(corpus: dict[str, SnapshotFile]) -> None:
    for slug in ("best-single-trade", "rain-capacity"):
        res = offline_sas(synth_input(corpus[slug]))
        assert res.ok and res.reason is None and not res.needs_llm and res.rejected == []
        (gen,) = res.generators
        assert (gen.slug, gen.index, gen.path, gen.model, gen.answer_index) == (
            slug,
            0,
            "offline",
            OFFLINE_PERF_SYNTHESIZER,
            None,
        )
        assert parse_sas_answer(fenced(gen.code))[1] == "ok"  # it passes the LLM path's checks
        assert len(perf(load_perf(gen.code), 300)[0]) == 300
        assert any("10^4" in n for n in gen.notes)
        data = res.to_dict()
        assert json.loads(json.dumps(data)) == data
        assert data["generators"][0]["model"] == OFFLINE_PERF_SYNTHESIZER


def test_offline_sas_reports_a_task_it_cannot_handle(corpus: dict[str, SnapshotFile]) -> None:
    res = offline_sas(synth_input(corpus["pair-sum-indices"]))
    assert not res.ok and res.generators == [] and res.needs_llm
    assert res.reason is not None and res.reason.startswith("the offline synthesizer cannot")
    assert "Exactly one pair of positions adds up to target." in res.reason
    graph = offline_sas(synth_input(corpus["clone-chain-with-jumps"]))
    assert graph.needs_llm and "Node" in (graph.reason or "")


# --------------------------------------------------------------------------------------------
# The LLM path
# --------------------------------------------------------------------------------------------

STATEMENT = (
    "<p>Given an integer array <code>nums</code> and an integer <code>k</code>, return "
    "<em>the number of pairs</em> <code>(i, j)</code> with <code>i &lt; j</code> and "
    "<code>nums[i] + nums[j] == k</code>.</p>\n\n"
    "<p><strong>Constraints:</strong></p>\n<ul>\n"
    "\t<li><code>1 &lt;= nums.length &lt;= 10<sup>5</sup></code></li>\n"
    "\t<li><code>-10<sup>9</sup> &lt;= nums[i] &lt;= 10<sup>9</sup></code></li>\n"
    "\t<li><code>1 &lt;= k &lt;= 10<sup>9</sup></code></li>\n</ul>\n"
)
STARTER = "class Solution:\n    def countPairs(self, nums: List[int], k: int) -> int:\n        "
REFERENCE = (
    "class Solution:\n    def countPairs(self, nums: List[int], k: int) -> int:\n"
    "        return sum(nums[i] + nums[j] == k for i in range(len(nums))"
    " for j in range(i + 1, len(nums)))\n"
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
)

GEN2 = (
    "import random\n\n\ndef perf_input_gen(scale: int):\n"
    "    n = min(scale, 10**5)\n"
    "    return ([random.choice((1, 2)) for _ in range(n)], 3)\n"
)
GEN2_COMMENTED = "# all pairs qualify\n" + GEN2.replace("    n =", "    # length\n    n =")


@pytest.fixture
def server():
    with OpenAIServer() as s:
        yield s


@pytest.fixture(autouse=True)
def _no_llm_env(monkeypatch):
    for var in ("QUICKSILVER_LLM_BASE_URL", "OPENAI_BASE_URL", "QUICKSILVER_LLM_MODEL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def sas(server: OpenAIServer, tmp_path: Path, **overrides: Any) -> SaSSynthesizer:
    llm = {
        "base_url": server.url,
        "model": "test-model",
        "max_retries": 0,
        "request_timeout_s": 5.0,
    }
    llm.update(overrides.pop("llm", {}))
    fields: dict[str, Any] = {"n": 4, "cache_dir": str(tmp_path / "cache")}
    fields.update(overrides)
    return SaSSynthesizer(SaSSection(llm=LLMConfig(**llm), **fields))


def test_config_defaults() -> None:
    cfg = SaSSection()
    assert (cfg.n, cfg.temperature, cfg.max_tokens, cfg.prompt_template, cfg.cache_dir) == (
        16,
        0.8,
        2048,
        "sas.j2",
        Path("data/cache/llm"),
    )
    with pytest.raises(ValidationError):
        SaSSection(samples=3)  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        SaSSection(n=0)
    with pytest.raises(ValidationError):
        cfg.n = 3  # type: ignore[misc]


def test_not_configured_and_no_reference_are_reasons(server, tmp_path) -> None:
    res = SaSSynthesizer(SaSSection(cache_dir=str(tmp_path))).synthesize(TASK, REFERENCE)
    assert not res.ok and res.reason == NOT_CONFIGURED and not res.needs_llm
    res = sas(server, tmp_path).synthesize(TASK, "  ")
    assert res.reason == "count-pairs: no ground-truth solution to put in the SaS prompt"
    assert server.count == 0


def test_the_prompt_has_both_worked_examples_and_the_target(tmp_path) -> None:
    syn = SaSSynthesizer(
        SaSSection(llm=LLMConfig(base_url="http://unused/v1", model="m"), cache_dir=str(tmp_path))
    )
    system, user = syn.messages(TASK, REFERENCE)
    assert system["role"] == "system" and user["role"] == "user"
    text = user["content"]
    assert text.startswith(
        "Produce a self-contained Python function to generate a large input for a given "
        "function, to test its performance at scale."
    )
    # worked example 1: add(x, y), the analysis stops at "O(1) solvable? Yes" with no code
    add_start = text.index("def add(x: int, y: int) -> int:")
    prime_start = text.index("def prime_num(num: int) -> bool:")
    add_part = text[add_start : text.rindex("### Instruction", 0, prime_start)]
    assert "2. Is this task O(1) solvable? Yes\n" in add_part
    assert "perf_input_gen" not in add_part
    # worked example 2: prime_num, the five points, then a python block with perf_input_gen
    target_start = text.index("### Instruction", prime_start)
    prime_part = text[prime_start:target_start]
    points = [
        "1. Input format:",
        "2. Is this task O(1) solvable? No",
        "3. Time complexity:",
        "4. Space complexity:",
        "5. What kind of input can exercise its performance?",
        "```python\ndef perf_input_gen(scale: int):",
        "    return (num,)\n```",
    ]
    positions = [prime_part.index(p) for p in points]
    assert positions == sorted(positions)
    # the target task: statement, constraints, signature, entry point, types, ground truth
    target = text[target_start:]
    assert "Count Pairs" in target and "return the number of pairs (i, j)" in target
    for c in ("1 <= nums.length <= 10^5", "-10^9 <= nums[i] <= 10^9", "1 <= k <= 10^9"):
        assert c in target
    assert STARTER.strip() in target and REFERENCE.strip() in target
    assert "Entry point: `countPairs`" in target and "`(nums, k)`" in target
    assert (
        "`nums`: LeetCode type `integer[]`" in target and "`k`: LeetCode type `integer`" in target
    )
    # rules the generator must follow
    for rule in ("random.seed", "standard library", "as a tuple", "level-order", "None"):
        assert rule in text
    # the response is pre-filled up to the analysis
    assert text.endswith("### Response\n\nAnalysis:\n1. Input format:\n")
    assert "<code>" not in text and "&lt;" not in text


def test_n_answers_are_parsed_deduplicated_and_recorded(server, tmp_path) -> None:
    answers = [
        COT + fenced(GEN2),
        " two ints.\n2. Is this task O(1) solvable? Yes",
        COT + fenced(GEN2_COMMENTED),  # the first one with comments: a duplicate
        COT + fenced("def perf_input_gen():\n    return ([1], 1)\n"),
        "",
        COT + fenced(GEN),
    ]
    server.queue(*answers)
    syn = sas(server, tmp_path, n=6, temperature=0.7, max_tokens=900)
    res = syn.synthesize(TASK, REFERENCE, seed=5)
    assert server.count == 1
    body = server.requests()[0].body
    assert (body["model"], body["temperature"], body["n"], body["max_tokens"], body["seed"]) == (
        "test-model",
        0.7,
        6,
        900,
        5,
    )
    assert body["messages"] == syn.messages(TASK, REFERENCE)
    assert res.ok and res.reason is None and not res.needs_llm
    assert [(g.index, g.answer_index, g.code) for g in res.generators] == [
        (0, 0, GEN2),
        (1, 5, GEN),
    ]
    for g in res.generators:
        assert (g.slug, g.path, g.model) == ("count-pairs", "llm", "test-model")
        assert any("temperature 0.7" in n for n in g.notes)
    assert [(r["answer"], r["reason"]) for r in res.rejected] == [
        (1, "o1-solvable"),
        (2, "duplicate"),
        (3, "wrong-signature"),
        (4, "empty-answer"),
    ]
    for r in res.rejected:
        assert r["detail"].startswith(f"count-pairs: answer {r['answer']}: ")
    assert "the same generator as answer 0" in res.rejected[1]["detail"]
    data = res.to_dict()
    assert json.loads(json.dumps(data)) == data and len(data["generators"]) == 2


def test_a_server_that_returns_fewer_choices_is_asked_again(server, tmp_path) -> None:
    server.queue(Choices([COT + fenced(GEN)]), Choices([COT + fenced(GEN2), "", COT]))
    res = sas(server, tmp_path, n=4).synthesize(TASK, REFERENCE, seed=1)
    asked = [s.body["n"] for s in server.requests()]
    seeds = [s.body["seed"] for s in server.requests()]
    assert asked == [4, 3] and seeds == [1, 2]
    assert [g.answer_index for g in res.generators] == [0, 1]
    assert [(r["answer"], r["reason"]) for r in res.rejected] == [
        (2, "empty-answer"),
        (3, "no-code"),
    ]


def test_all_answers_rejected_gives_a_summary_reason(server, tmp_path) -> None:
    server.queue("no idea", "", "Is this task O(1) solvable? Yes")
    res = sas(server, tmp_path, n=3).synthesize(TASK, REFERENCE)
    assert not res.ok
    assert res.reason is not None and res.reason.startswith(
        "count-pairs: no usable perf_input_gen in 3 answers ("
    )
    for part in ("1 no-code", "1 empty-answer", "1 o1-solvable"):
        assert part in res.reason


def test_a_truncated_answer_is_named_so(server, tmp_path) -> None:
    cut = COT + "```python\nimport random\n\ndef perf_input_gen(scale):\n    return ([random"
    server.queue(Choices([cut], finish_reason="length"))
    res = sas(server, tmp_path, n=1, max_tokens=64).synthesize(TASK, REFERENCE)
    assert [r["reason"] for r in res.rejected] == ["truncated"]
    assert "stopped at max_tokens=64" in res.rejected[0]["detail"]


def test_500_then_success(server, tmp_path) -> None:
    server.queue(Status(500, retry_after="0.01"), COT + fenced(GEN), COT + fenced(GEN2))
    res = sas(server, tmp_path, n=2, llm={"max_retries": 2}).synthesize(TASK, REFERENCE)
    assert [s.status for s in server.requests()] == [500, 200]
    assert [g.code for g in res.generators] == [GEN, GEN2] and res.rejected == []


def test_persistent_429_ends_with_a_clear_reason(server, tmp_path) -> None:
    server.always(Status(429, retry_after="0.01"))
    res = sas(server, tmp_path, llm={"max_retries": 1}).synthesize(TASK, REFERENCE)
    assert not res.ok and server.count == 2  # the request and the client's one retry
    assert res.reason == (
        "count-pairs: the LLM endpoint failed: HTTP 429: scripted error (after 1 retry)"
    )
    assert res.rejected == [
        {
            "answer": 0,
            "reason": "endpoint-error",
            "detail": "count-pairs: answers 0..3 were not received: the LLM endpoint failed: "
            "HTTP 429: scripted error (after 1 retry)",
        }
    ]
    assert not list((tmp_path / "cache").rglob("*.json"))


@pytest.mark.parametrize(
    "item,fragment",
    [
        (Raw(b'{"id": "x", "choi'), "malformed response"),
        (Raw(b"{}"), "malformed response"),
        (Choices([]), "no choices"),
        (Status(401), "HTTP 401"),
    ],
)
def test_bad_responses_never_crash(server, tmp_path, item, fragment) -> None:
    server.queue(item)
    res = sas(server, tmp_path).synthesize(TASK, REFERENCE)
    assert not res.ok and fragment in (res.reason or "")
    assert res.rejected[-1]["reason"] == "endpoint-error"


def test_a_failure_after_some_answers_keeps_them(server, tmp_path) -> None:
    server.queue(Choices([COT + fenced(GEN), COT + fenced(GEN2)]), Status(500))
    res = sas(server, tmp_path, n=4).synthesize(TASK, REFERENCE)
    assert [g.answer_index for g in res.generators] == [0, 1] and res.reason is None
    (failure,) = res.rejected
    assert failure["answer"] == 2 and failure["reason"] == "endpoint-error"
    assert "answers 2..3 were not received" in failure["detail"] and "HTTP 500" in failure["detail"]


def test_the_cache_replays_answers_without_a_request(server, tmp_path) -> None:
    server.queue(COT + fenced(GEN), COT + fenced(GEN2), "", COT)
    first = sas(server, tmp_path).synthesize(TASK, REFERENCE)
    assert server.count == 1 and len(first.generators) == 2
    (entry,) = (tmp_path / "cache").rglob("*.json")
    cached = json.loads(entry.read_text())
    assert cached["format"] == "quicksilver-dpe-answer/1" and cached["kind"] == "sas"
    assert cached["answers"][0] == COT + fenced(GEN) and cached["n"] == 4

    with OpenAIServer() as other:  # another endpoint URL, the same model: zero requests
        again = sas(other, tmp_path).synthesize(TASK, REFERENCE)
        assert other.count == 0
    assert [g.code for g in again.generators] == [g.code for g in first.generators]
    assert again.rejected == first.rejected
    assert all("replayed from the answer cache" in g.notes for g in again.generators)

    # what shapes the answers is in the key: temperature, the reference, the seed
    server.reset()
    server.always(COT + fenced(GEN))
    sas(server, tmp_path, temperature=0.3).synthesize(TASK, REFERENCE)
    assert server.count == 1
    sas(server, tmp_path).synthesize(TASK, REFERENCE + "# v2\n")
    assert server.count == 2
    sas(server, tmp_path).synthesize(TASK, REFERENCE, seed=9)
    assert server.count == 3


def test_result_dataclasses_serialise() -> None:
    gen = PerfGenerator("s", 0, "llm", "m", "code", ["n"], 3)
    res = SaSResult("s", [gen], [{"answer": 1, "reason": "no-code", "detail": "s: answer 1"}])
    assert res.to_dict() == {
        "slug": "s",
        "generators": [
            {
                "slug": "s",
                "index": 0,
                "path": "llm",
                "model": "m",
                "code": "code",
                "notes": ["n"],
                "answer_index": 3,
            }
        ],
        "rejected": [{"answer": 1, "reason": "no-code", "detail": "s: answer 1"}],
        "reason": None,
        "needs_llm": False,
    }
