"""DPE stage, publish: an EvalPerf-format row per selected task (plus its correctness tests and
provenance), the valid rows written as the ``test`` split with a dataset card
(:mod:`quicksilver.publishing`; the format is :mod:`quicksilver.publishing.dpe_schema`).

A task whose row cannot be made (``row-error``) or does not fit the schema (``invalid-row``) is set
aside with its solutions; with no task left nothing is written and the build says so. The
preflight runs this stage on a made-up task before the build.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from typing import Any

from quicksilver import __version__
from quicksilver.config import DPEBuildConfig
from quicksilver.machine import machine_info
from quicksilver.pipeline.judging import evaluate_offline_for, test_cases
from quicksilver.pipeline.records import TaskRecord, json_digest
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.publishing.card import CardContext, render_dpe_card
from quicksilver.publishing.dpe_schema import DPE_FEATURES, check_dpe_row, validate_dpe_splits
from quicksilver.publishing.schema import UNRATED
from quicksilver.publishing.writer import publish_valid
from quicksilver.sources.convert import (
    convert_offline_source,
    parse_signature,
)

log = logging.getLogger(__name__)


def dpe_row(
    record: TaskRecord,
    *,
    machine: dict[str, Any],
    version: str,
    config_sha256: str,
    pe_seed: int,
) -> dict[str, Any]:
    """The EvalPerf-format row of a task at the end of the DPE build."""
    task, gen, tests, verdict, smp, how, sel = (
        record.task,
        record.generator,
        record.tests,
        record.verdict,
        record.pe_input,
        record.pe_profile,
        record.selected,
    )
    needed: dict[str, object] = {"generator": gen, "tests": tests, "verdict": verdict}
    needed |= {"pe_input": smp, "pe_profile": how, "selected": sel}
    missing = [name for name, value in needed.items() if value is None]
    if missing or gen is None or tests is None or verdict is None or smp is None:
        raise KeyError(f"the record has no {', '.join(missing)}")
    assert how is not None and sel is not None
    if smp.expected is None or how.answer_vote is None:
        # an unjudged answer on the input would let a wrong sample score: no row without one
        raise KeyError("the record has no accepted answer on its performance input")
    sig = parse_signature(task.meta)
    code_of = {int(s.hash): s for s in record.solutions}
    costs = []
    for s in record.solutions:
        assert s.cost is not None and s.cost.cost is not None and s.cluster is not None
        costs.append(
            {
                "hash": int(s.hash),
                "cost": float(s.cost.cost),
                "cv": float(s.cost.cv if s.cost.cv is not None else float("inf")),
                "cv_classic": float(
                    s.cost.cv_classic if s.cost.cv_classic is not None else float("inf")
                ),
                "rounds": int(s.cost.rounds),
                "converged": bool(s.cost.converged),
                "flags": list(s.cost.flags),
                "cluster": int(s.cluster),
                "source": str(s.source),
                "model": s.model,
            }
        )
    return {
        "task_id": task.slug,
        "reference": [code_of[int(h)].code for h in sel.reference_hashes],
        "pe_input": json.dumps(smp.pe_input, separators=(",", ":")),
        "scores": [float(s) for s in sel.scores],
        "entry_point": sig.name,
        "prompt": task.prompt,
        "id": str(task.id),
        "slug_name": task.slug,
        "difficulty": task.difficulty or UNRATED,
        "pretty_content": [task.statement],
        "task_kind": task.kind,
        # sorted keys: the form the cases have always been published in
        "test_cases": json.dumps(test_cases(record), sort_keys=True),
        "convert_offline": convert_offline_source(sig),
        "evaluate_offline": evaluate_offline_for(record),
        "pe_expected": json.dumps(smp.expected, separators=(",", ":")),
        "solutions": [],
        "source": task.source,
        "snapshot_sha256": task.snapshot_sha256,
        "answer_any_order": bool(verdict.any_order),
        "test_generator_path": gen.generator_path,
        "test_generator_model": gen.generator_model,
        "test_seed": int(tests.seed),
        "pe_generator_code": smp.generator_code,
        "pe_generator_path": smp.generator_path,
        "pe_generator_model": smp.generator_model,
        "pe_generators_tried": int(smp.generators_tried),
        "pe_scale": int(smp.scale),
        "pe_seed": int(pe_seed),
        "pe_input_bytes": int(smp.input_bytes),
        "pe_input_sha256": smp.input_sha256,
        "pe_sampling_stop": smp.stop,
        "pe_sampling_reference": int(smp.reference_hash),
        **_search_fields(smp.worst_case),
        "pe_expected_vote": json.dumps(how.answer_vote, sort_keys=True, separators=(",", ":")),
        "reference_hashes": [int(h) for h in sel.reference_hashes],
        "reference_costs": [float(c) for c in sel.reference_costs],
        "reference_peak_memory": [
            code_of[int(h)].cost.peak_memory_bytes  # type: ignore[union-attr]
            for h in sel.reference_hashes
        ],
        "cluster_sizes": [int(n) for n in sel.cluster_sizes],
        "solution_costs": costs,
        "p99_cv": float(sel.p99_cv),
        "clustering_bias": float(sel.bias),
        "clustering_w": float(sel.w),
        "instruction_rate": sel.instruction_rate,
        "instruction_rate_source": sel.instruction_rate_source,
        "cost_meter": how.meter,
        "cost_unit": how.unit,
        "machine_id": how.machine_id,
        "machine": json.dumps(dict(machine), sort_keys=True),
        "quicksilver_version": version,
        "build_config_sha256": config_sha256,
    }


def _search_fields(search: dict[str, Any] | None) -> dict[str, Any]:
    """The worst-case search's columns: the pattern chosen, its gain over random, the record."""
    if search is None:
        return {
            "pe_input_pattern": "not-searched",
            "pe_input_pattern_gain": None,
            "pe_input_search": "null",
        }
    chosen = search.get("label") or "random"
    if search.get("fallback"):
        chosen = "random"
    gain = search.get("ratio") if chosen != "random" else 1.0
    return {
        "pe_input_pattern": str(chosen),
        "pe_input_pattern_gain": None if gain is None else float(gain),
        "pe_input_search": json.dumps(search, sort_keys=True, separators=(",", ":")),
    }


def generated_notes(rows: list[dict[str, Any]], funnel: list[dict[str, Any]]) -> list[str]:
    """What the card must say about who wrote what, from the rows and the stage notes."""
    notes = []
    paths = Counter(r["pe_generator_path"] for r in rows)
    if paths and set(paths) == {"offline"}:
        notes.append(
            "Every perf_input_gen was written by the offline constraint-driven synthesizer "
            "(pe_generator_path: offline); no LLM wrote a generator."
        )
    elif paths:
        models = Counter(r["pe_generator_model"] for r in rows if r["pe_generator_path"] == "llm")
        notes.append(
            f"perf_input_gen generators: {paths['llm']} by LLMs ("
            + ", ".join(f"{m}: {n}" for m, n in models.most_common())
            + f"), {paths['offline']} by the offline synthesizer."
        )
    for stage in funnel:
        if stage.get("stage") == "candidates":
            notes += [
                str(n) for n in stage.get("notes", []) if "LLM" in str(n) or "sampled" in str(n)
            ]
    return notes


def publish_dpe(
    ctx: Context, records: list[TaskRecord], *, config: DPEBuildConfig
) -> list[TaskRecord]:
    """The rows of the selected tasks, the valid ones written to the build's folder as the
    ``test`` split; returns the records published."""
    assert ctx.root is not None
    machine = machine_info()
    config_sha = json_digest(config.digest_view())
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    for record in records:
        try:
            rows.append(
                dpe_row(
                    record,
                    machine=machine,
                    version=__version__,
                    config_sha256=config_sha,
                    pe_seed=config.sampling.seed,
                )
            )
        except Exception as exc:  # one bad record must not cost the whole dataset
            detail = f"{record.slug}: no row could be made: {type(exc).__name__}: {exc}"
            log.warning("publish: %s", detail)
            notes.append(f"{record.slug} left out: {type(exc).__name__}: {exc}")
            ctx.drop(record, "row-error", detail)
    funnel = ctx.funnel()
    card = CardContext(
        name=config.name,
        funnel=funnel,
        parameters=config.digest_view(),
        meter=rows[0]["cost_meter"] if rows else config.pe_profile.measure.meter,
        unit=rows[0]["cost_unit"] if rows else "",
        machine=machine,
        seeds={
            "test_cases": config.testcases.seed,
            "pe_inputs": config.sampling.seed,
            "dedup": config.dedup.seed,
        },
        notes=[*config.card_notes, *generated_notes(rows, funnel), *notes],
        built_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        quicksilver_version=__version__,
    )
    published = publish_valid(
        {"test": rows},
        ctx.root,
        card,
        row_problems=check_dpe_row,
        slug_field="task_id",
        features=DPE_FEATURES,
        validate=validate_dpe_splits,
        render=render_dpe_card,
    )
    by_slug = {r.slug: r for r in records}
    for slug, detail in published.set_aside.items():
        ctx.drop(by_slug[slug], "invalid-row", detail)
    for note in notes + published.notes:
        ctx.note(note)
    done = {row["task_id"] for part in published.splits.values() for row in part}
    return [r for r in records if r.slug in done]


PUBLISH_DPE = Stage(
    "publish",
    logic=publish_dpe,
    reads=("",),
    funnel=True,
    needs=(
        "generator",
        "tests",
        "verdict",
        "pe_input",
        "pe_profile",
        "selected",
        "solutions.cost",
        "solutions.cluster",
    ),
)
