"""DPE stage, candidates: solutions beyond the snapshots', an LLM's samples and model sample files.

DPE clusters the correct solutions of a task by cost, so it wants many. When an endpoint is
configured (``candidates.llm``), ``n`` solutions per task are sampled from it
(:mod:`quicksilver.dpe.llm_solutions`); model sample files (``candidates.sample_files``) add
theirs. Each added solution is recorded with its source and model. Nothing is judged here: the
uniqueness stage keeps only what passes the tests. Set aside with a reason: an answer that is not
a solution (``llm-solution-<why>``), code that does not parse (``syntax-error``), a sample file
line that is not a sample (``malformed-sample``), a sample of a task that is not in the snapshots
(``unknown-task``).
"""

from __future__ import annotations

from typing import Any

from quicksilver import astparse
from quicksilver.config import CandidatesSection
from quicksilver.pipeline.records import Solution, TaskRecord, solution_hash
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.pipeline.synthesis import normalise_code, synth_input


def _as_solution(prompt: str, entry_point: str | None, code: str) -> str:
    """A completion as a whole ``class Solution``: the starter code is prepended when the
    completion does not define the entry point itself (a method body)."""
    if f"def {entry_point}" in code:
        return code
    return (prompt or "") + code


def candidates(
    ctx: Context, records: list[TaskRecord], *, candidates: CandidatesSection
) -> list[TaskRecord]:
    """The snapshots' solutions plus an LLM's samples plus model sample files."""
    from quicksilver.samples import function_solution, load_samples, slug_form

    section = candidates
    added: dict[str, list[Solution]] = {r.slug: [] for r in records}
    by_name: dict[str, TaskRecord] = {}
    for r in records:
        # a sample names its task as the snapshot's attach-samples does: titleSlug, frontend id
        # or questionId (``HumanEval/0``, as evalplus and the bigcode harness write it)
        for name in (r.slug, str(r.task.id or ""), str(r.task.question.get("questionId") or "")):
            if name:
                by_name.setdefault(name, r)

    def add(record: TaskRecord, code: str, source: str, model: str | None, where: str) -> None:
        task = record.task
        if task.kind == "function" and task.entry_point:  # a body continues the prompt
            code = function_solution(task.prompt, task.entry_point, code)
        code = normalise_code(_as_solution(task.prompt, task.entry_point, code))
        try:
            astparse.parse(code)
        except SyntaxError as exc:
            row = {"slug": record.slug, "source": source, "model": model, "code": code}
            ctx.drop(
                row, "syntax-error", f"{where}: line {exc.lineno}: {exc.msg}", dropped="solution"
            )
            return
        mine = added[record.slug]
        position = len(record.solutions) + len(mine)
        mine.append(
            Solution(
                slug=record.slug,
                position=position,
                source=source,
                model=model,
                code=code,
                hash=solution_hash(code),
            )
        )

    # 1. an LLM's samples
    llm = _llm_candidates(section)
    if llm is None:
        ctx.note("no LLM endpoint configured: no solutions sampled from a model")
    else:
        for record in records:
            got, rejected = llm.ask(synth_input(record.task, record.solutions))
            for r in rejected:
                answer = {k: v for k, v in r.items() if k not in ("reason", "detail")}
                ctx.drop(
                    {"slug": record.slug, **answer},
                    f"llm-solution-{r['reason']}",
                    f"{record.slug}: {r['detail']}",
                    dropped="solution",
                )
            for i, s in enumerate(got):
                add(record, s["code"], "llm", s["model"], f"{record.slug}: LLM answer {i}")
        ctx.note(f"solutions sampled from {llm.model}: n={section.n}")

    # 2. model sample files
    for spec in section.sample_files:
        loaded = load_samples(spec.path)
        for src, reason in loaded.rejects:
            ctx.drop({"slug": None}, "malformed-sample", f"{src}: {reason}", dropped="solution")
        for sample in loaded.samples:
            target = by_name.get(sample.task) or by_name.get(slug_form(sample.task))
            if target is None:
                ctx.drop(
                    {"slug": sample.task},
                    "unknown-task",
                    f"{sample.source}: no task {sample.task!r} in the snapshots",
                    dropped="solution",
                )
                continue
            add(target, sample.code, "model", spec.model, sample.source)
    return [r.with_solutions([*r.solutions, *added[r.slug]]) for r in records]


def _llm_candidates(section: CandidatesSection) -> Any | None:
    from quicksilver.dpe.llm_solutions import LLMCandidates

    if not section.llm.resolved().configured or section.n == 0:
        return None
    return LLMCandidates(section)


CANDIDATES = Stage("candidates", logic=candidates, reads=("candidates",), needs=("task",))
