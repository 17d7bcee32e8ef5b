"""The answers on the performance-exercising input are judged in the DPE build: the sampling stage
keeps every solution's answer where it had to finish and the most common one, the pe_profile
stage has the profiler judge every solution against it with the task's own evaluate_offline, and
a solution wrong only there is dropped (``pe-wrong-answer``) before it can become a cluster
reference; a split vote drops the task (``ambiguous-pe-answer``). Stages called on small records,
as tests/stagekit.py does (docs/dpe-build.md, "Stages")."""

from __future__ import annotations

from typing import Any

from quicksilver.config import (
    MeasureConfig,
    PEProfileSection,
    SamplingSection,
    SelectionSection,
    WorstCaseSection,
)
from quicksilver.dpe.answers import answer_digest
from quicksilver.pipeline.records import (
    PEInput,
    PerfGenerators,
    Solution,
    Task,
    TaskRecord,
    Verdict,
    solution_hash,
)
from quicksilver.pipeline.runner import apply
from quicksilver.stages.pe_profile import PE_PROFILE
from quicksilver.stages.sampling import SAMPLING
from quicksilver.stages.select import SELECT
from tests.conftest import quick_sandbox, requires_bwrap, requires_qemu

SANDBOX = quick_sandbox()
HEAD = "class Solution:\n    def f(self, n: int) -> int:\n"

# sum(range(n)), four ways; the last is right on every small input and returns its input
# unchanged on a large one: the fastest solution, and wrong at scale
FORMULA = HEAD + "        return n * (n - 1) // 2\n"
LOOP = HEAD + "        t = 0\n        for i in range(n):\n            t += i\n        return t\n"
SUM = HEAD + "        return sum(range(n))\n"
SHORTCUT = HEAD + "        if n > 300:\n            return n\n        return sum(range(n))\n"
SOLUTIONS = [FORMULA, LOOP, SUM, SHORTCUT]


def task(slug: str, returns: str = "integer") -> Task:
    meta = {"name": "f", "params": [{"name": "n", "type": "integer"}], "return": {"type": returns}}
    return Task(slug=slug, meta=meta, statement="Return the sum of 0 .. n-1.")


def record(slug: str, codes: list[str], *, returns: str = "integer", **fields: Any) -> TaskRecord:
    sols = [
        Solution(slug=slug, hash=solution_hash(code), code=code, position=i)
        for i, code in enumerate(codes)
    ]
    verdict = Verdict(
        any_order=fields.pop("any_order", False), classification="all-agree", expected=[]
    )
    return TaskRecord(task=task(slug, returns), solutions=sols, verdict=verdict, **fields)


def pe_input(n: int, codes: list[str], answers: list[Any], expected: Any) -> PEInput:
    """The sampling stage's record of input ``n``: the solutions gave ``answers`` there."""
    digests = {str(solution_hash(c)): answer_digest(a) for c, a in zip(codes, answers, strict=True)}
    return PEInput(
        pe_input=[[n]],
        generator=0,
        generator_path="offline",
        generator_code="def perf_input_gen(scale):\n    return (scale,)\n",
        generators_tried=1,
        scale=n,
        input_sha256="0" * 64,
        input_bytes=len(str(n)) + 2,
        reference_hash=solution_hash(codes[0]),
        reference_cost=0.001,
        stop="max-scale",
        answers=digests,
        expected=[expected],
        expected_support=sum(answer_digest(a) == answer_digest(expected) for a in answers),
    )


def pe_profile_stage(records: list[TaskRecord]) -> Any:
    return apply(
        PE_PROFILE,
        records,
        pe_profile=PEProfileSection(measure=MeasureConfig(), sandbox=SANDBOX),  # icount
        sampling=SamplingSection(finish_cpu_seconds=1.0, memory_mb=512),
        plurality_margin=2.0,
        plurality_min_support=2,
    )


def by_reason(rejects: list[dict[str, Any]], reason: str) -> list[dict[str, Any]]:
    return [r for r in rejects if r["reason"] == reason]


@requires_bwrap
@requires_qemu
def test_a_solution_wrong_only_at_scale_never_becomes_a_reference():
    """sampling -> pe_profile -> select on one task: the shortcut is right on the test cases and
    the fastest on the performance input, where it answers its input. Without judging, it was
    its own cluster and that cluster's reference."""
    slug = "sum-below"
    gen = {
        "index": 0,
        "code": "def perf_input_gen(scale):\n    return (scale,)\n",
        "path": "offline",
        "model": "test",
    }
    rec = record(slug, SOLUTIONS, perf_generators=PerfGenerators(generators=[gen]))
    sampling = SamplingSection(
        time_wall_seconds=1.0,
        memory_mb=512,
        max_scale_exp=10,
        finish_cpu_seconds=1.0,
        count_near_limit=False,
        worst_case=WorstCaseSection(enabled=False),
    )
    sampled = apply(
        SAMPLING, [rec], sampling=sampling, selection=SelectionSection(), sandbox=SANDBOX
    )
    (rec,) = sampled.records
    smp = rec.pe_input
    assert smp is not None and smp.pe_input == [[1024]]
    # every solution answered where it had to finish; three agree, the shortcut does not
    assert smp.expected == [1024 * 1023 // 2] and smp.expected_support == 3
    assert smp.answers[str(solution_hash(SHORTCUT))] == answer_digest(1024)
    assert {smp.answers[str(solution_hash(c))] for c in SOLUTIONS[:3]} == {answer_digest(523776)}

    profiled = pe_profile_stage([rec])
    (wrong,) = by_reason(profiled.rejects, "pe-wrong-answer")
    assert wrong["code"] == SHORTCUT
    detail = wrong["detail"]
    assert detail.startswith(f"{slug} solution #3: wrong answer on the performance input")
    assert "(case 0: got 1024, expected 523776)" in detail
    assert detail.endswith("the answer accepted there is the one 3 of 4 solutions give (majority)")
    assert dict(profiled.counts.drops) == {"pe-wrong-answer": 1}
    (kept,) = profiled.records
    assert [s.code for s in kept.solutions] == SOLUTIONS[:3]
    assert kept.pe_profile is not None and kept.pe_profile.answer_vote is not None
    assert kept.pe_profile.answer_vote["rule"] == "majority"
    assert (kept.pe_profile.answer_vote["agree"], kept.pe_profile.answer_vote["voters"]) == (3, 4)

    selection = SelectionSection(
        min_solutions=2, min_cost_instructions=0, max_p99_cv=1.0, min_clusters=1
    )
    (chosen,) = apply(SELECT, profiled.records, selection=selection).records
    assert chosen.selected is not None
    assert solution_hash(SHORTCUT) not in chosen.selected.reference_hashes
    assert solution_hash(FORMULA) in chosen.selected.reference_hashes  # the fastest honest one


@requires_bwrap
@requires_qemu
def test_the_tasks_own_comparison_judges_and_a_split_vote_drops_the_task():
    """An order-free task: answers in another order than the candidate's are accepted (the judge
    is evaluate_offline, not equality), the one wrong answer is not. A 2/2 split is no answer."""
    head = "class Solution:\n    def f(self, n: int) -> List[int]:\n"
    up = head + "        return list(range(n))\n"
    down = head + "        return list(range(n - 1, -1, -1))\n"
    odds = head + "        return list(range(1, n, 2)) + list(range(0, n, 2))\n"
    short = head + "        return list(range(n if n < 300 else 300))\n"  # truncated at scale
    n = 400
    codes = [up, down, odds, short]
    # what the sampling stage saw them answer: three orders of one answer, and a truncation
    answers = [
        list(range(n)),
        list(range(n - 1, -1, -1)),
        list(range(1, n, 2)) + list(range(0, n, 2)),
        list(range(300)),
    ]
    any_order = record(
        "order-free",
        codes,
        returns="integer[]",
        any_order=True,
        pe_input=pe_input(n, codes, answers, list(range(n))),
    )
    split_codes = [
        FORMULA,
        LOOP,
        SHORTCUT,
        HEAD + "        return n if n > 200 else sum(range(n))\n",  # the shortcut's answer
    ]
    total = n * (n - 1) // 2
    split = record(
        "split",
        split_codes,
        pe_input=pe_input(n, split_codes, [total, total, n, n], total),
    )
    done = pe_profile_stage([any_order, split])

    (kept,) = done.records
    assert kept.slug == "order-free"
    assert [s.code for s in kept.solutions] == [up, down, odds]
    assert kept.pe_profile is not None and kept.pe_profile.answer_vote is not None
    assert kept.pe_profile.answer_vote["rule"] == "majority"
    (wrong,) = by_reason(done.rejects, "pe-wrong-answer")
    assert wrong["code"] == short and "order-free solution #3" in wrong["detail"]

    (task_row,) = [r for r in by_reason(done.rejects, "ambiguous-pe-answer") if "code" not in r]
    assert task_row["slug"] == "split"
    assert task_row["detail"].startswith(
        "split: the solutions do not agree on the performance input's answer: the judge accepts "
        "the most common one (2 gave it exactly) from 2 of 4, the other answers come from 2: "
    )
    assert "first rejected: case 0: wrong answer: got 400, expected 79800" in task_row["detail"]
    assert "neither a majority nor a clear plurality" in task_row["detail"]
    assert task_row["answer_vote"]["rule"] == "undecided"
    lost = [r for r in by_reason(done.rejects, "ambiguous-pe-answer") if "code" in r]
    assert sorted(r["code"] for r in lost) == sorted(split_codes)
    assert dict(done.counts.drops) == {"pe-wrong-answer": 1, "ambiguous-pe-answer": 1}
