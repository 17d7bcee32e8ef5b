"""quicksilver.dpe.sampling: exponential input sampling and the performance-exercising input."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from quicksilver.config import SamplingSection
from quicksilver.dpe.answers import answer_digest
from quicksilver.dpe.choosing import (
    InstructionBudget,
    _ranked,
    choose_pe_input,
)
from quicksilver.dpe.sampling import (
    Candidate,
    SamplingError,
    Target,
    canonical_sha256,
    int64_violation,
    sample_generator,
)
from tests.conftest import quick_sandbox, requires_bwrap, requires_qemu

ECHO_REF = "class Solution:\n    def f(self, x):\n        return x\n"
ECHO = Target(entry_point="f", n_params=1)

QUADRATIC_REF = """
class Solution:
    def f(self, n):
        total = 0
        for i in range(n):
            for j in range(n):
                total += i ^ j
        return total
"""


def gen(body: str) -> str:
    """A generator whose perf_input_gen(scale) body is ``body`` (one indented block)."""
    lines = "\n".join("    " + ln for ln in body.strip("\n").splitlines())
    return f"import random\n\ndef perf_input_gen(scale):\n{lines}\n"


def limits(**kw: object) -> SamplingSection:
    base: dict[str, object] = {
        "time_wall_seconds": 1.0,
        "memory_mb": 512,
        "max_scale_exp": 6,
        "seed": 0,
    }
    base.update(kw)
    return SamplingSection(**base)  # type: ignore[arg-type]


def sample(
    code: str, ref: str = ECHO_REF, target: Target = ECHO, spec: dict | None = None, **kw: object
):
    return sample_generator(
        code,
        index=3,
        reference_code=ref,
        target=target,
        limits=limits(**kw),
        sandbox=quick_sandbox(),
        task="t-1",
        spec=spec,
    )


def scales(trace) -> list[int]:
    return [c.scale for c in trace.candidates]


# ------------------------------------------------------------------------------- pure helpers


def test_int64_violation_finds_nested_integers_and_names_where():
    assert int64_violation([1, [2**63 - 1, -(2**63)], {"a": (3, {4})}, True, 1.5e300]) is None
    assert (
        int64_violation([[1, [2, 2**63]]])
        == "value[0][1][1] is an integer of 64 bits, outside int64"
    )
    assert "value[1]{}" in int64_violation([0, {-(2**63) - 1}])
    assert (
        int64_violation({"k": [2**80]}) == "value['k'][0] is an integer of 81 bits, outside int64"
    )
    assert int64_violation({2**64: 0}) == "value.key is an integer of 65 bits, outside int64"
    # a huge int (beyond the 4300-digit str limit) is described without converting it to text
    assert "100000 bits" in int64_violation([1 << 99_999])
    deep: list = [7]
    for _ in range(50_000):
        deep = [deep]
    assert int64_violation(deep) is None


def test_canonical_sha256_is_key_order_independent_and_counts_bytes():
    sha_a, size_a = canonical_sha256([{"b": 1, "a": [1, 2]}, "é"])
    sha_b, size_b = canonical_sha256([{"a": [1, 2], "b": 1}, "é"])
    assert sha_a == sha_b and len(sha_a) == 64
    assert size_a == size_b == len('[{"a":[1,2],"b":1},"\\u00e9"]')
    assert canonical_sha256((1, 2)) == canonical_sha256([1, 2])
    assert canonical_sha256([1, 2])[0] != canonical_sha256([2, 1])[0]


def test_limits_defaults_are_the_papers_and_are_validated():
    lim = SamplingSection()
    assert (lim.time_wall_seconds, lim.memory_mb, lim.min_scale_exp, lim.max_scale_exp) == (
        20.0,
        16384,
        1,
        26,
    )
    assert lim.max_input_bytes == 64 * 2**20 and lim.seed == 20_260_501
    with pytest.raises(ValidationError, match="min_scale_exp"):
        SamplingSection(min_scale_exp=5, max_scale_exp=4)
    with pytest.raises(ValidationError):
        SamplingSection(time_wall=3)  # type: ignore[call-arg]


def test_target_from_meta_converts_nodes_and_counts_params():
    t = Target.from_meta(
        {
            "name": "maxDepth",
            "params": [{"name": "root", "type": "TreeNode"}],
            "return": {"type": "integer"},
        }
    )
    assert (t.entry_point, t.kind, t.n_params, t.output_param) == ("maxDepth", "class", 1, None)
    assert "inputs[0] = tree(inputs[0])" in t.convert_offline  # the row's own helper
    inplace = Target.from_meta(
        json.dumps(
            {
                "name": "rotate",
                "params": [{"name": "nums", "type": "integer[]"}, {"name": "k", "type": "integer"}],
                "return": {"type": "void"},
                "output": {"paramindex": 0},
            }
        )
    )
    assert (inplace.n_params, inplace.output_param) == (2, 0)


def _cand(gen: int, n: int, cost: float, args: list | None = None) -> Candidate:
    args = [n] if args is None else args
    sha, size = canonical_sha256(args)
    return Candidate(gen, n, args, sha, size, cost)


def test_candidates_rank_by_clear_cost_then_scale_then_generator_once_per_input():
    """Costs within 3x of the dearest (or within a millisecond) are one tier: CPU times that
    close could swap on a rebuild, so the larger scale decides; a clearly dearer input wins."""
    a, b, c = _cand(2, 64, 1.0), _cand(1, 128, 0.5), _cand(0, 128, 0.9, [-128])
    dearer = _cand(5, 8, 4.0)  # > 3x any other: first whatever its scale
    dup = Candidate(4, 64, [64], a.input_sha256, a.input_bytes, 1.0)  # the same input as a
    cheap = _cand(3, 4096, 0.2)  # < 1.0 / 3: a tier of its own, last whatever its scale
    got = _ranked([a, b, c, dearer, dup, cheap])
    assert [(x.generator, x.scale) for x in got] == [(5, 8), (0, 128), (1, 128), (2, 64), (3, 4096)]


def test_within_a_generator_the_larger_scale_comes_first_whatever_its_time():
    """A slow phase once made scale 1024 of a generator cost 5.6 ms against 1.5 ms for its
    scale 32768, and the build chose the small input; the paper takes the last input that
    passed."""
    spiked, last = _cand(0, 1024, 0.0056), _cand(0, 32768, 0.0015)
    other = _cand(1, 4096, 0.004)  # another generator's input, in the same tier
    got = _ranked([spiked, other, last])
    assert [(x.generator, x.scale) for x in got] == [(0, 32768), (1, 4096), (0, 1024)]
    # the larger input counts as at least as dear as the spike: clearly dearer than a third
    cheap = _cand(2, 65536, 0.0001)
    assert [x.scale for x in _ranked([cheap, spiked, last])][:2] == [32768, 1024]


def test_noisy_near_equal_costs_rank_the_same_either_way():
    small, large = _cand(0, 1024, 0.010), _cand(0, 2048, 0.011)
    for costs in ((0.010, 0.011), (0.012, 0.009)):  # the two measurements swap order
        small = Candidate(0, 1024, [1024], small.input_sha256, small.input_bytes, costs[0])
        large = Candidate(0, 2048, [2048], large.input_sha256, large.input_bytes, costs[1])
        assert [x.scale for x in _ranked([small, large])] == [2048, 1024]
    micro = [_cand(0, 2**k, 1e-5 * (1 + (k % 3))) for k in range(1, 8)]  # microsecond noise
    assert [x.scale for x in _ranked(micro)] == [128, 64, 32, 16, 8, 4, 2]


# ------------------------------------------------------------------------------- sampling


@requires_bwrap
def test_reference_time_wall_keeps_the_earlier_scales():
    trace = sample(
        gen("return (scale,)"),
        QUADRATIC_REF,
        time_wall_seconds=0.5,
        min_scale_exp=6,
        max_scale_exp=16,
    )
    assert trace.stop == "time-wall" and not trace.ill_defined and trace.reason is None
    last = trace.steps[-1]
    assert last.status == "time-wall" and 2**10 <= last.scale <= 2**14
    assert last.reference_cpu_seconds is not None and last.reference_cpu_seconds >= 0.5
    assert last.generator_cpu_seconds is not None and last.input_sha256 is not None
    got = scales(trace)
    assert got == [2**k for k in range(6, 6 + len(got))] and got[-1] * 2 == last.scale
    assert all(s.status == "ok" for s in trace.steps[:-1]) and len(trace.steps) == len(got) + 1
    assert [c.args for c in trace.candidates] == [[s] for s in got]
    assert all(c.generator == 3 for c in trace.candidates)
    # quadratic: 2**10 costs ~256x 2**6
    assert trace.candidates[-1].reference_cost > 10 * trace.candidates[0].reference_cost > 0
    assert trace.candidates[0].input_sha256 == canonical_sha256([64])[0]


@requires_bwrap
def test_generator_time_wall():
    trace = sample(
        gen("if scale >= 16:\n    while True:\n        pass\nreturn (scale,)"),
        time_wall_seconds=0.5,
    )
    assert trace.stop == "time-wall" and scales(trace) == [2, 4, 8]
    last = trace.steps[-1]
    assert last.scale == 16 and last.reference_cpu_seconds is None and last.input_sha256 is None
    assert "CPU time limit" in last.detail


@requires_bwrap
def test_generator_memory_wall():
    code = gen("block = bytearray(scale * 2**20)\nreturn (len(block),)")
    trace = sample(code, memory_mb=256, min_scale_exp=5, max_scale_exp=10)
    assert trace.stop == "memory-wall" and scales(trace) == [32, 64, 128]
    assert trace.steps[-1].scale == 256 and "MemoryError" in trace.steps[-1].detail
    assert trace.candidates[-1].args == [128 * 2**20]


@requires_bwrap
def test_size_cap_is_measured_before_the_input_leaves_the_sandbox():
    trace = sample(
        gen("return ([0] * scale,)"), max_input_bytes=1000, min_scale_exp=6, max_scale_exp=12
    )
    assert trace.stop == "size-cap" and scales(trace) == [64, 128, 256]
    last = trace.steps[-1]
    assert last.scale == 512 and last.input_bytes == 2 * 512 + 3 and "> 1000" in last.detail
    assert [c.input_bytes for c in trace.candidates] == [2 * n + 3 for n in (64, 128, 256)]


@requires_bwrap
def test_int64_stops_on_a_nested_integer():
    trace = sample(gen("return ([scale, [scale ** 20]],)"), max_scale_exp=8)
    assert trace.stop == "int64" and scales(trace) == [2, 4, 8]
    assert trace.steps[-1].scale == 16
    assert trace.steps[-1].detail == "value[0][1][0] is an integer of 81 bits, outside int64"
    assert trace.candidates[-1].args == [[8, [8**20]]]


@requires_bwrap
def test_saturated_generator_stops_repeating_itself():
    trace = sample(gen("return (min(scale, 100),)"), min_scale_exp=5, max_scale_exp=12)
    assert trace.stop == "saturated" and scales(trace) == [32, 64, 128]
    assert trace.candidates[-1].args == [100]
    last = trace.steps[-1]
    assert last.scale == 256 and "scale 128" in last.detail
    assert last.input_sha256 == trace.candidates[-1].input_sha256


@requires_bwrap
def test_max_scale_and_the_record():
    trace = sample(gen("return [[scale] * 2]"), max_scale_exp=3)
    assert trace.stop == "max-scale" and [s.status for s in trace.steps] == ["ok"] * 3
    assert scales(trace) == [2, 4, 8] and trace.candidates[-1].args == [[8, 8]]
    rec = trace.to_dict()
    assert rec["stop"] == "max-scale" and rec["generator"] == 3 and rec["seed"] == 0
    assert [s["scale"] for s in rec["steps"]] == [2, 4, 8]
    assert "args" not in rec["candidates"][0]
    assert rec["candidates"][0]["input_sha256"] == canonical_sha256([[2, 2]])[0]
    full = trace.to_dict(with_args=True)
    assert [c["args"] for c in full["candidates"]] == [[[2, 2]], [[4, 4]], [[8, 8]]]
    json.dumps(full)  # the record is plain JSON


ASSERTING_REF = "class Solution:\n    def f(self, x):\n        assert x <= 10, 'x out of range'\n        return x\n"


@requires_bwrap
@pytest.mark.parametrize(
    ("code", "ref", "target", "scale", "expected"),
    [
        (
            gen("if scale == 8:\n    raise ValueError('bad scale')\nreturn (scale,)"),
            ECHO_REF,
            ECHO,
            8,
            "ValueError: bad scale",
        ),
        (gen("return {'n': scale}"), ECHO_REF, ECHO, 2, "returned a dict, not a tuple"),
        (gen("return scale"), ECHO_REF, ECHO, 2, "returned a int, not a tuple"),
        (gen("return (scale, scale)"), ECHO_REF, ECHO, 2, "returned 2 argument(s), f takes 1"),
        (
            gen("return (scale,)"),
            ASSERTING_REF,
            ECHO,
            16,
            "the reference rejects the input: AssertionError: x out of range",
        ),
        ("def perf_input_gen(scale:\n", ECHO_REF, ECHO, 2, "SyntaxError"),
        ("def other(scale):\n    return (scale,)\n", ECHO_REF, ECHO, 2, "NameError"),
    ],
    ids=["raises", "dict", "int", "arity", "reference-rejects", "syntax", "no-entry"],
)
def test_ill_defined_generators_lose_their_inputs(code, ref, target, scale, expected):
    trace = sample(code, ref, target, max_scale_exp=6)
    assert trace.stop == "ill-defined" and trace.ill_defined
    assert trace.candidates == []
    assert trace.steps[-1].scale == scale and trace.steps[-1].status == "ill-defined"
    assert [s.status for s in trace.steps[:-1]] == ["ok"] * (len(trace.steps) - 1)
    assert trace.reason.startswith(f"t-1: generator 3 is ill-defined at scale {scale}: ")
    assert expected in trace.reason and expected in trace.steps[-1].detail


@requires_bwrap
def test_generators_are_seeded_and_the_seed_decides_the_input():
    code = gen("return ([random.randint(0, 10**9) for _ in range(scale)],)")
    a = sample(code, max_scale_exp=2)
    b = sample(code, max_scale_exp=2)
    c = sample(code, max_scale_exp=2, seed=1)
    sha = [[s.input_sha256 for s in t.steps] for t in (a, b, c)]
    assert sha[0] == sha[1] and None not in sha[0]
    assert set(sha[0]).isdisjoint(sha[2])
    assert len(set(a.candidates[-1].args[0])) == 4 and c.seed == 1


@requires_bwrap
def test_tree_and_list_inputs_reach_the_reference_as_nodes():
    tree = Target.from_meta(
        {
            "name": "maxDepth",
            "params": [{"name": "root", "type": "TreeNode"}],
            "return": {"type": "integer"},
        }
    )
    tree_ref = """
class Solution:
    def maxDepth(self, root):
        assert type(root).__name__ == "TreeNode", type(root)
        depth, level = 0, [root]
        while level:
            depth += 1
            level = [c for n in level for c in (n.left, n.right) if c]
        return depth
"""
    trace = sample(gen("return (list(range(1, scale)),)"), tree_ref, tree, max_scale_exp=4)
    assert trace.stop == "max-scale", trace.reason
    assert [c.args for c in trace.candidates] == [[list(range(1, n))] for n in (2, 4, 8, 16)]

    lst = Target.from_meta(
        {
            "name": "reverseList",
            "params": [{"name": "head", "type": "ListNode"}],
            "return": {"type": "ListNode"},
        }
    )
    list_ref = """
class Solution:
    def reverseList(self, head):
        prev = None
        while head:
            head.next, prev, head = prev, head, head.next
        return prev
"""
    trace = sample(gen("return [list(range(scale))]"), list_ref, lst, max_scale_exp=3)
    assert trace.stop == "max-scale" and scales(trace) == [2, 4, 8]

    # a list where a node is expected would make the reference fail: the conversion is needed
    broken = sample(
        gen("return [list(range(scale))]"), list_ref, Target("reverseList"), max_scale_exp=3
    )
    assert broken.ill_defined and "AttributeError" in broken.reason


@requires_bwrap
def test_a_reference_that_does_not_load_is_not_the_generators_fault():
    with pytest.raises(
        SamplingError, match=r"t-1: the reference solution: loading the code.*SyntaxError"
    ):
        sample(gen("return (scale,)"), "class Solution:\n    def f(self, x:\n", max_scale_exp=2)


# ------------------------------------------------------------------------------- choosing

SOLUTIONS = {
    "linear": "class Solution:\n    def f(self, n):\n        return sum(range(n))\n",
    "quadratic": "class Solution:\n    def f(self, n):\n        return sum(i ^ j for i in range(n) for j in range(n))\n",
    "cubic": (
        "class Solution:\n    def f(self, n):\n"
        "        return sum(1 for i in range(n) for j in range(n) for k in range(n))\n"
    ),
}


@requires_bwrap
def test_choose_takes_the_dearest_input_every_solution_finishes():
    big, mid, small, tiny = (
        _cand(0, 1500, 3.0),
        _cand(1, 1000, 2.0),
        _cand(0, 100, 1.0),
        _cand(1, 10, 0.1),
    )
    small_dup = Candidate(1, 100, [100], small.input_sha256, small.input_bytes, 0.5)
    choice = choose_pe_input(
        [tiny, small_dup, mid, big, small],
        SOLUTIONS,
        target=ECHO,
        cpu_seconds=0.5,
        memory_mb=512,
        sandbox=quick_sandbox(),
        task="t-2",
    )
    assert choice.candidate is small and choice.reason is None
    assert list(choice.costs) == ["linear", "quadratic", "cubic"]
    assert choice.costs["cubic"] > choice.costs["linear"] > 0
    got = [(r["scale"], r["ran"], r["failed"], r["status"]) for r in choice.tried]
    assert got == [
        (1500, ["linear", "quadratic", "cubic"], "cubic", "timeout"),
        (1000, ["cubic"], "cubic", "timeout"),  # the solution that failed before runs first
        (100, ["cubic", "linear", "quadratic"], None, "ok"),
    ]
    assert (
        choice.tried[0]["reference_cost"] == 3.0 and "CPU time limit" in choice.tried[0]["detail"]
    )


@requires_bwrap
def test_choose_keeps_every_answer_on_the_chosen_input_and_the_most_common_one():
    """The answers every solution gave where it had to finish come back with the choice (the
    pe_profile stage judges the solutions against the most common one): nothing is run again."""
    sols = {
        "first": "class Solution:\n    def f(self, n):\n        return [n, n * (n - 1) // 2]\n",
        "loop": (
            "class Solution:\n    def f(self, n):\n        t = 0\n"
            "        for i in range(n):\n            t += i\n        return [n, t]\n"
        ),
        # right on small inputs, and truncated at scale: a 16-bit overflow
        "overflow": (
            "class Solution:\n    def f(self, n):\n"
            "        return [n, (n * (n - 1) // 2) & 0xFFFF]\n"
        ),
        "sum": "class Solution:\n    def f(self, n):\n        return [n, sum(range(n))]\n",
    }
    big, small = _cand(0, 1000, 2.0), _cand(0, 10, 0.1)
    choice = choose_pe_input(
        [small, big],
        sols,
        target=ECHO,
        cpu_seconds=1.0,
        memory_mb=512,
        sandbox=quick_sandbox(),
        task="t-answers",
    )
    assert choice.candidate is big
    assert choice.answer == [1000, 499500] and choice.support == 3
    assert list(choice.answers) == list(sols)
    assert choice.answers["overflow"] == answer_digest([1000, 499500 & 0xFFFF])
    assert {choice.answers[k] for k in ("first", "loop", "sum")} == {answer_digest([1000, 499500])}


@requires_bwrap
def test_choose_without_a_workable_candidate_says_why():
    sols = {
        "ok": SOLUTIONS["linear"],
        "picky": "class Solution:\n    def f(self, n):\n        raise ValueError(f'no {n}')\n",
    }
    cands = [_cand(0, 10, 0.2), _cand(2, 20, 0.3)]
    choice = choose_pe_input(
        cands,
        sols,
        target=ECHO,
        cpu_seconds=1.0,
        memory_mb=512,
        sandbox=quick_sandbox(),
        task="t-3",
    )
    assert choice.candidate is None and choice.costs == {}
    assert [(r["scale"], r["ran"], r["failed"]) for r in choice.tried] == [
        (20, ["ok", "picky"], "picky"),
        (10, ["picky"], "picky"),
    ]
    assert choice.reason.startswith(
        "t-3: no candidate input on which every solution finishes (2 of 2 tried)"
    )
    assert "generator 2 scale 20" in choice.reason and "ValueError: no 20" in choice.reason

    capped = choose_pe_input(
        cands,
        sols,
        target=ECHO,
        cpu_seconds=1.0,
        memory_mb=512,
        sandbox=quick_sandbox(),
        task="t-3",
        max_tries=1,
    )
    assert [r["scale"] for r in capped.tried] == [20] and "(1 of 1 tried)" in capped.reason

    # a solution that does not load fails everywhere: no further candidate is tried
    sols["broken"] = "class Solution:\n    def f(self, n:\n"
    broken = choose_pe_input(
        cands,
        {"broken": sols["broken"]},
        target=ECHO,
        cpu_seconds=1.0,
        memory_mb=512,
        sandbox=quick_sandbox(),
        task="t-3",
    )
    assert [(r["failed"], r["status"]) for r in broken.tried] == [("broken", "load-error")]
    assert "SyntaxError" in broken.tried[0]["detail"]

    assert choose_pe_input(
        [], sols, target=ECHO, cpu_seconds=1.0, memory_mb=512, task="t-4"
    ).reason == ("t-4: no candidate input to choose from")


@requires_qemu
def test_a_solution_near_the_finish_limit_is_decided_by_its_count():
    """CPU time near the limit decides nothing: the instruction count against the limit times the
    machine's instruction rate does, the same way in every build."""
    loop = "class Solution:\n    def f(self, n):\n        s = 0\n        for i in range(n):\n            s += i\n        return s\n"
    cand = _cand(0, 1_000_000, 0.1)
    sols = {"loop": loop}
    native = choose_pe_input(
        [cand], sols, target=ECHO, cpu_seconds=30, memory_mb=512, sandbox=quick_sandbox()
    )
    cpu = native.costs["loop"]
    assert cpu > 0

    # the limit is the solution's own CPU time: well within the band either way
    def choose(rate: float):
        return choose_pe_input(
            [cand],
            sols,
            target=ECHO,
            cpu_seconds=cpu,
            memory_mb=512,
            sandbox=quick_sandbox(),
            budget=InstructionBudget(rate=rate),
        )

    assert choose(1e12).candidate is cand
    strict = choose(1e6)
    assert strict.candidate is None
    detail = strict.tried[0]["detail"]
    assert strict.tried[0]["status"] == "timeout" and "instructions, over the limit of" in detail
    counted = float(detail.split("counted ")[1].split(" instructions")[0])
    assert 5e6 < counted < 5e8  # a million-iteration loop: tens of millions of instructions


MEMORY_REF = """
class Solution:
    def f(self, n):
        held = bytearray(n * 2**20)
        return len(held) // 2**20
"""


@requires_bwrap
def test_reference_memory_wall_is_the_measured_peak():
    """The reference holds scale MiB: the doubling stops at the first scale whose measured peak
    passes the 100 MiB wall (128), with the address-space backstop (200 MiB here, 2x the wall)
    never reached, and every passed step records its measured peak."""
    trace = sample(
        gen("return (scale,)"), MEMORY_REF, memory_mb=100, min_scale_exp=4, max_scale_exp=10
    )
    assert trace.stop == "memory-wall" and scales(trace) == [16, 32, 64], trace.steps
    last = trace.steps[-1]
    assert last.scale == 128 and "memory wall" in (last.detail or ""), last.detail
    for step in trace.steps[:-1]:
        peak = step.reference_peak_memory_bytes
        assert peak is not None and 0.9 * step.scale * 2**20 <= peak <= 1.2 * step.scale * 2**20


@requires_bwrap
def test_an_offline_generators_input_that_breaks_its_spec_is_a_generator_bug():
    """The offline perf generator's inputs are checked against its own spec (a second reading,
    synth/offline/checker.py): one that breaks a stated constraint makes the generator
    ill-defined, said as a generator bug, and its inputs before stay candidates."""
    from quicksilver.synth import SynthInput
    from quicksilver.synth.offline import synthesize_offline_perf
    from quicksilver.synth.offline.checker import spec_from_generator

    meta = {
        "name": "f",
        "params": [{"name": "x", "type": "integer[]"}],
        "return": {"type": "integer[]"},
    }
    content = (
        "<p><strong>Constraints:</strong></p><ul><li><code>1 &lt;= x.length &lt;= 100</code></li>"
        "<li><code>1 &lt;= x[i] &lt;= 10</code></li></ul>"
    )
    res = synthesize_offline_perf(SynthInput("t-1", "T", content, meta, "class Solution:"))
    assert res.generator_code is not None, res.reason
    spec = spec_from_generator(res.generator_code)
    assert spec is not None
    # the same generator with a bug: past the stated maximum once the scale reaches 16
    buggy = res.generator_code + (
        "\n_right = perf_input_gen\n"
        "def perf_input_gen(scale):\n"
        "    return [[11] * scale] if scale >= 16 else _right(scale)\n"
    )
    trace = sample(buggy, spec=spec, max_scale_exp=6)
    assert trace.ill_defined and trace.steps[-1].scale == 16, trace.to_dict()
    assert "generator-bug" in trace.reason and "x[0] = 11" in trace.reason, trace.reason
    without = sample(buggy, max_scale_exp=6)
    assert not without.ill_defined  # unchecked, the echo reference takes any x
