"""A made-up task as the stages hand it to publish, for the preflight's dry run of the publish
stage (:meth:`MercuryBuild.check_publish`, :meth:`DPEBuild.check_publish`).

The records have the shapes the stages write (generators, uniqueness, profile, sampling and
select records, and their solutions), so the dry run goes through the same code as the real
publish stage: the rows are made by :func:`~quicksilver.stages.rows.mercury_row` /
:func:`~quicksilver.stages.dpe_stages.dpe_rows`, validated against the published features,
written with the card rendered from the build's own configuration, and read back the ways
``quicksilver publish`` and ``quicksilver score`` read them. A mismatch anywhere in that chain then
shows in seconds, before the build, instead of after it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from quicksilver.stages.base import StageCounts

SLUG = "example-sum-pair"
ENTRY = "sumPair"
META = {
    "name": ENTRY,
    "params": [{"name": "a", "type": "integer"}, {"name": "b", "type": "integer"}],
    "return": {"type": "integer"},
}
CASES = [{"input": [1, 2], "expected": 3}, {"input": [40, 2], "expected": 42}]
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


def task(slug: str = SLUG, qid: str = "1", difficulty: str = "Easy") -> dict[str, Any]:
    """A generators-stage task record (``slug``, ``qid`` and ``difficulty`` for tests that need
    several tasks)."""
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
    return {
        "slug": slug,
        "id": qid,
        "source": "example",
        "snapshot_path": f"{slug}.json",
        "snapshot_sha256": hashlib.sha256(slug.encode()).hexdigest(),
        "question": question,
        "meta": META,
        "difficulty": difficulty,
        "statement": "Return a + b.",
        "prompt": f"class Solution:\n    def {ENTRY}(self, a: int, b: int) -> int:\n        ",
        "examples": [[1, 2]],
        "example_error": None,
        "known_tests": [CASES[0]],
        "entry_point": ENTRY,
    }


def generator(slug: str = SLUG) -> dict[str, Any]:
    """A generators-stage generator record."""
    return {
        "slug": slug,
        "generator_code": "import random\n\n\ndef generate_test_case():\n"
        "    return [random.randint(0, 50), random.randint(0, 50)]\n",
        "generator_path": "offline",
        "generator_model": "example",
    }


def solutions(slug: str = SLUG) -> list[dict[str, Any]]:
    """The task's solutions as the stages carry them."""
    return [
        {
            "slug": slug,
            "position": i,
            "hash": _hash(i, slug),
            "code": code,
            "source": "example",
            "model": None,
            "url": None,
            "runtime_reported": None,
            "lang": "python3",
        }
        for i, code in enumerate(SOLUTIONS)
    ]


def uniqueness_record(slug: str = SLUG) -> dict[str, Any]:
    return {
        "slug": slug,
        "any_order": False,
        "classification": "unique",
        "test_cases": CASES,
        "case_kinds": ["example", "generated"],
        "case_seeds": [None, 7],
        "seed": 7,
        "base_seed": 1,
        "n_generated": 1,
        "n_examples": 1,
        "solutions": [_hash(i, slug) for i in range(len(SOLUTIONS))],
    }


def _rate(unit: str) -> float | None:
    return 1.0e9 if unit == "instructions" else None


def profile_record(meter: str, unit: str, slug: str = SLUG) -> dict[str, Any]:
    """A profile-stage record measured with ``meter`` (in ``unit``)."""
    cost = 2000.0 if unit == "instructions" else 0.002
    return {
        **uniqueness_record(slug),
        "runtimes": [
            {
                "hash": _hash(i, slug),
                "runtime": cost * (i + 1),
                "ci_low": cost * (i + 1),
                "ci_high": cost * (i + 1),
                "rounds": 1,
                "converged": True,
                "flags": [],
                "isolation": "example",
            }
            for i in range(len(SOLUTIONS))
        ],
        "meter": meter,
        "unit": unit,
        "machine_id": "0" * 16,
        "instruction_rate": _rate(unit),
    }


def sampling_record(slug: str = SLUG) -> dict[str, Any]:
    pe_input = [[1000, 1000]]
    return {
        "slug": slug,
        "pe_input": pe_input,
        "generator": 0,
        "generator_path": "offline",
        "generator_model": "example",
        "generator_code": "def perf_input_gen(scale):\n    return (scale, scale)\n",
        "generators_tried": 1,
        "scale": 1000,
        "input_sha256": hashlib.sha256(json.dumps(pe_input).encode()).hexdigest(),
        "input_bytes": len(json.dumps(pe_input)),
        "reference_hash": _hash(0, slug),
        "reference_cost": 0.001,
        "stop": "max-scale",
    }


def selected_record(meter: str, unit: str, slug: str = SLUG) -> dict[str, Any]:
    """A select-stage record: two clusters, the slower first."""
    cost = 2000.0 if unit == "instructions" else 0.002
    sols = [
        {
            **{k: s[k] for k in ("hash", "position", "source", "model", "code")},
            "cost": cost * (2 - i),
            "cv": 0.0,
            "cv_classic": 0.0,
            "rounds": 1,
            "converged": True,
            "flags": [],
            "cluster": i,
        }
        for i, s in enumerate(reversed(solutions(slug)))
    ]
    return {
        "slug": slug,
        "meter": meter,
        "unit": unit,
        "machine_id": "0" * 16,
        "reference_hashes": [s["hash"] for s in sols],
        "reference_costs": [s["cost"] for s in sols],
        "scores": [50.0, 100.0],
        "cluster_sizes": [1, 1],
        "bias": 0.2,
        "w": cost / 10,
        "p99_cv": 0.0,
        "instruction_rate": None if unit == "instructions" else 1.0e9,
        "instruction_rate_source": None if unit == "instructions" else "example",
        "solutions": sols,
    }


def funnel(stages: tuple[str, ...]) -> list[dict[str, Any]]:
    """A funnel row per stage, with drops of every kind the card shows (a task with its
    solutions, a solution on its own, an input)."""
    rows = []
    for stage in stages:
        counts = StageCounts(stage, 3, 1, 9, 2, notes=[f"{stage}: an example note"])
        counts.drops.update({"example-task": 1, "example-solution": 3, "example-input": 2})
        rows.append(
            {
                **counts.to_dict(),
                "drop_tasks": {"example-task": 1},
                "drop_solutions": {"example-task": 4, "example-solution": 3},
                "seconds": 1.0,
            }
        )
    return rows
