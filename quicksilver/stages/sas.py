"""DPE stage, sas: ``perf_input_gen(scale)`` generators per task (docs/sas.md).

With an LLM endpoint (``sas.llm``; ``sas.mode`` llm or auto), Synthesizing a Synthesizer: the
paper's few-shot prompt, ``n`` answers parsed, deduplicated, each rejection recorded
(:class:`quicksilver.dpe.sas.SaSSynthesizer`); offline (or when the LLM gives nothing usable in
``auto``), the constraint-driven perf synthesizer (:func:`quicksilver.dpe.sas.offline_sas`). A
task without a generator is dropped (``needs-llm-generator``, ``no-perf-generator``) with its
solutions.
"""

from __future__ import annotations

from typing import Any

from quicksilver.config import SaSSection
from quicksilver.pipeline.records import PerfGenerators, TaskRecord
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.pipeline.synthesis import ordered, synth_input


def sas(ctx: Context, records: list[TaskRecord], *, sas: SaSSection) -> list[TaskRecord]:
    """Each task of the shard with its generators, or dropped with the reason there are none."""
    from quicksilver.dpe.sas import offline_sas

    section = sas
    llm = _sas_synthesizer(section) if section.mode in ("llm", "auto") else None
    if section.mode == "llm" and llm is None:
        raise ValueError("sas.mode is llm but no LLM endpoint is configured (sas.llm / env)")
    out = []
    for record in records:
        slug = record.slug
        sols = ordered(record.solutions)
        inp = synth_input(record.task, sols)
        result = llm.synthesize(inp, sols[0].code) if llm is not None else offline_sas(inp)
        if not result.generators and llm is not None and section.mode == "auto":
            fallback = offline_sas(inp)  # the LLM gave nothing usable: the offline synthesizer
            fallback.rejected = [*result.rejected, *fallback.rejected]
            result = fallback
        if not result.generators:
            reason = "needs-llm-generator" if result.needs_llm else "no-perf-generator"
            detail = (
                str(result.reason)
                if str(result.reason).startswith(slug)
                else f"{slug}: {result.reason}"
            )
            ctx.drop(record, reason, detail, lost=sols, rejected=result.rejected)
            continue
        if result.rejected:
            ctx.note(
                f"{slug}: {len(result.rejected)} generator answer(s) rejected ("
                + ", ".join(sorted({r["reason"] for r in result.rejected}))
                + ")"
            )
        found = {k: v for k, v in result.to_dict().items() if k != "slug"}
        out.append(record.model_copy(update={"perf_generators": PerfGenerators(**found)}))
    return out


def _sas_synthesizer(section: SaSSection) -> Any | None:
    from quicksilver.dpe.sas import SaSSynthesizer

    if not section.llm.resolved().configured:
        return None
    return SaSSynthesizer(section)


SAS = Stage(
    "sas",
    logic=sas,
    reads=("sas",),
    sharded=True,
    heavy=True,
    needs=("task",),
    fills=("perf_generators",),
)
