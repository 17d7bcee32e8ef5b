"""The DPE build's stage logic on plain records (no files, no Prefect): see
quicksilver/stages/dpe.py for the drivers and docs/dpe-build.md for the whole flow."""

from __future__ import annotations

import ast
import json
import logging
from collections.abc import Mapping
from typing import Any

from quicksilver.config import (
    CandidatesSection,
    PEProfileSection,
    SamplingSection,
    SandboxConfig,
    SaSSection,
    SelectionSection,
)
from quicksilver.meters import MeterError
from quicksilver.profiler import Job, profile_many
from quicksilver.sandbox.session import SandboxError
from quicksilver.sources.convert import (
    convert_offline_source,
    evaluate_offline_source,
    parse_signature,
)
from quicksilver.stages.base import StageCounts, cpu_count, group_by_slug, reject, solution_hash
from quicksilver.stages.load import normalise_code
from quicksilver.stages.synthesis import synth_input

log = logging.getLogger(__name__)


def _ordered(solutions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A task's solutions in a stable order: snapshot solutions by position, then model ones."""
    return sorted(solutions, key=lambda s: (s.get("source") == "llm", s.get("position", 0)))


# --- candidates: solutions beyond the snapshots' ----------------------------------------------


def _solution_row(
    task: dict[str, Any], code: str, position: int, source: str, model: str | None
) -> dict[str, Any]:
    return {
        "slug": task["slug"],
        "position": position,
        "source": source,
        "model": model,
        "url": None,
        "runtime_reported": None,
        "lang": "python3",
        "code": code,
        "hash": solution_hash(code),
    }


def _as_solution(task: dict[str, Any], code: str) -> str:
    """A completion as a whole ``class Solution``: the starter code is prepended when the
    completion does not define the entry point itself (a method body)."""
    if f"def {task['entry_point']}" in code:
        return code
    return (task.get("prompt") or "") + code


def candidates_stage(
    tasks: list[dict[str, Any]],
    solutions: list[dict[str, Any]],
    section: CandidatesSection,
    *,
    sandbox: SandboxConfig | None = None,
) -> dict[str, Any]:
    """The snapshots' solutions plus an LLM's samples (when an endpoint is configured) plus model
    sample files. Nothing is judged here: the uniqueness stage keeps only what passes the tests."""
    from quicksilver.samples import load_samples

    counts = StageCounts("candidates", tasks_in=len(tasks), solutions_in=len(solutions))
    rejects: list[dict[str, Any]] = []
    out = list(solutions)
    by_slug = group_by_slug(solutions)
    next_pos = {t["slug"]: len(by_slug.get(t["slug"], [])) for t in tasks}
    names: dict[str, dict[str, Any]] = {}
    for t in tasks:
        for name in (t["slug"], str(t.get("id") or "")):
            if name:
                names.setdefault(name, t)

    def add(task: dict[str, Any], code: str, source: str, model: str | None, where: str) -> None:
        code = normalise_code(_as_solution(task, code))
        try:
            ast.parse(code)
        except SyntaxError as exc:
            counts.drops["syntax-error"] += 1
            rejects.append(
                {
                    "slug": task["slug"],
                    "reason": "syntax-error",
                    "detail": f"{where}: line {exc.lineno}: {exc.msg}",
                    "source": source,
                    "model": model,
                    "code": code,
                }
            )
            return
        out.append(_solution_row(task, code, next_pos[task["slug"]], source, model))
        next_pos[task["slug"]] += 1

    # 1. an LLM's samples
    sampler = _solution_sampler(section)
    if sampler is None:
        counts.notes.append("no LLM endpoint configured: no solutions sampled from a model")
    else:
        for task in tasks:
            inp = synth_input(task, by_slug.get(task["slug"], []))
            got, rejected = sampler.sample(inp)
            for r in rejected:
                counts.drops[f"llm-solution-{r['reason']}"] += 1
                rejects.append(
                    {"slug": task["slug"], **r, "detail": f"{task['slug']}: {r['detail']}"}
                )
            for i, s in enumerate(got):
                add(task, s["code"], "llm", s["model"], f"{task['slug']}: LLM answer {i}")
        counts.notes.append(f"solutions sampled from {sampler.model}: n={section.n}")

    # 2. model sample files
    for spec in section.sample_files:
        model = spec.model
        loaded = load_samples(spec.path)
        for src, reason in loaded.rejects:
            counts.drops["malformed-sample"] += 1
            rejects.append(
                {"slug": None, "reason": "malformed-sample", "detail": f"{src}: {reason}"}
            )
        for sample in loaded.samples:
            task = names.get(sample.task)
            if task is None:
                counts.drops["unknown-task"] += 1
                rejects.append(
                    {
                        "slug": sample.task,
                        "reason": "unknown-task",
                        "detail": f"{sample.source}: no task {sample.task!r} in the snapshots",
                    }
                )
                continue
            add(task, sample.code, "model", model, sample.source)
    counts.tasks_out = len(tasks)
    counts.solutions_out = len(out)
    return {"solutions": out, "rejects": rejects, "counts": counts}


def _solution_sampler(section: CandidatesSection) -> Any | None:
    from quicksilver.dpe.llm_solutions import SolutionSampler, SolutionSamplingConfig

    llm = section.llm.resolved()
    if not llm.configured or section.n == 0:
        return None
    return SolutionSampler(
        SolutionSamplingConfig(
            llm=llm, n=section.n, temperature=section.temperature, cache_dir=str(section.cache_dir)
        )
    )


# --- SaS ---------------------------------------------------------------------------------------


def sas_shard(
    tasks: list[dict[str, Any]],
    records: list[dict[str, Any]],
    solutions: list[dict[str, Any]],
    section: SaSSection,
) -> dict[str, Any]:
    """Per task: ``perf_input_gen`` generators (LLM or offline), or a drop with the reason."""
    from quicksilver.dpe.sas import offline_sas

    counts = StageCounts("sas", tasks_in=len(records), solutions_in=len(solutions))
    rejects: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    by_task = {t["slug"]: t for t in tasks}
    by_slug = group_by_slug(solutions)
    llm = _sas_synthesizer(section) if section.mode in ("llm", "auto") else None
    if section.mode == "llm" and llm is None:
        raise ValueError("sas.mode is llm but no LLM endpoint is configured (sas.llm / env)")
    kept_solutions = 0
    for rec in records:
        slug = rec["slug"]
        valid = set(rec["solutions"])
        sols = _ordered([s for s in by_slug.get(slug, []) if s["hash"] in valid])
        inp = synth_input(by_task[slug], sols)
        result = llm.synthesize(inp, sols[0]["code"]) if llm is not None else offline_sas(inp)
        if not result.generators and llm is not None and section.mode == "auto":
            fallback = offline_sas(inp)  # the LLM gave nothing usable: the offline synthesizer
            fallback.rejected = [*result.rejected, *fallback.rejected]
            result = fallback
        row = {"slug": slug, **result.to_dict()}
        if not result.generators:
            reason = "needs-llm-generator" if result.needs_llm else "no-perf-generator"
            counts.drops[reason] += 1
            detail = (
                str(result.reason)
                if str(result.reason).startswith(slug)
                else f"{slug}: {result.reason}"
            )
            rejects.append(
                {"slug": slug, "reason": reason, "detail": detail, "rejected": result.rejected}
            )
            rejects.extend(reject(s, reason, detail) for s in sols)  # lost with the task
            continue
        if result.rejected:
            counts.notes.append(
                f"{slug}: {len(result.rejected)} generator answer(s) rejected ("
                + ", ".join(sorted({r["reason"] for r in result.rejected}))
                + ")"
            )
        out.append(row)
        kept_solutions += len(sols)
    counts.tasks_out, counts.solutions_out = len(out), kept_solutions
    return {"records": out, "rejects": rejects, "counts": counts}


def _sas_synthesizer(section: SaSSection) -> Any | None:
    from quicksilver.dpe.sas import SaSConfig, SaSSynthesizer

    llm = section.llm.resolved()
    if not llm.configured:
        return None
    return SaSSynthesizer(
        SaSConfig(
            llm=llm, n=section.n, temperature=section.temperature, cache_dir=str(section.cache_dir)
        )
    )


# --- exponential input sampling ------------------------------------------------------------------


def _target(task: dict[str, Any]) -> Any:
    from quicksilver.dpe.sampling import Target

    return Target.from_meta(task["meta"])


def sampling_shard(
    tasks: list[dict[str, Any]],
    records: list[dict[str, Any]],
    solutions: list[dict[str, Any]],
    generators: list[dict[str, Any]],
    section: SamplingSection,
    *,
    sandbox: SandboxConfig,
) -> dict[str, Any]:
    """Per task: sample each generator with the scale doubling until a wall, then choose the most
    expensive input on which every valid solution finishes."""
    from quicksilver.dpe.sampling import (
        InstructionBudget,
        SamplingLimits,
        choose_pe_input,
        sample_generator,
    )

    limits = SamplingLimits(
        time_wall_seconds=section.time_wall_seconds,
        memory_mb=section.memory_mb,
        min_scale_exp=section.min_scale_exp,
        max_scale_exp=section.max_scale_exp,
        max_input_bytes=section.max_input_bytes,
        generator_seed=section.seed,
    )
    budget = _finish_budget(section, sandbox, InstructionBudget)
    counts = StageCounts("sampling", tasks_in=len(generators))
    rejects: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    by_task = {t["slug"]: t for t in tasks}
    by_rec = {r["slug"]: r for r in records}
    by_slug = group_by_slug(solutions)
    for gen_row in generators:
        slug = gen_row["slug"]
        task = by_task[slug]
        wanted = set(by_rec[slug]["solutions"])
        sols = _ordered([s for s in by_slug.get(slug, []) if s["hash"] in wanted])
        counts.solutions_in += len(sols)
        target = _target(task)
        reference = sols[0]
        traces = []
        candidates = []
        for g in gen_row["generators"]:
            trace = sample_generator(
                g["code"],
                index=g["index"],
                reference_code=reference["code"],
                target=target,
                limits=limits,
                sandbox=sandbox,
                task=slug,
            )
            traces.append(trace)
            if trace.ill_defined:
                counts.notes.append(f"{slug}: generator {g['index']} ill-defined: {trace.reason}")
            candidates += trace.candidates
        if not candidates:
            reason = "ill-defined-generators" if all(t.ill_defined for t in traces) else "no-input"
            counts.drops[reason] += 1
            detail = f"{slug}: no generator produced an input the reference finishes: " + "; ".join(
                f"#{t.generator}: {t.stop} ({t.reason})" for t in traces
            )
            rejects.append(
                {
                    "slug": slug,
                    "reason": reason,
                    "detail": detail,
                    "traces": [t.to_dict() for t in traces],
                }
            )
            rejects.extend(reject(s, reason, detail) for s in sols)  # lost with the task
            continue
        choice = choose_pe_input(
            candidates,
            {str(s["hash"]): s["code"] for s in sols},
            target=target,
            cpu_seconds=section.finish_cpu_seconds,
            memory_mb=section.memory_mb,
            sandbox=sandbox,
            task=slug,
            max_tries=section.max_candidates,
            budget=budget,
        )
        if choice.candidate is None:
            counts.drops["no-common-input"] += 1
            detail = f"{slug}: {choice.reason}"
            rejects.append(
                {
                    "slug": slug,
                    "reason": "no-common-input",
                    "detail": detail,
                    "tried": choice.tried,
                }
            )
            rejects.extend(reject(s, "no-common-input", detail) for s in sols)
            continue
        c = choice.candidate
        trace = next(t for t in traces if t.generator == c.generator)
        gen = next(g for g in gen_row["generators"] if g["index"] == c.generator)
        out.append(
            {
                "slug": slug,
                "pe_input": [c.args],
                "generator": c.generator,
                "generator_path": gen["path"],
                "generator_model": gen["model"],
                "generator_code": gen["code"],
                "generators_tried": len(gen_row["generators"]),
                "scale": c.scale,
                "input_sha256": c.input_sha256,
                "input_bytes": c.input_bytes,
                "reference_hash": reference["hash"],
                "reference_cost": c.reference_cost,
                "stop": trace.stop,
                "finish_costs": choice.costs,
                "finish_rule": (
                    f"CPU time, and near the limit: at most "
                    f"{budget.describe(section.finish_cpu_seconds)} (icount)"
                    if budget
                    else "CPU time"
                ),
                "tried": choice.tried,
                "traces": [t.to_dict() for t in traces],
            }
        )
        counts.solutions_out += len(sols)
        log.info(
            "%s: pe input from generator %d at scale %d (%d bytes; reference %.3g s)",
            slug,
            c.generator,
            c.scale,
            c.input_bytes,
            c.reference_cost,
        )
    counts.tasks_out = len(out)
    return {"records": out, "rejects": rejects, "counts": counts}


def _finish_budget(section: SamplingSection, sandbox: SandboxConfig, cls: Any) -> Any:
    """The instruction budget that decides near-limit finishes, or None (CPU time alone)."""
    if not section.count_near_limit:
        return None
    from quicksilver.calibration import measure_instruction_rate

    try:
        rate = measure_instruction_rate(sandbox).rate
    except (MeterError, SandboxError, OSError) as exc:
        log.warning(
            "sampling: the icount meter is not available (%s); solutions near the finish limit "
            "are decided by CPU time alone, and a rebuild may choose other inputs",
            exc,
        )
        return None
    return cls(rate=rate)


# --- profiling on the performance-exercising input --------------------------------------------


def pe_profile_shard(
    tasks: list[dict[str, Any]],
    solutions: list[dict[str, Any]],
    sampled: list[dict[str, Any]],
    section: PEProfileSection,
    sampling: SamplingSection,
    *,
    workers: int | None = None,
) -> dict[str, Any]:
    """Every valid solution on its task's input, ``measure.min_rounds`` rounds at least."""
    from quicksilver.dpe.select import figures, pe_profile_task
    from quicksilver.machine import machine_id

    counts = StageCounts("pe_profile", tasks_in=len(sampled))
    rejects: list[dict[str, Any]] = []
    by_task = {t["slug"]: t for t in tasks}
    by_slug = group_by_slug(solutions)
    # every solution finished the input within finish_cpu_seconds when it was chosen: allow the
    # verdict run twice that, and a budget that leaves room for min_rounds rounds of the slowest
    limits = section.sandbox.limits
    sandbox = section.sandbox.model_copy(
        update={
            "limits": limits.model_copy(
                update={
                    "cpu_seconds": max(limits.cpu_seconds, 2 * sampling.finish_cpu_seconds),
                    "memory_mb": max(limits.memory_mb, sampling.memory_mb),
                }
            )
        }
    )
    measure = section.measure.model_copy(
        update={
            "budget_seconds": max(
                section.measure.budget_seconds,
                (section.measure.min_rounds + 1) * sampling.finish_cpu_seconds,
            )
        }
    )
    jobs: list[Job] = []
    sol_of: dict[str, dict[str, Any]] = {}
    for rec in sampled:
        slug = rec["slug"]
        task = by_task[slug]
        sig = parse_signature(task["meta"])
        ptask = pe_profile_task(
            slug,
            sig.name,
            rec["pe_input"],
            convert_offline=convert_offline_source(sig),
            difficulty=task.get("difficulty"),
        )
        wanted = {int(h) for h in rec["finish_costs"]}
        for sol in _ordered(by_slug.get(slug, [])):
            if sol["hash"] in wanted:
                key = f"{slug}#{sol['hash']}"
                weight = float(rec["finish_costs"].get(str(sol["hash"]), 0.0))
                jobs.append(Job(ptask, sol["code"], key, weight))
                sol_of[key] = sol
    counts.solutions_in = len(jobs)
    if workers is None:  # a count does not depend on what runs beside it; a CPU time does
        workers = cpu_count() if measure.deterministic else 1
    results = profile_many(jobs, sandbox=sandbox, measure=measure, workers=workers)
    out_records: dict[str, dict[str, Any]] = {}
    kept: list[dict[str, Any]] = []
    for job, res in zip(jobs, results, strict=True):
        sol = sol_of[job.key]
        slug = sol["slug"]
        rec = out_records.setdefault(
            slug,
            {
                "slug": slug,
                "meter": res.meter,
                "unit": res.unit,
                "machine_id": machine_id(),
                "solutions": [],
            },
        )
        fig = figures(res, warmup_rounds=section.warmup_rounds) if res.passed else None
        if fig is None or fig["cost"] is None or fig["cost"] <= 0:
            counts.drops["profile-failed"] += 1
            rejects.append(
                reject(
                    sol,
                    "profile-failed",
                    f"{slug} solution #{sol['position']}: {res.status}: {res.error}",
                )
            )
            continue
        rec["solutions"].append(
            {
                "hash": sol["hash"],
                "position": sol["position"],
                "source": sol["source"],
                "model": sol.get("model"),
                "code": sol["code"],
                **fig,
                "isolation": res.isolation,
            }
        )
        kept.append(sol)
    records = [r for r in out_records.values() if r["solutions"]]
    for rec in sampled:
        if not out_records.get(rec["slug"], {}).get("solutions"):
            # its solutions are in the rejects already, each with why it failed
            counts.drops["no-profiled-solution"] += 1
            rejects.append(
                reject(
                    {"slug": rec["slug"]},
                    "no-profiled-solution",
                    f"{rec['slug']}: none of its solutions could be profiled on its input",
                )
            )
    counts.tasks_out = len(records)
    counts.solutions_out = len(kept)
    return {"records": records, "solutions": kept, "rejects": rejects, "counts": counts}


# --- selection and clustering ----------------------------------------------------------------


def select_stage(
    records: list[dict[str, Any]], solutions: list[dict[str, Any]], section: SelectionSection
) -> dict[str, Any]:
    """EvalPerf's task filters, then the clusters, references and scores of every kept task.

    With a time meter, w and the minimum cost need the machine's instructions per CPU second:
    the configured ``instruction_rate``, else measured here against icount and recorded.
    """
    from quicksilver.dpe.select import select_task

    rate_source = "configured"
    if section.instruction_rate is None and any(r["unit"] != "instructions" for r in records):
        from quicksilver.calibration import measure_instruction_rate

        measured = measure_instruction_rate()
        section = section.model_copy(update={"instruction_rate": measured.rate})
        rate_source = measured.describe()

    counts = StageCounts(
        "select", tasks_in=len(records), solutions_in=sum(len(r["solutions"]) for r in records)
    )
    rejects: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    for rec in records:
        sols = rec["solutions"]
        costs = [float(s["cost"]) for s in sols]
        cv_key = "cv" if section.cv_estimator == "robust" else "cv_classic"
        cvs = [float(s[cv_key]) if s[cv_key] is not None else float("inf") for s in sols]
        verdict = select_task(rec["slug"], costs, cvs, section, rec["unit"])
        if not verdict.kept:
            reason = verdict.reason or "dropped"
            counts.drops[reason] += 1
            rejects.append(
                {
                    "slug": rec["slug"],
                    "reason": reason,
                    "detail": verdict.detail,
                    "stats": verdict.stats,
                }
            )
            # the profiled solutions lost with the task
            detail = verdict.detail or f"{rec['slug']}: {reason}"
            rejects.extend(reject({"slug": rec["slug"], **s}, reason, detail) for s in sols)
            continue
        cl = verdict.clustering
        assert cl is not None
        counted = rec["unit"] == "instructions"
        cluster_of = {m: ci for ci, c in enumerate(cl.clusters) for m in c.members}
        out.append(
            {
                "slug": rec["slug"],
                "meter": rec["meter"],
                "unit": rec["unit"],
                "machine_id": rec["machine_id"],
                "reference_hashes": [sols[i]["hash"] for i in cl.references],
                "reference_costs": [costs[i] for i in cl.references],
                "scores": list(cl.scores),
                "cluster_sizes": [len(c.members) for c in cl.clusters],
                "bias": cl.bias,
                "w": cl.w,
                "p99_cv": verdict.stats["p99_cv"],
                "instruction_rate": None if counted else section.instruction_rate,
                "instruction_rate_source": None if counted else rate_source,
                "solutions": [{**s, "cluster": cluster_of[i]} for i, s in enumerate(sols)],
            }
        )
        counts.solutions_out += len(sols)
    counts.tasks_out = len(out)
    return {"records": out, "rejects": rejects, "counts": counts}


# --- rows --------------------------------------------------------------------------------------


def dpe_rows(
    selected: list[dict[str, Any]],
    *,
    tasks: Mapping[str, dict[str, Any]],
    uniqueness: Mapping[str, dict[str, Any]],
    test_generators: Mapping[str, dict[str, Any]],
    sas: Mapping[str, dict[str, Any]],
    sampled: Mapping[str, dict[str, Any]],
    machine: Mapping[str, Any],
    version: str,
    config_sha256: str,
    pe_seed: int,
) -> list[dict[str, Any]]:
    """EvalPerf-format rows (plus correctness fields and provenance), in task order."""
    del sas  # the sampled record carries the chosen generator and how many were tried
    rows = []
    for sel in sorted(selected, key=lambda r: r["slug"]):
        slug = sel["slug"]
        task, uq, gen, smp = tasks[slug], uniqueness[slug], test_generators[slug], sampled[slug]
        sig = parse_signature(task["meta"])
        code_of = {int(s["hash"]): s for s in sel["solutions"]}
        rows.append(
            {
                "task_id": slug,
                "reference": [code_of[int(h)]["code"] for h in sel["reference_hashes"]],
                "pe_input": json.dumps(smp["pe_input"], separators=(",", ":")),
                "scores": [float(s) for s in sel["scores"]],
                "entry_point": sig.name,
                "prompt": task["prompt"],
                "id": str(task["id"]),
                "slug_name": slug,
                "difficulty": task["difficulty"],
                "pretty_content": [task["statement"]],
                "task_kind": "class",
                "test_cases": json.dumps(uq["test_cases"]),
                "convert_offline": convert_offline_source(sig),
                "evaluate_offline": evaluate_offline_source(sig, any_order=bool(uq["any_order"])),
                "solutions": [],
                "source": task["source"],
                "snapshot_sha256": task["snapshot_sha256"],
                "answer_any_order": bool(uq["any_order"]),
                "test_generator_path": gen["generator_path"],
                "test_generator_model": gen["generator_model"],
                "test_seed": int(uq["seed"]),
                "pe_generator_code": smp["generator_code"],
                "pe_generator_path": smp["generator_path"],
                "pe_generator_model": smp["generator_model"],
                "pe_generators_tried": int(smp["generators_tried"]),
                "pe_scale": int(smp["scale"]),
                "pe_seed": int(pe_seed),
                "pe_input_bytes": int(smp["input_bytes"]),
                "pe_input_sha256": smp["input_sha256"],
                "pe_sampling_stop": smp["stop"],
                "pe_sampling_reference": int(smp["reference_hash"]),
                "reference_hashes": [int(h) for h in sel["reference_hashes"]],
                "reference_costs": [float(c) for c in sel["reference_costs"]],
                "cluster_sizes": [int(n) for n in sel["cluster_sizes"]],
                "solution_costs": [
                    {
                        "hash": int(s["hash"]),
                        "cost": float(s["cost"]),
                        "cv": float(s["cv"]),
                        "cv_classic": float(s["cv_classic"]),
                        "rounds": int(s["rounds"]),
                        "converged": bool(s.get("converged", True)),
                        "flags": list(s.get("flags") or []),
                        "cluster": int(s["cluster"]),
                        "source": str(s["source"]),
                        "model": s.get("model"),
                    }
                    for s in sel["solutions"]
                ],
                "p99_cv": float(sel["p99_cv"]),
                "clustering_bias": float(sel["bias"]),
                "clustering_w": float(sel["w"]),
                "instruction_rate": sel.get("instruction_rate"),
                "instruction_rate_source": sel.get("instruction_rate_source"),
                "cost_meter": sel["meter"],
                "cost_unit": sel["unit"],
                "machine_id": sel["machine_id"],
                "machine": json.dumps(dict(machine), sort_keys=True),
                "quicksilver_version": version,
                "build_config_sha256": config_sha256,
            }
        )
    return rows
