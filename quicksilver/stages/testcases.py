"""Stage 5, test cases: generated inputs plus the statement's examples, and every solution's
answers on them, all computed in the sandbox.

Per task (a shard of tasks per call, so shards run on any Prefect task runner):

1. the task's seed is derived from the recorded base seed and the slug; ``n`` per-input seeds
   from it; the generator runs once per seed (``random.seed(s)`` before each call);
2. an input is discarded, with its reason, when the generator raised or timed out on its seed,
   when it does not match the method's parameter types, or when it repeats an earlier input;
3. every solution runs on every input (one process per solution, ``solution_cpu_seconds`` per
   call). A solution that does not load is dropped (``does-not-load``); one that times out on
   more than ``max_timeout_share`` of the inputs is dropped as ``too-slow``; then inputs on which
   any remaining solution timed out or ran out of memory are discarded (``solution-timeout``), and
   inputs on which most solutions raised are discarded as ``invalid-input`` (the generator wrote
   something the task does not accept);
4. a task left with fewer than ``min_cases`` inputs is dropped (``too-few-cases``).

The answers are kept per solution and input; the uniqueness stage decides the expected outputs.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from typing import Any

from quicksilver.config import SandboxConfig
from quicksilver.execute import case_seeds, run_generator, run_outputs
from quicksilver.sources.convert import convert_offline_source, parse_signature
from quicksilver.stages.base import StageCounts, group_by_slug, json_digest, reject
from quicksilver.stages.config import CasesSection
from quicksilver.synth.shapes import conforms

log = logging.getLogger(__name__)


def task_seed(base_seed: int, slug: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{base_seed}:{slug}".encode()).digest()[:4], "big")


def node_answer(value: Any, leetcode_type: str) -> Any:
    """An answer as evaluate_offline sees it: an empty tree or list (None) is ``[]``."""
    t = leetcode_type.strip()
    if t in ("TreeNode", "ListNode"):
        return [] if value is None else value
    if t in ("TreeNode[]", "ListNode[]", "list<TreeNode>", "list<ListNode>") and isinstance(
        value, list
    ):
        return [[] if v is None else v for v in value]
    return value


def _input_problem(value: Any, types: list[str]) -> str | None:
    if not isinstance(value, list):
        return f"the generator returned a {type(value).__name__}, not an argument list"
    if len(value) != len(types):
        return f"{len(value)} argument(s) for {len(types)} parameter(s)"
    for i, (v, t) in enumerate(zip(value, types, strict=True)):
        problem = conforms(v, t)
        if problem:
            return f"argument {i} ({t}): {problem}"
    return None


def cases_for_task(
    task: dict[str, Any],
    solutions: list[dict[str, Any]],
    generator: dict[str, Any],
    section: CasesSection,
    sandbox: SandboxConfig,
    counts: StageCounts,
    rejects: list[dict[str, Any]],
) -> dict[str, Any] | None:
    slug = task["slug"]
    sig = parse_signature(task["meta"])
    types = [t for _, t in sig.params]
    seed = task_seed(section.seed, slug)
    seeds = case_seeds(seed, section.n)

    def drop_task(reason: str, detail: str) -> None:
        counts.drops[reason] += 1
        rejects.append(reject({"slug": slug}, reason, detail))
        rejects.extend(reject(s, reason, detail) for s in solutions)

    gen = run_generator(
        generator["generator_code"],
        seeds=seeds,
        cpu_seconds=section.generator_cpu_seconds,
        memory_mb=section.memory_mb,
        sandbox=sandbox,
    )
    if gen.load_error:
        drop_task("generator-failed", f"{slug}: the generator does not load: {gen.load_error}")
        return None
    inputs: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(value: Any, kind: str, case_seed: int | None) -> None:
        key = json_digest(value)
        where = f"{slug}: {kind} input" + (f" (seed {case_seed})" if case_seed is not None else "")
        problem = _input_problem(value, types)
        if problem:
            counts.drops["input-type-mismatch"] += 1
            rejects.append(
                reject(
                    {"slug": slug, "input": value, "seed": case_seed},
                    "input-type-mismatch",
                    f"{where}: {problem}",
                )
            )
            return
        if key in seen:
            counts.drops["duplicate-input"] += 1
            return
        seen.add(key)
        inputs.append({"input": value, "kind": kind, "seed": case_seed})

    if section.include_examples:
        for ex in task["examples"]:
            add(list(ex), "example", None)
    for s, outcome in zip(seeds, gen.outcomes, strict=True):
        if not outcome.ok:
            counts.drops["generator-error"] += 1
            rejects.append(
                reject(
                    {"slug": slug, "seed": s},
                    "generator-error",
                    f"{slug}: the generator failed on seed {s}: {outcome.status}: {outcome.error}",
                )
            )
            continue
        add(outcome.value, "generated", s)

    answers: dict[int, list[dict[str, Any]]] = {}
    alive: list[dict[str, Any]] = []
    convert = convert_offline_source(sig)
    answer_type = sig.returns if sig.output_param is None else sig.params[sig.output_param][1]
    for sol in solutions:
        run = run_outputs(
            sol["code"],
            entry_point=sig.name,
            inputs=[c["input"] for c in inputs],
            convert_offline=convert,
            output_param=sig.output_param,
            cpu_seconds=section.solution_cpu_seconds,
            memory_mb=section.memory_mb,
            sandbox=sandbox,
        )
        if run.load_error:
            counts.drops["does-not-load"] += 1
            rejects.append(
                reject(
                    sol, "does-not-load", f"{slug} solution #{sol['position']}: {run.load_error}"
                )
            )
            continue
        answers[sol["hash"]] = [
            {
                "status": o.status,
                "value": node_answer(o.value, answer_type) if o.ok else None,
                "error": o.error,
                "cpu": round(o.cpu_seconds, 6),
            }
            for o in run.outcomes
        ]
        alive.append(sol)

    # solutions too slow for the inputs, then inputs too heavy for the rest
    n_inputs = len(inputs)
    for sol in list(alive):
        slow = sum(a["status"] in ("timeout", "memory") for a in answers[sol["hash"]])
        if n_inputs and slow / n_inputs > section.max_timeout_share:
            counts.drops["too-slow"] += 1
            rejects.append(
                reject(
                    sol,
                    "too-slow",
                    f"{slug} solution #{sol['position']}: timed out or ran "
                    f"out of memory on {slow} of {n_inputs} inputs "
                    f"({section.solution_cpu_seconds:g} s per call)",
                )
            )
            alive.remove(sol)
            del answers[sol["hash"]]
    keep_idx = []
    for i, case in enumerate(inputs):
        heavy = [s for s in alive if answers[s["hash"]][i]["status"] in ("timeout", "memory")]
        if heavy:
            counts.drops["solution-timeout"] += 1
            rejects.append(
                reject(
                    {"slug": slug, **case},
                    "solution-timeout",
                    f"{slug}: input discarded: solution(s) "
                    f"{', '.join('#' + str(s['position']) for s in heavy)} timed out or ran "
                    f"out of memory on it",
                )
            )
            continue
        errors = [s for s in alive if answers[s["hash"]][i]["status"] == "error"]
        if alive and len(errors) * 2 > len(alive):
            counts.drops["invalid-input"] += 1
            first = Counter(str(answers[s["hash"]][i]["error"]) for s in errors).most_common(1)
            rejects.append(
                reject(
                    {"slug": slug, **case},
                    "invalid-input",
                    f"{slug}: input discarded: {len(errors)} of {len(alive)} solutions raised "
                    f"on it (most often: {first[0][0][:200]})",
                )
            )
            continue
        keep_idx.append(i)
    kept_inputs = [inputs[i] for i in keep_idx]
    for h in answers:
        answers[h] = [answers[h][i] for i in keep_idx]
    if len(kept_inputs) < section.min_cases:
        drop_task(
            "too-few-cases",
            f"{slug}: {len(kept_inputs)} usable input(s), fewer than min_cases "
            f"({section.min_cases})",
        )
        return None
    counts.tasks_out += 1
    counts.solutions_out += len(alive)
    return {
        "slug": slug,
        "seed": seed,
        "base_seed": section.seed,
        "cases": kept_inputs,
        "answers": {str(h): a for h, a in answers.items()},
        "solutions": [s["hash"] for s in alive],
        "n_generated": sum(c["kind"] == "generated" for c in kept_inputs),
        "n_examples": sum(c["kind"] == "example" for c in kept_inputs),
    }


def testcases_shard(
    tasks: list[dict[str, Any]],
    solutions: list[dict[str, Any]],
    generators: list[dict[str, Any]],
    section: CasesSection,
    *,
    sandbox: SandboxConfig,
) -> dict[str, Any]:
    counts = StageCounts("testcases", tasks_in=len(tasks), solutions_in=len(solutions))
    rejects: list[dict[str, Any]] = []
    by_slug = group_by_slug(solutions)
    gens = {g["slug"]: g for g in generators}
    records = []
    for task in tasks:
        rec = cases_for_task(
            task,
            by_slug.get(task["slug"], []),
            gens[task["slug"]],
            section,
            sandbox,
            counts,
            rejects,
        )
        if rec is not None:
            records.append(rec)
            log.info(
                "%s: %d test inputs, %d solutions",
                task["slug"],
                len(rec["cases"]),
                len(rec["solutions"]),
            )
    return {"records": records, "rejects": rejects, "counts": counts}
