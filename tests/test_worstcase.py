"""The offline worst-case input search: structured variants (units, in-process on specs) and the
search in the sandbox on a naive quicksort (quicksilver/dpe/worstcase.py, docs/sas.md)."""

from __future__ import annotations

import math

import pytest

from quicksilver.config import SamplingSection, WorstCaseSection
from quicksilver.dpe.sampling import Target, sample_generator
from quicksilver.dpe.sas import offline_sas
from quicksilver.dpe.worstcase import RANDOM, search_worst_case, searchable
from quicksilver.execute import run_generator
from quicksilver.synth import SynthInput
from quicksilver.synth.offline.runtime import perf_variants, sample_spec
from tests.conftest import quick_sandbox

# ------------------------------------------------------------------------------- specs


def _q(name: str, size: bool, lo: object, hi: object) -> dict:
    return {
        "name": name,
        "label": name,
        "size": size,
        "bounds": [
            {"coef": 1, "rest": lo if isinstance(lo, dict) else -lo, "text": "lo"},
            {"coef": -1, "rest": hi, "text": "hi"},
        ],
    }


def _list(name: str, q: str, leaf: dict, *, sorted_: str | None = None, distinct: bool = False):
    return {
        "name": name,
        "type": "integer[]",
        "kind": "list",
        "dims": [{"q": q}],
        "leaf": leaf,
        "join": False,
        "sorted": sorted_,
        "distinct": {"level": "value", "scope": "all"} if distinct else None,
    }


INTS = {"type": "int", "lo": [-1000], "hi": [1000]}
# 1 <= nums.length <= 10^5, -1000 <= nums[i] <= 1000, 1 <= k <= nums.length
WINDOW = {
    "quantities": [
        _q("nums.length", True, 1, 10**5),
        {
            "name": "k",
            "label": "k",
            "size": False,
            "bounds": [
                {"coef": 1, "rest": -1, "text": "1 <= k"},
                {"coef": -1, "rest": {"const": 0, "terms": {"nums.length": 1}}, "text": "k <= n"},
            ],
        },
    ],
    "params": [
        _list("nums", "nums.length", INTS),
        {"name": "k", "type": "integer", "kind": "quantity", "q": "k"},
    ],
}
DISTINCT = {
    "quantities": [_q("nums.length", True, 1, 500)],
    "params": [_list("nums", "nums.length", INTS, distinct=True)],
}
SORTED = {
    "quantities": [_q("nums.length", True, 1, 500)],
    "params": [_list("nums", "nums.length", INTS, sorted_="asc")],
}
TREE = {
    "quantities": [_q("root.nodes", True, 1, 10**4)],
    "params": [
        {
            "name": "root",
            "type": "TreeNode",
            "kind": "tree",
            "dims": [{"q": "root.nodes"}],
            "leaf": {"type": "int", "lo": [0], "hi": [100]},
            "join": False,
            "sorted": None,
            "distinct": None,
        }
    ],
}


def _variant(spec: dict, label: str) -> dict:
    found = [v for v in perf_variants(spec) if v["label"] == label]
    assert len(found) == 1, [v["label"] for v in perf_variants(spec)]
    return found[0]


def _draw(spec: dict, label: str | None, scale: int = 64, seed: int = 5) -> list:
    pattern = None if label is None else _variant(spec, label)
    return sample_spec(spec, seed, scale, mode="max", pattern=pattern)


def test_offered_variants_cover_each_argument_and_the_scalar_skews():
    labels = [v["label"] for v in perf_variants(WINDOW)]
    assert labels == [
        "nums:sorted",
        "nums:reversed",
        "nums:alternating",
        "nums:equal",
        "nums:few",
        "nums:extremes",
        "nums:zeros",
        "k=min",
        "k=sqrt",
        "k=half",
        "k=max",
    ]


def test_value_variants_have_their_structure_and_keep_the_size_and_range():
    base_nums, _ = _draw(WINDOW, None)
    for label in ("nums:sorted", "nums:reversed", "nums:alternating", "nums:equal", "nums:few"):
        nums, k = _draw(WINDOW, label)
        assert len(nums) == len(base_nums) == 64, label
        assert all(-1000 <= x <= 1000 for x in nums), label
        assert 1 <= k <= 64, label
    nums = _draw(WINDOW, "nums:sorted")[0]
    assert nums == sorted(nums) and len(set(nums)) > 10
    nums = _draw(WINDOW, "nums:reversed")[0]
    assert nums == sorted(nums, reverse=True) and len(set(nums)) > 10
    nums = _draw(WINDOW, "nums:equal")[0]
    assert len(set(nums)) == 1
    nums = _draw(WINDOW, "nums:few")[0]
    assert 2 <= len(set(nums)) <= 3
    nums = _draw(WINDOW, "nums:extremes")[0]
    assert set(nums) == {-1000, 1000}
    nums = _draw(WINDOW, "nums:alternating")[0]
    # a zigzag: smallest, largest, 2nd smallest, 2nd largest, ...
    assert all(nums[i] <= nums[i + 1] for i in range(0, 63, 2))
    assert all(nums[i] >= nums[i + 1] for i in range(1, 63, 2))
    assert nums[0] == min(nums) and nums[1] == max(nums)


def test_scalar_skews_spread_k_over_its_range_bounded_by_the_length():
    """The collapse: with n >= 2000 the random policy sets k = n (one window); the skews give
    k = 1, 1 + isqrt(n - 1), half of n, n."""
    n = 4096
    assert _draw(WINDOW, None, scale=n)[1] == n  # the collapse, as before the search
    got = {s: _draw(WINDOW, f"k={s}", scale=n) for s in ("min", "sqrt", "half", "max")}
    assert {s: v[1] for s, v in got.items()} == {
        "min": 1,
        "sqrt": 1 + math.isqrt(n - 1),
        "half": 1 + (n - 1) // 2,
        "max": n,
    }
    assert all(len(v[0]) == n for v in got.values())
    # a magnitude-like skew grows with scale: the input stays monotone
    assert _draw(WINDOW, "k=sqrt", scale=256)[1] < got["sqrt"][1]


def test_variants_respect_distinct_and_stated_order():
    distinct = [v["label"] for v in perf_variants(DISTINCT)]
    assert distinct == ["nums:sorted", "nums:reversed", "nums:alternating"]
    for label in distinct:
        nums = _draw(DISTINCT, label)[0]
        assert len(set(nums)) == len(nums) == 64, label
    ordered = [v["label"] for v in perf_variants(SORTED)]
    assert ordered == ["nums:equal", "nums:few", "nums:extremes", "nums:zeros"]
    for label in ordered:
        nums = _draw(SORTED, label)[0]
        assert nums == sorted(nums), label


def test_tree_path_variant_is_a_path():
    labels = [v["label"] for v in perf_variants(TREE)]
    assert "root:path" in labels and "root:equal" in labels
    tree = _draw(TREE, "root:path", scale=50)[0]
    # LeetCode level order of a path: after the root, each level holds one node and one None
    assert sum(x is not None for x in tree) == 50
    assert len(tree) <= 2 * 50
    random_tree = _draw(TREE, None, scale=50)[0]
    assert len(random_tree) < len(tree)


def test_no_pattern_draws_what_the_perf_generator_drew():
    assert _draw(WINDOW, None, scale=300, seed=9) == sample_spec(WINDOW, 9, 300, mode="max")


def test_the_search_is_on_by_default_ranking_by_selection_on_an_exact_meter():
    """On since it beat max-size random on bench/worstcase.py (docs/performance.md)."""
    section = SamplingSection()
    assert section.worst_case.enabled and section.worst_case.meter == "icount"
    assert section.worst_case.rule == "separation" and section.worst_case.min_gain >= 1.0


# ------------------------------------------------------------------------------- in the sandbox

STATEMENT = (
    "<p>Sort the array <code>nums</code> in ascending order.</p>"
    "<p><strong>Constraints:</strong></p><ul>"
    "<li><code>1 &lt;= nums.length &lt;= 5 * 10<sup>4</sup></code></li>"
    "<li><code>-5 * 10<sup>4</sup> &lt;= nums[i] &lt;= 5 * 10<sup>4</sup></code></li></ul>"
)
SORT_TASK = SynthInput(
    slug="sort-an-array",
    title="Sort an Array",
    content_html=STATEMENT,
    meta={
        "name": "sortArray",
        "params": [{"name": "nums", "type": "integer[]"}],
        "return": {"type": "integer[]"},
    },
    prompt="class Solution:\n    def sortArray(self, nums: List[int]) -> List[int]:\n",
    examples=(([5, 2, 3, 1],),),
)
# last-element pivot, three-way partition: quadratic on sorted / reversed input, linear-ish on
# equal values (they all land in the middle part)
NAIVE_QUICKSORT = """class Solution:
    def sortArray(self, nums):
        out = []
        stack = [list(nums)]
        while stack:
            part = stack.pop()
            if isinstance(part, tuple) or len(part) <= 1:
                out.extend(part)
                continue
            p = part[-1]
            less = [x for x in part if x < p]
            same = [x for x in part if x == p]
            more = [x for x in part if x > p]
            stack.append(more)
            stack.append(tuple(same))
            stack.append(less)
        return out
"""
BUILTIN_SORT = """class Solution:
    def sortArray(self, nums):
        return sorted(nums)
"""


@pytest.mark.sandbox
def test_search_picks_an_ordered_input_for_a_naive_quicksort_and_records_it():
    gen = offline_sas(SORT_TASK).generators[0]
    assert searchable(gen.code)
    target = Target.from_meta(SORT_TASK.meta)
    section = WorstCaseSection(scale_exp=7, solutions=2, combine=False)
    sandbox = quick_sandbox(cpu_seconds=60.0, wall_seconds=120.0)
    kwargs = dict(
        index=0,
        solutions={"naive": NAIVE_QUICKSORT, "builtin": BUILTIN_SORT},
        target=target,
        section=section,
        seed=11,
        memory_mb=1024,
        sandbox=sandbox,
        task="sort-an-array",
    )
    res = search_worst_case(gen.code, **kwargs)

    assert res.label in ("nums:sorted", "nums:reversed"), res.to_dict()
    by_label = {v.label: v for v in res.variants}
    base, win = by_label[RANDOM], by_label[res.label]
    # the same size, and the naive quicksort costs far more on the winner than on random values
    assert win.costs["naive"] > 3 * base.costs["naive"]
    assert res.ratio is not None and res.ratio >= section.min_gain
    assert by_label["nums:equal"].costs["naive"] < base.costs["naive"]
    # recorded: seed, scale, meter, every variant with its costs
    rec = res.to_dict()
    assert (rec["seed"], rec["scale"], rec["meter"], rec["label"]) == (11, 128, "icount", res.label)
    assert {v["label"] for v in rec["variants"]} >= {RANDOM, "nums:sorted", "nums:reversed"}
    assert "_PERF_PATTERN = " in res.code and res.code.startswith(gen.code.rstrip("\n"))

    # reproducible: the same seed gives the same choice, inputs and counts
    again = search_worst_case(gen.code, **kwargs)
    assert again.to_dict() == rec

    # the generator to sample draws the winning input under the same seed, and grows with scale
    drawn = run_generator(
        res.code, seeds=[11], entry="perf_input_gen", args=(128,), sandbox=sandbox
    )
    nums = drawn.outcomes[0].value[0]
    assert len(nums) == 128 and nums == sorted(nums, reverse=res.label == "nums:reversed")
    trace = sample_generator(
        res.code,
        index=0,
        reference_code=BUILTIN_SORT,
        target=target,
        limits=SamplingSection(time_wall_seconds=5, min_scale_exp=6, max_scale_exp=8, seed=11),
        sandbox=sandbox,
    )
    assert [c.scale for c in trace.candidates] == [64, 128, 256]
    assert trace.candidates[1].input_sha256 == win.input_sha256


def test_a_variant_that_makes_the_solutions_alike_does_not_win():
    """rule: cost, on given costs: the dearest variant in total loses to one that keeps the
    solutions apart (keep_spread), and wins without the guard."""
    from quicksilver.dpe.worstcase import Variant, _eligible, _score, beats

    base = Variant("random", None, costs={"slow": 100.0, "fast": 10.0})
    alike = Variant("x:extremes", {"label": "x:extremes"}, costs={"slow": 300.0, "fast": 290.0})
    apart = Variant("x:sorted", {"label": "x:sorted"}, costs={"slow": 250.0, "fast": 5.0})
    broken = Variant("x:equal", {"label": "x:equal"}, status="rejected", costs={"slow": 1e9})
    _score([base, alike, apart, broken], base)
    assert (base.ratio, base.spread) == (1.0, 10.0)
    assert alike.ratio == pytest.approx(590 / 110) and alike.spread == pytest.approx(300 / 290)
    assert apart.ratio == pytest.approx(255 / 110) and apart.spread == 50.0
    assert broken.ratio is None and alike.clusters is None  # no separation figures asked for
    on = WorstCaseSection(rule="cost")
    assert _eligible(alike) and _eligible(apart) and not _eligible(broken)
    assert not _eligible(base)
    assert not beats(alike, base, on, None) and beats(apart, base, on, None)
    assert beats(alike, base, WorstCaseSection(rule="cost", keep_spread=False), None)


def _ranked(costs: dict[str, dict[str, float]]) -> tuple[list, object]:
    from quicksilver.config import SelectionSection
    from quicksilver.dpe.worstcase import Variant, _score, separation_for

    sep = separation_for(SelectionSection(), "icount")
    base = Variant("random", None, costs=costs.pop("random"))
    others = [Variant(k, {"label": k}, costs=v) for k, v in costs.items()]
    _score(others, base, sep)
    return [base, *others], sep


def test_separation_lifts_a_too_cheap_fastest_solution_first():
    """shift-right's shape: on random k the fastest solution returns at once (k % n == 0 is
    not it, but k = n is drawn at max scale); a skew of k makes it rotate, and it wins although
    the clusters stay and the total barely moves."""
    from quicksilver.dpe.worstcase import _why, beats, rank_key

    (base, k_half, k_min), sep = _ranked(
        {
            "random": {"a": 5e3, "b": 2.3e6, "c": 3.1e6, "d": 2.2e7},
            "k=half": {"a": 1.0e5, "b": 2.2e6, "c": 3.0e6, "d": 2.2e7},
            "k=min": {"a": 2.4e3, "b": 2.2e6, "c": 9.0e6, "d": 9.0e7},
        }
    )
    assert sep.min_cost == 10_000 and sep.w == 10_000 and sep.bias == 0.2
    assert base.cheapest == 5e3 and k_half.cheapest == 1e5
    section = WorstCaseSection()
    assert beats(k_half, base, section, sep)
    assert rank_key(k_half, base, section, sep) > rank_key(k_min, base, section, sep)
    assert "fastest solution costs 1e+05" in _why(k_half, base, section, sep)


def test_separation_prefers_more_clusters_over_a_dearer_input_that_makes_solutions_alike():
    from quicksilver.dpe.worstcase import _why, beats

    (base, alike, apart, same), sep = _ranked(
        {
            "random": {"a": 1e6, "b": 1.1e6, "c": 5e6, "d": 5.5e6},
            # 50x dearer in total, but every solution does the same work: one cluster
            "x:equal": {"a": 1e8, "b": 1e8, "c": 1e8, "d": 1.05e8},
            # cheaper in total, but the solutions fall apart into four clusters
            "x:zeros": {"a": 1e5, "b": 1e6, "c": 1e7, "d": 1e8},
            # as many clusters as random and 3x dearer: wins on the gain, if nothing better
            "x:sorted": {"a": 3e6, "b": 3.3e6, "c": 1.5e7, "d": 1.7e7},
        }
    )
    section = WorstCaseSection()
    assert (base.clusters, alike.clusters, apart.clusters, same.clusters) == (2, 1, 4, 2)
    assert not beats(alike, base, section, sep)
    assert beats(apart, base, section, sep) and beats(same, base, section, sep)
    assert _why(apart, base, section, sep) == "4 clusters against random's 2"
    assert "with as many clusters (2)" in _why(same, base, section, sep)
    # below min_gain and no more clusters: random stays
    (base2, meh), _ = _ranked({"random": {"a": 1e6, "b": 5e6}, "x:few": {"a": 1.1e6, "b": 5.5e6}})
    assert not beats(meh, base2, section, sep)


def test_a_time_meter_without_an_instruction_rate_ranks_by_cost():
    from quicksilver.config import SelectionSection
    from quicksilver.dpe.worstcase import separation_for

    assert separation_for(SelectionSection(), "cpu") is None
    sep = separation_for(SelectionSection(), "cpu", instruction_rate=1e9)
    assert sep is not None and sep.w == pytest.approx(1e-5) and sep.min_cost == pytest.approx(1e-5)


def test_zeros_variant_is_offered_where_zero_is_allowed_and_puts_zeros_in():
    labels = [v["label"] for v in perf_variants(WINDOW)]
    assert "nums:zeros" in labels
    nums = _draw(WINDOW, "nums:zeros", scale=400)[0]
    assert len(nums) == 400 and 120 < nums.count(0) < 280
    positive = {
        **WINDOW,
        "params": [
            _list("nums", "nums.length", {"type": "int", "lo": [1], "hi": [1000]}),
            WINDOW["params"][1],
        ],
    }
    assert "nums:zeros" not in [v["label"] for v in perf_variants(positive)]


def test_bst_variant_makes_a_search_tree():
    labels = [v["label"] for v in perf_variants(TREE)]
    assert "root:bst" in labels
    tree = _draw(TREE, "root:bst", scale=60)[0]

    nodes = [x for x in tree if x is not None]
    assert len(nodes) == 60
    # rebuild the tree from level order and walk it in order: sorted values
    from collections import deque

    vals = iter(tree)
    root = [next(vals), None, None]
    queue = deque([root])
    while queue:
        node = queue.popleft()
        for side in (1, 2):
            v = next(vals, None)
            if v is not None:
                child = [v, None, None]
                node[side] = child
                queue.append(child)
    out: list = []

    def walk(n: list | None) -> None:
        if n is not None:
            walk(n[1])
            out.append(n[0])
            walk(n[2])

    walk(root)
    assert out == sorted(nodes) and len(out) == 60
