"""Stage 4, generators: one ``generator_code`` per task, from the offline synthesizer or an LLM.

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
from quicksilver.stages.base import StageCounts, group_by_slug, reject
from quicksilver.synth import GeneratorResult, SynthInput

log = logging.getLogger(__name__)


def synth_input(task: dict[str, Any], solutions: list[dict[str, Any]]) -> SynthInput:
    q = task["question"]
    return SynthInput(
        slug=task["slug"],
        title=q.get("title") or task["slug"],
        content_html=q.get("content") or "",
        meta=task["meta"],
        prompt=task["prompt"],
        examples=tuple(tuple(e) for e in task["examples"]),
        reference_code=solutions[0]["code"] if solutions else None,
    )


def _llm(section: SynthesisSection, sandbox: SandboxConfig) -> Any | None:
    from quicksilver.synth.llm import LLMSynthesizer

    config = section.llm.resolved()
    if not config.configured:
        return None
    return LLMSynthesizer(
        config, Path(section.cache_dir), sandbox=sandbox, size_cap=section.size_cap
    )


def synthesis_stage(
    tasks: list[dict[str, Any]],
    solutions: list[dict[str, Any]],
    section: SynthesisSection,
    *,
    sandbox: SandboxConfig,
    seed: int = 0,
) -> dict[str, Any]:
    from quicksilver.synth.offline import synthesize_offline

    counts = StageCounts("generators", tasks_in=len(tasks), solutions_in=len(solutions))
    llm = _llm(section, sandbox) if section.mode in ("llm", "auto") else None
    if section.mode == "llm" and llm is None:
        raise ConfigError(
            "synthesis.mode is 'llm' but no endpoint is configured: set synthesis.llm.base_url "
            "and synthesis.llm.model (or QUICKSILVER_LLM_BASE_URL / QUICKSILVER_LLM_MODEL)"
        )
    by_slug = group_by_slug(solutions)
    generators: list[dict[str, Any]] = []
    rejects: list[dict[str, Any]] = []
    kept_tasks, kept_solutions = [], []
    for task in tasks:
        slug = task["slug"]
        inp = synth_input(task, by_slug.get(slug, []))
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
            counts.drops[reason] += 1
            rejects.append(
                reject({"slug": slug, "attempts": [r.to_dict() for r in results]}, reason, detail)
            )
            rejects.extend(reject(s, reason, detail) for s in by_slug.get(slug, []))
            log.info("%s: no generator (%s)", slug, detail)
            continue
        generators.append(
            {
                "slug": slug,
                "generator_code": final.generator_code,
                "generator_path": final.path,
                "generator_model": final.model,
                "notes": final.notes,
                "attempts": final.attempts,
                "offline_report": None if final.path == "offline" else results[0].reason,
            }
        )
        kept_tasks.append(task)
        kept_solutions.extend(by_slug.get(slug, []))
    counts.tasks_out, counts.solutions_out = len(kept_tasks), len(kept_solutions)
    return {
        "tasks": kept_tasks,
        "solutions": kept_solutions,
        "generators": generators,
        "rejects": rejects,
        "counts": counts,
    }
