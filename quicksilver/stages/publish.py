"""Stage 9, publish (Mercury): a Mercury row per task, then the valid rows written as Parquet per
split, ``save_to_disk`` and a dataset card (:mod:`quicksilver.publishing`).

The field meanings follow the published Mercury dataset (see docs/publishing.md), so rows load and
score with the original tooling and with ``quicksilver score``. Where ours differ, it is said here:

- ``solutions[].runtime`` is the runtime measured by this build (the cost of the whole test set
  on the build machine, ``runtime_meter`` / ``runtime_unit``), in whole milliseconds as the
  judge writes them ("76ms"), for every solution alike: an instruction count (the default
  ``icount`` meter) is converted at the build machine's measured ``instruction_rate``;
  ``reference_runtimes`` keep the exact counts. A runtime the judge reported with a scraped
  solution is kept in ``solution_provenance[].runtime_reported``;
- ``solutions[].solution`` is self-contained beyond the names Mercury's evaluator injects: the
  load stage added the imports a solution needed for others (``Counter``, ``SortedList``, ...:
  :mod:`quicksilver.selfcontained`), listed in ``solution_provenance[].imports_added``;
- ``convert_online`` formats a case as LeetCode's judge takes it (one JSON value per line);
- ``judge_limits`` carries the limits the testcases stage judged the references by (the CPU
  each call may take, the judge's budget for the whole test set), which ``quicksilver score``
  applies to samples;
- ``evaluate_offline`` compares in any order when the uniqueness stage found the answer
  order-free (``answer_any_order``), with a tolerance for ``double`` answers.

From the train rows the stage also writes the training views (``sft``, ``dpo``:
:mod:`~quicksilver.publishing.views`, settings in ``views``), beside the splits.

A task whose row cannot be made (``row-error``) or does not fit the schema (``invalid-row``) is
set aside with its solutions; the others are published (:func:`~quicksilver.publishing.writer.
publish_valid`). The preflight runs this stage on a made-up task before the build
(:meth:`~quicksilver.pipeline.runner.Runner.check_publish`).
"""

from __future__ import annotations

import json
import logging
import math
import time
from typing import Any

from quicksilver import __version__
from quicksilver.config import BuildConfig
from quicksilver.machine import machine_info
from quicksilver.pipeline.judging import evaluate_offline_for, test_cases
from quicksilver.pipeline.records import Profile, Runtime, TaskRecord, json_digest
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.publishing.card import CardContext
from quicksilver.publishing.schema import UNRATED
from quicksilver.publishing.views import training_views
from quicksilver.publishing.writer import publish_valid
from quicksilver.sources.convert import convert_offline_source, parse_signature

log = logging.getLogger(__name__)

CONVERT_ONLINE = '''def convert_online(case):
    """The case as LeetCode's judge takes it: one JSON value per parameter, one per line."""
    import json
    inputs, expected = case
    return "\\n".join(json.dumps(x) for x in inputs), expected
'''

UNIT_SCALE_MS = {"s": 1e3, "ms": 1.0, "us": 1e-3, "ns": 1e-6}


def format_runtime(value: float, unit: str, *, instruction_rate: float | None = None) -> str:
    """A measured runtime as LeetCode's judge writes it: whole milliseconds ("76ms", "0ms" below
    half a millisecond), so the Mercury authors' own tooling reads it (their DPO script parses
    ``int(runtime[:-2])``). The exact figures stay in ``reference_runtimes``. An instruction count
    becomes the time it takes at this machine's measured ``instruction_rate`` (instructions per
    CPU second); without a rate it keeps its unit."""
    if unit == "instructions" and instruction_rate:
        value, unit = value / instruction_rate, "s"
    if unit in UNIT_SCALE_MS:
        ms = value * UNIT_SCALE_MS[unit]
        if not math.isfinite(ms):  # the row's schema check names it (reference_runtimes)
            return f"{ms}ms"
        return f"{max(0, math.floor(ms + 0.5))}ms"
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
    record: TaskRecord, *, machine: dict[str, Any], version: str, config_sha256: str
) -> dict[str, Any]:
    """The published row of a task at the end of the Mercury build."""
    task, generator, tests, verdict, how = (
        record.task,
        record.generator,
        record.tests,
        record.verdict,
        record.profile,
    )
    if generator is None or tests is None or verdict is None or how is None:
        missing = [
            name
            for name in ("generator", "tests", "verdict", "profile")
            if getattr(record, name) is None
        ]
        raise KeyError(f"the record has no {', '.join(missing)}")
    sig = parse_signature(task.meta)
    sols = sorted((s for s in record.solutions if s.runtime is not None), key=lambda s: s.position)
    runtimes = {s.hash: s.runtime for s in sols if s.runtime is not None}
    unit = how.unit
    return {
        "id": str(task.id),
        "slug_name": task.slug,
        "meta_info": meta_info(task.question),
        "difficulty": task.difficulty or UNRATED,
        "pretty_content": [task.statement],
        "solutions": [
            {
                "hash": int(s.hash),
                "runtime": format_runtime(
                    runtimes[s.hash].runtime, unit, instruction_rate=how.instruction_rate
                ),
                "solution": s.code,
            }
            for s in sols
        ],
        "prompt": task.prompt,
        "entry_point": sig.name,
        "generator_code": generator.generator_code,
        # sorted keys: the form the cases have always been published in
        "test_cases": json.dumps(test_cases(record), ensure_ascii=False, sort_keys=True),
        "convert_online": CONVERT_ONLINE,
        "convert_offline": convert_offline_source(sig),
        "evaluate_offline": evaluate_offline_for(record),
        # provenance
        "source": task.source,
        "snapshot_sha256": task.snapshot_sha256,
        "generator_path": generator.generator_path,
        "generator_model": generator.generator_model,
        "test_seed": int(tests.seed),
        "n_generated_cases": int(tests.n_generated),
        "n_example_cases": int(tests.n_examples),
        "answer_any_order": bool(verdict.any_order),
        "solution_provenance": [
            {
                "hash": int(s.hash),
                "source": s.source,
                "model": s.model,
                "url": s.url,
                "runtime_reported": s.runtime_reported,
                "imports_added": list(s.imports_added),
            }
            for s in sols
        ],
        "runtime_meter": how.meter,
        "runtime_unit": unit,
        "instruction_rate": how.instruction_rate,
        "reference_runtimes": [
            {
                "hash": int(s.hash),
                "runtime": float(runtimes[s.hash].runtime),
                "ci_low": float(runtimes[s.hash].ci_low),
                "ci_high": float(runtimes[s.hash].ci_high),
                "rounds": int(runtimes[s.hash].rounds),
                "converged": bool(runtimes[s.hash].converged),
                "flags": list(runtimes[s.hash].flags),
            }
            for s in sols
        ],
        "reference_peak_memory": [
            {
                "hash": int(s.hash),
                "peak_memory_bytes": runtimes[s.hash].peak_memory_bytes,
                "case_peak_memory_bytes": list(runtimes[s.hash].case_peak_memory_bytes),
            }
            for s in sols
        ],
        "machine_id": how.machine_id,
        # what affects measured cost; the hostname is left out (it identifies, it does not measure)
        "machine": json.dumps(
            {k: v for k, v in machine.items() if k != "hostname"}, sort_keys=True
        ),
        "quicksilver_version": version,
        "build_config_sha256": config_sha256,
        "release_date": task.release_date,
        "release_date_source": task.release_date_source,
        **shipped_counts(how, [(s.hash, runtimes[s.hash]) for s in sols]),
        "judge_limits": judge_limits(tests.call_limits, tests.budget),
    }


def judge_limits(call_limits: dict[str, Any], budget: dict[str, Any]) -> dict[str, Any]:
    """The limits the testcases stage judged the references by (its record's ``call_limits`` and
    ``budget``), as ``quicksilver score`` applies them to a sample: each call (and the load)
    within ``call_seconds`` (the ceiling), the whole test set within ``test_set_seconds`` (the
    judge's budget); the rest is provenance (docs/profiler.md, "Limits from the row"). Nulls
    for a record without them."""

    def seconds(section: dict[str, Any], key: str) -> float | None:
        value = section.get(key)
        return float(value) if isinstance(value, int | float) else None

    return {
        "call_seconds": seconds(call_limits, "ceiling_seconds"),
        "call_floor_seconds": seconds(call_limits, "floor_seconds"),
        "test_set_seconds": seconds(budget, "judge_seconds"),
        "budget_seconds": seconds(budget, "budget_seconds"),
        "cost_seconds": seconds(budget, "cost_seconds"),
    }


def shipped_counts(how: Profile, runs: list[tuple[int, Runtime]]) -> dict[str, Any]:
    """What lets ``quicksilver score`` reuse the references' counts on a machine that counts
    alike: the count environment's digest and parts (null unless icount), and what scoring
    reads of a reference besides its count (quicksilver/scoring/shipped.py)."""
    env = how.count_environment
    return {
        "count_fingerprint": env["digest"] if env else None,
        "count_environment": json.dumps(
            {"compared": env["compared"], "informational": env["informational"]}, sort_keys=True
        )
        if env
        else None,
        "reference_memory_detail": [
            {
                "hash": int(h),
                "memory_baseline_bytes": run.memory_baseline_bytes,
                "tmu": run.tmu,
                "tmu_samples": run.tmu_samples,
            }
            for h, run in runs
        ],
    }


def stage_notes(funnel: list[dict[str, Any]], stage: str) -> list[str]:
    """What an earlier stage noted (the splits stage's notes go into the card)."""
    return [str(n) for row in funnel if row.get("stage") == stage for n in row.get("notes", [])]


def publish(ctx: Context, records: list[TaskRecord], *, config: BuildConfig) -> list[TaskRecord]:
    """The rows of the tasks, their splits as the splits stage set them, the valid ones written
    to the build's folder; returns the records published."""
    assert ctx.root is not None
    machine = machine_info()
    config_sha = json_digest(config.digest_view())
    rows: dict[str, dict[str, Any]] = {}
    notes: list[str] = []
    for record in records:
        try:
            rows[record.slug] = mercury_row(
                record, machine=machine, version=__version__, config_sha256=config_sha
            )
        except Exception as exc:  # one bad record must not cost the whole dataset
            detail = f"{record.slug}: no row could be made: {type(exc).__name__}: {exc}"
            log.warning("publish: %s", detail)
            notes.append(f"{record.slug} left out: {type(exc).__name__}: {exc}")
            ctx.drop(record, "row-error", detail)
    splits: dict[str, list[dict[str, Any]]] = {}
    for record in records:  # in the splits stage's order: train, then eval
        if record.split is not None and record.slug in rows:
            splits.setdefault(record.split, []).append(rows[record.slug])
        elif record.split is not None:
            splits.setdefault(record.split, [])
    first = records[0].profile if records else None
    funnel = ctx.funnel()
    card = CardContext(
        name=config.name,
        funnel=funnel,
        parameters=config.digest_view(),
        meter=first.meter if first else config.profile.measure.meter,
        unit=first.unit if first else "",
        machine=machine,
        seeds={
            "test_cases": config.testcases.seed,
            "splits": config.splits.seed,
            "dedup": config.dedup.seed,
        },
        notes=[*stage_notes(funnel, "splits"), *notes],
        built_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        quicksilver_version=__version__,
    )
    published = publish_valid(
        splits, ctx.root, card, views=lambda kept: training_views(kept, config.views)
    )
    by_slug = {r.slug: r for r in records}
    for slug, detail in published.set_aside.items():
        ctx.drop(by_slug[slug], "invalid-row", detail)
    for note in notes + published.notes:
        ctx.note(note)
    done = {row["slug_name"] for part in published.splits.values() for row in part}
    return [r for r in records if r.slug in done]


PUBLISH = Stage(
    "publish",
    logic=publish,
    reads=("",),
    funnel=True,
    needs=("generator", "tests", "verdict", "profile", "split", "solutions.runtime"),
)
