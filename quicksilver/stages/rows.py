"""Mercury rows from the stages' records: Mercury's published fields plus provenance columns.

The field meanings follow the published Mercury dataset (see docs/publishing.md), so rows load and
score with the original tooling and with ``quicksilver score``. Where ours differ, it is said here:

- ``solutions[].runtime`` is the runtime measured by this build (the cost of the whole test set
  on the build machine, ``runtime_meter`` / ``runtime_unit``), formatted like the judge's
  ("1.23ms"), for every solution alike: an instruction count (the default ``icount`` meter) is
  converted at the build machine's measured ``instruction_rate``; ``reference_runtimes`` keep the
  exact counts. A runtime the judge reported with a scraped solution is kept in
  ``solution_provenance[].runtime_reported``;
- ``convert_online`` formats a case as LeetCode's judge takes it (one JSON value per line);
- ``evaluate_offline`` compares in any order when the uniqueness stage found the answer
  order-free (``answer_any_order``), with a tolerance for ``double`` answers.
"""

from __future__ import annotations

import json
from typing import Any

from quicksilver.sources.convert import (
    convert_offline_source,
    evaluate_offline_source,
    parse_signature,
)

CONVERT_ONLINE = '''def convert_online(case):
    """The case as LeetCode's judge takes it: one JSON value per parameter, one per line."""
    import json
    inputs, expected = case
    return "\\n".join(json.dumps(x) for x in inputs), expected
'''

UNIT_SCALE_MS = {"s": 1e3, "ms": 1.0, "us": 1e-3, "ns": 1e-6}


def format_runtime(value: float, unit: str, *, instruction_rate: float | None = None) -> str:
    """A measured runtime as the judge writes it ("76ms"). An instruction count becomes the time
    it takes at this machine's measured ``instruction_rate`` (instructions per CPU second);
    without a rate it keeps its unit."""
    if unit == "instructions" and instruction_rate:
        value, unit = value / instruction_rate, "s"
    if unit in UNIT_SCALE_MS:
        ms = value * UNIT_SCALE_MS[unit]
        return f"{ms:.3g}ms"
    return f"{value:.4g} {unit}"


def meta_info(question: dict[str, Any]) -> dict[str, Any]:
    """The GraphQL answer shape Mercury stores in ``meta_info``."""
    return {
        "data": {
            "question": {
                "questionId": str(question.get("questionId") or ""),
                "questionFrontendId": str(question.get("questionFrontendId") or ""),
                "questionTitle": question.get("title") or "",
                "questionTitleSlug": question.get("titleSlug") or "",
                "content": question.get("content") or "",
                "difficulty": question.get("difficulty") or "",
                "categoryTitle": question.get("categoryTitle") or "Algorithms",
                "stats": question.get("stats") or "{}",
                "topicTags": [
                    {"name": t.get("name", ""), "slug": t.get("slug", "")}
                    for t in question.get("topicTags") or []
                ],
                "similarQuestions": question.get("similarQuestions") or "[]",
            }
        }
    }


def mercury_row(
    task: dict[str, Any],
    generator: dict[str, Any],
    record: dict[str, Any],
    solutions: list[dict[str, Any]],
    *,
    machine: dict[str, Any],
    version: str,
    config_sha256: str,
) -> dict[str, Any]:
    sig = parse_signature(task["meta"])
    runtimes = {r["hash"]: r for r in record["runtimes"]}
    sols = sorted((s for s in solutions if s["hash"] in runtimes), key=lambda s: s["position"])
    unit = record["unit"]
    return {
        "id": str(task["id"]),
        "slug_name": task["slug"],
        "meta_info": meta_info(task["question"]),
        "difficulty": task["difficulty"],
        "pretty_content": [task["statement"]],
        "solutions": [
            {
                "hash": int(s["hash"]),
                "runtime": format_runtime(
                    runtimes[s["hash"]]["runtime"],
                    unit,
                    instruction_rate=record.get("instruction_rate"),
                ),
                "solution": s["code"],
            }
            for s in sols
        ],
        "prompt": task["prompt"],
        "entry_point": sig.name,
        "generator_code": generator["generator_code"],
        "test_cases": json.dumps(record["test_cases"], ensure_ascii=False),
        "convert_online": CONVERT_ONLINE,
        "convert_offline": convert_offline_source(sig),
        "evaluate_offline": evaluate_offline_source(sig, any_order=bool(record["any_order"])),
        # provenance
        "source": task["source"],
        "snapshot_sha256": task["snapshot_sha256"],
        "generator_path": generator["generator_path"],
        "generator_model": generator["generator_model"],
        "test_seed": int(record["seed"]),
        "n_generated_cases": int(record["n_generated"]),
        "n_example_cases": int(record["n_examples"]),
        "answer_any_order": bool(record["any_order"]),
        "solution_provenance": [
            {
                "hash": int(s["hash"]),
                "source": s["source"],
                "model": s.get("model"),
                "url": s.get("url"),
                "runtime_reported": s.get("runtime_reported"),
            }
            for s in sols
        ],
        "runtime_meter": record["meter"],
        "runtime_unit": unit,
        "instruction_rate": record.get("instruction_rate"),
        "reference_runtimes": [
            {
                "hash": int(s["hash"]),
                "runtime": float(runtimes[s["hash"]]["runtime"]),
                "ci_low": float(runtimes[s["hash"]]["ci_low"]),
                "ci_high": float(runtimes[s["hash"]]["ci_high"]),
                "rounds": int(runtimes[s["hash"]]["rounds"]),
                "converged": bool(runtimes[s["hash"]].get("converged", True)),
                "flags": list(runtimes[s["hash"]].get("flags") or []),
            }
            for s in sols
        ],
        "machine_id": record["machine_id"],
        # what affects measured cost; the hostname is left out (it identifies, it does not measure)
        "machine": json.dumps(
            {k: v for k, v in machine.items() if k != "hostname"}, sort_keys=True
        ),
        "quicksilver_version": version,
        "build_config_sha256": config_sha256,
    }
