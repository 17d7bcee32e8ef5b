"""A made-up task as a build's last stage reads it, for the preflight's dry run of publish
(:meth:`~quicksilver.pipeline.runner.Runner.check_publish`).

The records have the shape the stages give them (a :class:`TaskRecord` with the fields each stage
fills), so the dry run goes through the same code as the real publish stage: the rows are made by
:func:`~quicksilver.stages.publish.mercury_row` / :func:`~quicksilver.stages.publish_dpe.dpe_row`,
validated against the published features, written with the card rendered from the build's own
configuration, and read back the ways ``quicksilver publish`` and ``quicksilver score`` read
them. A mismatch anywhere in that chain then shows in seconds, before the build, instead of after
it. Tests use the same helpers to lay out small build folders.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from quicksilver.dpe.answers import answer_digest, vote
from quicksilver.meters import METERS
from quicksilver.pipeline.records import (
    CaseInput,
    Cost,
    Generator,
    PEInput,
    PEProfile,
    Profile,
    Runtime,
    Selected,
    Solution,
    Task,
    TaskRecord,
    Tests,
    Verdict,
)

SLUG = "example-sum-pair"
ENTRY = "sumPair"
META = {
    "name": ENTRY,
    "params": [{"name": "a", "type": "integer"}, {"name": "b", "type": "integer"}],
    "return": {"type": "integer"},
}
CASES: list[dict[str, Any]] = [{"input": [1, 2], "expected": 3}, {"input": [40, 2], "expected": 42}]
SOLUTIONS = [
    "class Solution:\n    def sumPair(self, a: int, b: int) -> int:\n        return a + b\n",
    "class Solution:\n"
    "    def sumPair(self, a: int, b: int) -> int:\n"
    "        total = a\n"
    "        for _ in range(b):\n"
    "            total += 1\n"
    "        return total\n",
]


def _hash(i: int, slug: str = SLUG) -> int:
    """A solution's hash: distinct per task and solution, stable, in int64."""
    return int.from_bytes(hashlib.sha256(f"{slug}#{i}".encode()).digest()[:7], "big")


def task(slug: str = SLUG, qid: str = "1", difficulty: str = "Easy") -> Task:
    """The load stage's task (``slug``, ``qid`` and ``difficulty`` for tests that need several)."""
    question = {
        "questionId": qid,
        "questionFrontendId": qid,
        "title": slug.replace("-", " ").title(),
        "titleSlug": slug,
        "content": "<p>Return <code>a + b</code>.</p>",
        "difficulty": difficulty,
        "categoryTitle": "Algorithms",
        "stats": json.dumps({"totalAccepted": None}),
        "topicTags": [{"name": "Math", "slug": "math"}],
        "similarQuestions": "[]",
        "metaData": json.dumps(META),
    }
    return Task(
        slug=slug,
        id=qid,
        source="example",
        snapshot_path=f"{slug}.json",
        snapshot_sha256=hashlib.sha256(slug.encode()).hexdigest(),
        question=question,
        meta=META,
        difficulty=difficulty,
        statement="Return a + b.",
        prompt=f"class Solution:\n    def {ENTRY}(self, a: int, b: int) -> int:\n        ",
        examples=[[1, 2]],
        known_tests=[CASES[0]],
        entry_point=ENTRY,
    )


def generator() -> Generator:
    return Generator(
        generator_code="import random\n\n\ndef generate_test_case():\n"
        "    return [random.randint(0, 50), random.randint(0, 50)]\n",
        generator_path="offline",
        generator_model="example",
    )


def solutions(slug: str = SLUG) -> list[Solution]:
    return [
        Solution(slug=slug, position=i, hash=_hash(i, slug), code=code, source="example")
        for i, code in enumerate(SOLUTIONS)
    ]


def tested(slug: str = SLUG, qid: str = "1", difficulty: str = "Easy") -> TaskRecord:
    """The task after the uniqueness stage: its tests and their expected outputs."""
    return TaskRecord(
        task=task(slug, qid, difficulty),
        solutions=solutions(slug),
        generator=generator(),
        tests=Tests(
            seed=7,
            base_seed=1,
            cases=[
                CaseInput(input=CASES[0]["input"], kind="example"),
                CaseInput(input=CASES[1]["input"], kind="generated", seed=7),
            ],
        ),
        verdict=Verdict(
            any_order=False, classification="unique", expected=[c["expected"] for c in CASES]
        ),
    )


def _cost(unit: str) -> float:
    return 2000.0 if unit == "instructions" else 0.002


def profiled(
    meter: str, unit: str, slug: str = SLUG, qid: str = "1", difficulty: str = "Easy"
) -> TaskRecord:
    """The task after the profile stage (Mercury), measured with ``meter`` (in ``unit``)."""
    rec = tested(slug, qid, difficulty)
    cost = _cost(unit)
    sols = [
        s.model_copy(
            update={
                "runtime": Runtime(
                    runtime=cost * (i + 1),
                    ci_low=cost * (i + 1),
                    ci_high=cost * (i + 1),
                    rounds=1,
                    isolation="example",
                )
            }
        )
        for i, s in enumerate(rec.solutions)
    ]
    how = Profile(
        meter=meter,
        unit=unit,
        machine_id="0" * 16,
        instruction_rate=1.0e9 if unit == "instructions" else None,
    )
    return rec.with_solutions(sols, profile=how)


def selected(meter: str, unit: str, slug: str = SLUG, qid: str = "1") -> TaskRecord:
    """The task after the select stage (DPE): two clusters, the slower first."""
    rec = tested(slug, qid)
    cost = _cost(unit)
    sols = [
        s.model_copy(
            update={
                "cost": Cost(cost=cost * (2 - i), cv=0.0, cv_classic=0.0, rounds=1),
                "cluster": i,
            }
        )
        for i, s in enumerate(reversed(rec.solutions))
    ]
    pe_input = [[1000, 1000]]
    chosen = PEInput(
        pe_input=pe_input,
        generator=0,
        generator_path="offline",
        generator_model="example",
        generator_code="def perf_input_gen(scale):\n    return (scale, scale)\n",
        generators_tried=1,
        scale=1000,
        input_sha256=hashlib.sha256(json.dumps(pe_input).encode()).hexdigest(),
        input_bytes=len(json.dumps(pe_input)),
        reference_hash=_hash(0, slug),
        reference_cost=0.001,
        stop="max-scale",
        answers={str(s.hash): answer_digest(2000) for s in sols},
        expected=[2000],  # sumPair(1000, 1000), which both solutions give
        expected_support=len(sols),
    )
    clusters = Selected(
        reference_hashes=[s.hash for s in sols],
        reference_costs=[cost * (2 - i) for i in range(len(sols))],
        scores=[50.0, 100.0],
        cluster_sizes=[1, 1],
        bias=0.2,
        w=cost / 10,
        p99_cv=0.0,
        instruction_rate=None if unit == "instructions" else 1.0e9,
        instruction_rate_source=None if unit == "instructions" else "example",
    )
    return rec.with_solutions(
        sols,
        pe_input=chosen,
        pe_profile=PEProfile(
            meter=meter,
            unit=unit,
            machine_id="0" * 16,
            answer_vote=vote(len(sols), []).to_dict(),
        ),
        selected=clusters,
    )


def mercury_record(cfg: Any) -> TaskRecord:
    """The example as the Mercury publish stage reads it: profiled with this build's meter, in
    the split the splits stage would put it (eval draws Easy first)."""
    meter = cfg.profile.measure.meter
    # an undated task never goes to a date-windowed eval
    split = "eval" if cfg.splits.eval_size and cfg.splits.eval_after is None else "train"
    return profiled(meter, METERS[meter].unit).model_copy(update={"split": split})


def dpe_record(cfg: Any) -> TaskRecord:
    """The example as the DPE publish stage reads it, measured with this build's meter."""
    meter = cfg.pe_profile.measure.meter
    return selected(meter, METERS[meter].unit)
