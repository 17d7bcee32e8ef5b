"""Stage 4, generators: one test-input generator per task, from the offline synthesizer or an LLM.

``synthesis.mode``:

- ``offline``: the constraint-driven synthesizer (quicksilver.synth.offline). A task whose
  constraints it cannot satisfy is dropped as ``needs-llm-generator`` (its reason quotes them)
  rather than fed inputs the task may not accept;
- ``llm``: every task through the configured OpenAI-compatible endpoint;
- ``auto``: offline first, the LLM for the tasks the offline synthesizer reports (when an
  endpoint is configured; otherwise they are dropped as in ``offline``).

Every kept record says which path wrote its generator and which model (or synthesizer version).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from quicksilver.config import ConfigError, SandboxConfig, SynthesisSection
from quicksilver.pipeline.records import Generator, TaskRecord
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.pipeline.synthesis import synth_input
from quicksilver.synth import GeneratorResult

log = logging.getLogger(__name__)


def _llm(section: SynthesisSection, sandbox: SandboxConfig) -> Any | None:
    from quicksilver.synth.llm import LLMSynthesizer

    config = section.llm.resolved()
    if not config.configured:
        return None
    return LLMSynthesizer(
        config, Path(section.cache_dir), sandbox=sandbox, size_cap=section.size_cap
    )


def generators(
    ctx: Context,
    records: list[TaskRecord],
    *,
    synthesis: SynthesisSection,
    sandbox: SandboxConfig,
    seed: int,
) -> list[TaskRecord]:
    """Each task with its generator; a task without one is dropped with the synthesizers'
    reasons (``needs-llm-generator`` when only an LLM could write it and none is configured)."""
    from quicksilver.synth.offline import synthesize_offline

    section = synthesis
    llm = _llm(section, sandbox) if section.mode in ("llm", "auto") else None
    if section.mode == "llm" and llm is None:
        raise ConfigError(
            "synthesis.mode is 'llm' but no endpoint is configured: set synthesis.llm.base_url "
            "and synthesis.llm.model (or QUICKSILVER_LLM_BASE_URL / QUICKSILVER_LLM_MODEL)"
        )
    out = []
    for record in records:
        slug = record.slug
        inp = synth_input(record.task, record.solutions)
        results: list[GeneratorResult] = []
        if section.mode in ("offline", "auto"):
            results.append(synthesize_offline(inp, size_cap=section.size_cap))
        if llm is not None and (not results or (results[-1].needs_llm and not results[-1].ok)):
            results.append(llm.synthesize(inp, seed=seed))
        final = results[-1]
        if not final.ok:
            if any(r.needs_llm for r in results) and llm is None:
                reason = "needs-llm-generator"
            else:
                reason = "generator-synthesis-failed"
            detail = "; ".join(f"{slug}: {r.path}: {r.reason}" for r in results)
            ctx.drop(record, reason, detail, attempts=[r.to_dict() for r in results])
            log.info("%s: no generator (%s)", slug, detail)
            continue
        generator = Generator(
            generator_code=final.generator_code or "",
            generator_path=final.path,
            generator_model=final.model,
            notes=final.notes,
            attempts=final.attempts,
            offline_report=None if final.path == "offline" else results[0].reason,
        )
        out.append(record.model_copy(update={"generator": generator}))
    return out


GENERATORS = Stage(
    "generators",
    logic=generators,
    reads=("synthesis", "sandbox", "testcases.seed"),
    needs=("task",),
    fills=("generator",),
)
