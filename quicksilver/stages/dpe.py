"""The DPE build's stage drivers (flows/build_dpe.py; docs/dpe-build.md).

The correctness half is the Mercury build's, reused as is: load -> candidates (solutions sampled
from an LLM and model sample files join the snapshots') -> dedup -> filters -> generators (test
generators) -> per shard testcases -> uniqueness, which leaves the solutions that pass the task's
correctness tests in the sandbox. Then, per shard, the DPE stages:

- ``sas``: ``perf_input_gen(scale)`` generators (an LLM with quicksilver/prompts/sas.j2, or the
  offline perf synthesizer), parsed, deduplicated, each rejection recorded;
- ``sampling``: exponential input sampling in the sandbox, then the most expensive input on which
  every valid solution finishes (:mod:`quicksilver.dpe.sampling`);
- ``pe_profile``: every valid solution profiled on that input, several rounds each;

and over all shards ``select`` (EvalPerf's task filters and the adaptive clustering) and
``publish`` (EvalPerf-format rows, Parquet + HF + card).

Every stage writes its records, ``rejects`` (reason + a detail naming the task) and a manifest
whose key covers its logic, settings and inputs, exactly as the Mercury build does.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from quicksilver import __version__
from quicksilver.config import DPEBuildConfig
from quicksilver.machine import machine_info
from quicksilver.pipeline import keys
from quicksilver.stages.base import StageCounts, StageDir, json_digest, read_jsonl, write_jsonl
from quicksilver.stages.mercury import STAGE_LOGIC as MERCURY_LOGIC
from quicksilver.stages.mercury import STAGE_VERSIONS as MERCURY_VERSIONS
from quicksilver.stages.mercury import MercuryBuild

log = logging.getLogger(__name__)

DPE_STAGES = (
    "load",
    "candidates",
    "dedup",
    "filters",
    "generators",
    "testcases",
    "uniqueness",
    "sas",
    "sampling",
    "pe_profile",
    "select",
    "publish",
)
DPE_VERSIONS = {
    **{k: v for k, v in MERCURY_VERSIONS.items() if k in DPE_STAGES},
    "candidates": "1",
    "sas": "1",
    "sampling": "1",
    "pe_profile": "1",
    "select": "1",
    "publish": "1",
}
DPE_LOGIC = {
    **{k: v for k, v in MERCURY_LOGIC.items() if k in DPE_STAGES},
    "candidates": ["quicksilver.stages.dpe_stages"],
    "sas": ["quicksilver.stages.dpe_stages"],
    "sampling": ["quicksilver.stages.dpe_stages"],
    "pe_profile": ["quicksilver.stages.dpe_stages"],
    "select": ["quicksilver.stages.dpe_stages"],
    "publish": ["quicksilver.stages.dpe_stages", "quicksilver.publishing.writer"],
}
DPE_SHARDED = ("testcases", "uniqueness", "sas", "sampling", "pe_profile")


class DPEBuild(MercuryBuild):
    STAGES = DPE_STAGES
    SHARDED = DPE_SHARDED
    STAGE_VERSIONS = DPE_VERSIONS
    TITLE = "DPE build"
    cfg: DPEBuildConfig

    def code_digest(self, stage: str) -> str:
        return keys.code_digest(DPE_LOGIC[stage])

    # -- layout ---------------------------------------------------------------------------------

    def _sections(self, stage: str) -> Any:
        c = self.cfg
        sandbox = c.pe_profile.sandbox.model_dump(mode="json")
        dpe = {
            "candidates": c.candidates.model_dump(mode="json"),
            "sas": c.sas.model_dump(mode="json"),
            "sampling": {**c.sampling.model_dump(mode="json"), "sandbox": sandbox},
            "pe_profile": {
                **c.pe_profile.model_dump(mode="json"),
                "finish": c.sampling.finish_cpu_seconds,
                "memory": c.sampling.memory_mb,
            },
            "select": c.selection.model_dump(mode="json"),
            "publish": {"name": c.name, "all": c.digest_view()},
        }
        if stage in dpe:
            return dpe[stage]
        return super()._sections(stage)

    def inputs(self, stage: str, part: str = "") -> list[Path]:
        d = self.dir
        if stage == "candidates":
            return [d("load").file("tasks.jsonl"), d("load").file("solutions.jsonl")]
        if stage == "dedup":
            return [d("candidates").file("solutions.jsonl")]
        uq = [
            d("generators").file("tasks.jsonl"),
            d("uniqueness").file(f"{part}.jsonl"),
            d("uniqueness").file(f"{part}.solutions.jsonl"),
        ]
        if stage == "sas":
            return uq
        if stage == "sampling":
            return [*uq, d("sas").file(f"{part}.jsonl")]
        if stage == "pe_profile":
            return [*uq, d("sampling").file(f"{part}.jsonl")]
        if stage == "select":
            return [
                d("pe_profile").file(f"{p}{s}")
                for p in self.shard_names()
                for s in (".jsonl", ".solutions.jsonl")
            ]
        if stage == "publish":
            return [
                d("select").file("tasks.jsonl"),
                *[d("sampling").file(f"{p}.jsonl") for p in self.shard_names()],
                *[d("sas").file(f"{p}.jsonl") for p in self.shard_names()],
            ]
        return super().inputs(stage, part)

    # -- stages ---------------------------------------------------------------------------------

    def run_candidates(self) -> dict:
        from quicksilver.stages.dpe_stages import candidates_stage

        def body(sd: StageDir) -> StageCounts:
            out = candidates_stage(
                read_jsonl(self.dir("load").file("tasks.jsonl")),
                read_jsonl(self.dir("load").file("solutions.jsonl")),
                self.cfg.candidates,
                sandbox=self.cfg.pe_profile.sandbox,
            )
            write_jsonl(sd.file("solutions.jsonl"), out["solutions"])
            write_jsonl(sd.file("rejects.jsonl"), out["rejects"])
            return out["counts"]

        return self._run("candidates", body)

    def _uq(self, part: str, slugs: list[str]) -> tuple[list[dict], list[dict], list[dict]]:
        """(tasks, uniqueness records, valid solutions) of a shard."""
        return (
            self._select("tasks.jsonl", slugs),
            read_jsonl(self.dir("uniqueness").file(f"{part}.jsonl")),
            read_jsonl(self.dir("uniqueness").file(f"{part}.solutions.jsonl")),
        )

    def run_sas(self, part: str, slugs: list[str]) -> dict:
        from quicksilver.stages.dpe_stages import sas_shard

        def body(sd: StageDir) -> StageCounts:
            tasks, records, sols = self._uq(part, slugs)
            out = sas_shard(tasks, records, sols, self.cfg.sas)
            write_jsonl(sd.file(f"{part}.jsonl"), out["records"])
            write_jsonl(sd.file(f"{part}.rejects.jsonl"), out["rejects"])
            return out["counts"]

        return self._run("sas", body, part, slugs)

    def run_sampling(self, part: str, slugs: list[str]) -> dict:
        from quicksilver.stages.dpe_stages import sampling_shard

        def body(sd: StageDir) -> StageCounts:
            tasks, records, sols = self._uq(part, slugs)
            out = sampling_shard(
                tasks,
                records,
                sols,
                read_jsonl(self.dir("sas").file(f"{part}.jsonl")),
                self.cfg.sampling,
                sandbox=self.cfg.pe_profile.sandbox,
            )
            write_jsonl(sd.file(f"{part}.jsonl"), out["records"])
            write_jsonl(sd.file(f"{part}.rejects.jsonl"), out["rejects"])
            return out["counts"]

        return self._run("sampling", body, part, slugs)

    def run_pe_profile(self, part: str, slugs: list[str]) -> dict:
        from quicksilver.stages.dpe_stages import pe_profile_shard

        def body(sd: StageDir) -> StageCounts:
            tasks, _records, sols = self._uq(part, slugs)
            out = pe_profile_shard(
                tasks,
                sols,
                read_jsonl(self.dir("sampling").file(f"{part}.jsonl")),
                self.cfg.pe_profile,
                self.cfg.sampling,
            )
            write_jsonl(sd.file(f"{part}.jsonl"), out["records"])
            write_jsonl(sd.file(f"{part}.solutions.jsonl"), out["solutions"])
            write_jsonl(sd.file(f"{part}.rejects.jsonl"), out["rejects"])
            return out["counts"]

        return self._run("pe_profile", body, part, slugs)

    def run_select(self) -> dict:
        from quicksilver.stages.dpe_stages import select_stage

        def body(sd: StageDir) -> StageCounts:
            records, sols = [], []
            for name in self.shard_names():
                records += read_jsonl(self.dir("pe_profile").file(f"{name}.jsonl"))
                sols += read_jsonl(self.dir("pe_profile").file(f"{name}.solutions.jsonl"))
            out = select_stage(records, sols, self.cfg.selection)
            write_jsonl(sd.file("tasks.jsonl"), out["records"])
            write_jsonl(sd.file("rejects.jsonl"), out["rejects"])
            return out["counts"]

        return self._run("select", body)

    def publish_dpe_dataset(
        self,
        selected: list[dict[str, Any]],
        inputs: Mapping[str, Mapping[str, dict[str, Any]]],
        funnel: list[dict[str, Any]],
        *,
        machine: dict[str, Any],
        out_dir: Path,
    ) -> tuple[StageCounts, list[dict[str, Any]]]:
        """EvalPerf-format rows of the selected tasks, then the valid ones written to ``out_dir``
        as the ``test`` split (see :func:`~quicksilver.publishing.writer.publish_valid`): its
        counts and rejects. ``inputs``: the records :func:`dpe_rows` reads, by slug (``tasks``,
        ``uniqueness``, ``test_generators``, ``sas``, ``sampled``).

        A task whose row cannot be made (``row-error``) or does not fit the schema
        (``invalid-row``) is set aside with its solutions; with no task left nothing is written
        and the build says so. The preflight runs this on an example (:meth:`check_publish`).
        """
        from quicksilver.publishing.card import render_dpe_card
        from quicksilver.publishing.dpe_schema import (
            DPE_FEATURES,
            check_dpe_row,
            validate_dpe_splits,
        )
        from quicksilver.publishing.writer import publish_valid, row_rejects
        from quicksilver.stages.dpe_stages import dpe_rows

        counts = StageCounts(
            "publish",
            tasks_in=len(selected),
            solutions_in=sum(len(sel.get("solutions") or []) for sel in selected),
        )
        rejects: list[dict[str, Any]] = []
        rows: list[dict[str, Any]] = []
        for sel in selected:
            try:
                rows += dpe_rows(
                    [sel],
                    **inputs,
                    machine=machine,
                    version=__version__,
                    config_sha256=json_digest(self.cfg.digest_view()),
                    pe_seed=self.cfg.sampling.seed,
                )
            except Exception as exc:  # one bad record must not cost the whole dataset
                slug = str(sel.get("slug"))
                detail = f"{slug}: no row could be made: {type(exc).__name__}: {exc}"
                log.warning("publish: %s", detail)
                counts.notes.append(f"{slug} left out: {type(exc).__name__}: {exc}")
                lost = [
                    {"hash": s["hash"], "solution": s.get("code")}
                    for s in sel.get("solutions") or []
                ]
                rejects += row_rejects(slug, lost, "row-error", detail)
        meter = rows[0]["cost_meter"] if rows else self.cfg.pe_profile.measure.meter
        unit = rows[0]["cost_unit"] if rows else ""
        card = self.card_context(
            funnel,
            meter,
            unit,
            machine,
            seeds={"pe_inputs": self.cfg.sampling.seed},
            notes=[*self.cfg.card_notes, *_generated_notes(rows, funnel), *counts.notes],
        )
        published = publish_valid(
            {"test": rows},
            out_dir,
            card,
            row_problems=check_dpe_row,
            solutions_field="solution_costs",
            slug_field="task_id",
            features=DPE_FEATURES,
            validate=validate_dpe_splits,
            render=render_dpe_card,
        )
        rejects += published.rejects
        counts.notes += published.notes
        for r in rejects:
            if "hash" not in r:
                counts.drops[r["reason"]] += 1
        out = [row for part in published.splits.values() for row in part]
        counts.tasks_out = len(out)
        counts.solutions_out = sum(len(row["solution_costs"]) for row in out)
        return counts, rejects

    def run_publish(self, funnel: list[dict[str, Any]]) -> dict:
        def body(sd: StageDir) -> StageCounts:
            names = self.shard_names()

            def by_slug(stage: str, suffix: str = ".jsonl") -> dict[str, dict[str, Any]]:
                return {
                    r["slug"]: r
                    for p in names
                    for r in read_jsonl(self.dir(stage).file(f"{p}{suffix}"))
                }

            inputs = {
                "tasks": {
                    t["slug"]: t for t in read_jsonl(self.dir("generators").file("tasks.jsonl"))
                },
                "uniqueness": by_slug("uniqueness"),
                "test_generators": {
                    g["slug"]: g
                    for g in read_jsonl(self.dir("generators").file("generators.jsonl"))
                },
                "sas": by_slug("sas"),
                "sampled": by_slug("sampling"),
            }
            counts, rejects = self.publish_dpe_dataset(
                read_jsonl(self.dir("select").file("tasks.jsonl")),
                inputs,
                funnel,
                machine=machine_info(),
                out_dir=self.root,
            )
            write_jsonl(sd.file("rejects.jsonl"), rejects)
            return counts

        return self._run("publish", body)

    def _publish_example(self, out_dir: Path) -> tuple[StageCounts, list[dict[str, Any]]]:
        """:meth:`publish_dpe_dataset` of the example task (quicksilver/stages/example.py),
        measured with this build's profiling meter."""
        from quicksilver.meters import METERS
        from quicksilver.stages import example

        meter = self.cfg.pe_profile.measure.meter
        slug = example.SLUG
        inputs: dict[str, Mapping[str, dict[str, Any]]] = {
            "tasks": {slug: example.task()},
            "uniqueness": {slug: example.uniqueness_record()},
            "test_generators": {slug: example.generator()},
            "sas": {slug: {"slug": slug}},
            "sampled": {slug: example.sampling_record()},
        }
        return self.publish_dpe_dataset(
            [example.selected_record(meter, METERS[meter].unit)],
            inputs,
            example.funnel(self.STAGES),
            machine=machine_info(),
            out_dir=out_dir,
        )


def _generated_notes(rows: list[dict[str, Any]], funnel: list[dict[str, Any]]) -> list[str]:
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
