"""Stages called on small records, the way the stage tests state their cases: tasks, solutions and
earlier stages' results as plain rows in, the stage's outcome as plain rows out.

Each helper builds :class:`TaskRecord`\\ s from the rows, runs the stage's logic through
:func:`quicksilver.pipeline.runner.apply` (no files, no executor) and hands back what the stage
kept as rows (``record.row()`` and its parts), its rejects and its counts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from quicksilver.config import (
    CandidatesSection,
    CasesSection,
    ProfileSection,
    SandboxConfig,
    SelectionSection,
    SynthesisSection,
    UniquenessSection,
)
from quicksilver.pipeline.records import (
    CaseAnswer,
    CaseInput,
    Cost,
    Generator,
    PEProfile,
    Solution,
    Task,
    TaskRecord,
    Tests,
    Verdict,
)
from quicksilver.pipeline.runner import Outcome, apply
from quicksilver.pipeline.stage import Context, StageCounts
from quicksilver.stages.candidates import CANDIDATES
from quicksilver.stages.filters import FILTERS
from quicksilver.stages.generators import GENERATORS
from quicksilver.stages.load import LOAD
from quicksilver.stages.profile import PROFILE
from quicksilver.stages.select import SELECT
from quicksilver.stages.testcases import TESTCASES
from quicksilver.stages.uniqueness import UNIQUENESS
from quicksilver.stages.uniqueness import uniqueness_for_task as decide

# --- rows in -------------------------------------------------------------------------------------


def records_of(tasks: list[dict[str, Any]], solutions: list[dict[str, Any]]) -> list[TaskRecord]:
    """One record per task row, with the solution rows of its slug, in their order."""
    return [
        TaskRecord(
            task=Task.model_validate(t),
            solutions=[Solution.model_validate(s) for s in solutions if s["slug"] == t["slug"]],
        )
        for t in tasks
    ]


def with_answers(record: TaskRecord, cases_row: dict[str, Any]) -> TaskRecord:
    """A record as the testcases stage leaves it, from a testcases row (``seed``, ``base_seed``,
    ``cases``, ``answers`` by solution hash, the ``solutions`` that survived)."""
    alive = {int(h) for h in cases_row["solutions"]}
    sols = [
        s.model_copy(
            update={
                "answers": [CaseAnswer.model_validate(a) for a in cases_row["answers"][str(s.hash)]]
            }
        )
        for s in record.solutions
        if s.hash in alive
    ]
    tests = Tests(
        seed=cases_row["seed"],
        base_seed=cases_row["base_seed"],
        cases=[CaseInput.model_validate(c) for c in cases_row["cases"]],
        call_limits=cases_row.get("call_limits", {}),
        budget=cases_row.get("budget", {}),
    )
    return record.with_solutions(sols, tests=tests)


def with_verdict(record: TaskRecord, verdict_row: dict[str, Any]) -> TaskRecord:
    """A record as the uniqueness stage leaves it, from ``test_cases``, ``any_order`` and the
    ``solutions`` kept."""
    kept = {int(h) for h in verdict_row["solutions"]}
    tests = Tests(
        seed=verdict_row.get("seed", 0),
        base_seed=verdict_row.get("base_seed", 0),
        cases=[CaseInput(input=c["input"], kind="generated") for c in verdict_row["test_cases"]],
    )
    verdict = Verdict(
        any_order=bool(verdict_row["any_order"]),
        classification=verdict_row.get("classification", "all-agree"),
        expected=[c["expected"] for c in verdict_row["test_cases"]],
    )
    sols = [s for s in record.solutions if s.hash in kept]
    return record.with_solutions(sols, tests=tests, verdict=verdict)


# --- rows out ------------------------------------------------------------------------------------


def task_rows(records: list[TaskRecord]) -> list[dict[str, Any]]:
    return [r.task.row() for r in records]


def solution_rows(records: list[TaskRecord]) -> list[dict[str, Any]]:
    return [s.row() for r in records for s in r.solutions]


def cases_row(record: TaskRecord) -> dict[str, Any]:
    """The testcases stage's result for a task, as a row."""
    assert record.tests is not None
    return {
        "slug": record.slug,
        "seed": record.tests.seed,
        "base_seed": record.tests.base_seed,
        "cases": [c.model_dump() for c in record.tests.cases],
        "answers": {
            str(s.hash): [a.model_dump() for a in s.answers or []] for s in record.solutions
        },
        "solutions": [s.hash for s in record.solutions],
        "n_generated": record.tests.n_generated,
        "n_edge": record.tests.n_edge,
        "n_examples": record.tests.n_examples,
        "call_limits": record.tests.call_limits,
        "budget": record.tests.budget,
    }


def verdict_row(record: TaskRecord) -> dict[str, Any]:
    """The uniqueness stage's result for a task, as a row."""
    assert record.verdict is not None and record.tests is not None
    return {
        "slug": record.slug,
        **record.verdict.model_dump(exclude={"expected"}),
        "test_cases": [
            {"input": c.input, "expected": e}
            for c, e in zip(record.tests.cases, record.verdict.expected, strict=True)
        ],
        "solutions": [s.hash for s in record.solutions],
    }


def profile_row(record: TaskRecord) -> dict[str, Any]:
    """The profile stage's result for a task, as a row."""
    assert record.profile is not None
    return {
        "slug": record.slug,
        **record.profile.model_dump(),
        "solutions": [s.hash for s in record.solutions],
        "runtimes": [
            {"hash": s.hash, **s.runtime.model_dump()}
            for s in record.solutions
            if s.runtime is not None
        ],
    }


def generator_row(record: TaskRecord) -> dict[str, Any]:
    assert record.generator is not None
    return {"slug": record.slug, **record.generator.model_dump()}


# --- the stages, called as their tests state them ------------------------------------------------


def _plain(done: Outcome, **rows: Any) -> dict[str, Any]:
    return {**rows, "rejects": done.rejects, "counts": done.counts}


def load_stage(snapshot_dirs: list[Path], only: list[str] | None = None) -> dict[str, Any]:
    done = apply(LOAD, [], source=True, snapshots=snapshot_dirs, only=only)
    return _plain(done, tasks=task_rows(done.records), solutions=solution_rows(done.records))


def filter_stage(tasks: list[dict], solutions: list[dict], *, min_solutions_: int) -> dict:
    done = apply(FILTERS, records_of(tasks, solutions), min_solutions=min_solutions_)
    return _plain(done, tasks=task_rows(done.records), solutions=solution_rows(done.records))


def synthesis_stage(
    tasks: list[dict],
    solutions: list[dict],
    section: SynthesisSection,
    *,
    sandbox: SandboxConfig,
    seed: int = 0,
) -> dict[str, Any]:
    records = records_of(tasks, solutions)
    done = apply(GENERATORS, records, synthesis=section, sandbox=sandbox, seed=seed)
    return _plain(
        done,
        tasks=task_rows(done.records),
        solutions=solution_rows(done.records),
        generators=[generator_row(r) for r in done.records],
    )


def testcases_shard(
    tasks: list[dict],
    solutions: list[dict],
    generators: list[dict],
    section: CasesSection,
    *,
    sandbox: SandboxConfig,
) -> dict[str, Any]:
    by_slug = {g["slug"]: g for g in generators}
    records = [
        r.model_copy(
            update={
                "generator": Generator(
                    generator_code=by_slug[r.slug]["generator_code"],
                    generator_path="offline",
                    generator_model=by_slug[r.slug].get("generator_model"),
                )
            }
        )
        for r in records_of(tasks, solutions)
    ]
    done = apply(TESTCASES, records, testcases=section, sandbox=sandbox)
    return _plain(done, records=[cases_row(r) for r in done.records])


def uniqueness_for_task(
    task: dict,
    record: dict,
    solutions: list[dict],
    tol: float,
    counts: StageCounts,
    rejects: list[dict[str, Any]],
    *,
    margin: float = 2.0,
    min_support: int = 2,
    **options: Any,
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """One task's verdict (its row, or None) and the solutions kept (rows); drops go to
    ``counts`` and ``rejects``. ``options``: the decision's other keywords (``checker``, ...)."""
    (rec,) = records_of([task], solutions)
    ctx = Context("uniqueness")
    out = decide(
        ctx, with_answers(rec, record), tol, margin=margin, min_support=min_support, **options
    )
    counts.drops.update(ctx.drops)
    counts.drop_tasks.update(ctx.kinds["task"])
    counts.drop_solutions.update(ctx.kinds["solution"])
    counts.drop_inputs.update(ctx.kinds["input"])
    rejects += ctx.rejects
    if out is None:
        return None, []
    return verdict_row(out), [s.row() for s in out.solutions]


def uniqueness_shard(
    tasks: list[dict],
    solutions: list[dict],
    records: list[dict],
    *,
    tol: float,
    min_solutions_: int,
    margin: float = 2.0,
    min_support: int = 2,
) -> dict[str, Any]:
    by_slug = {c["slug"]: c for c in records}
    recs = [with_answers(r, by_slug[r.slug]) for r in records_of(tasks, solutions)]
    section = UniquenessSection(
        double_rel_tol=tol, plurality_margin=margin, plurality_min_support=min_support
    )
    done = apply(UNIQUENESS, recs, uniqueness=section, min_solutions=min_solutions_)
    return _plain(
        done, records=[verdict_row(r) for r in done.records], solutions=solution_rows(done.records)
    )


def profile_shard(
    tasks: list[dict],
    solutions: list[dict],
    records: list[dict],
    section: ProfileSection,
    *,
    min_solutions_: int,
) -> dict[str, Any]:
    by_slug = {v["slug"]: v for v in records}
    recs = [with_verdict(r, by_slug[r.slug]) for r in records_of(tasks, solutions)]
    done = apply(PROFILE, recs, profile=section, min_solutions=min_solutions_)
    return _plain(done, records=[profile_row(r) for r in done.records])


def candidates_stage(
    tasks: list[dict], solutions: list[dict], section: CandidatesSection
) -> dict[str, Any]:
    done = apply(CANDIDATES, records_of(tasks, solutions), candidates=section)
    return _plain(done, solutions=solution_rows(done.records))


def select_stage(
    profiled: list[dict[str, Any]], solutions: list[dict[str, Any]], section: SelectionSection
) -> dict[str, Any]:
    """``profiled``: rows with ``slug``, ``unit``, ``meter``, ``machine_id`` and ``solutions``
    ({hash, code, cost, cv, cv_classic}); ``solutions`` is not read."""
    del solutions
    records = [
        TaskRecord(
            task=Task(slug=row["slug"]),
            solutions=[
                Solution(
                    slug=row["slug"],
                    hash=s["hash"],
                    code=s["code"],
                    cost=Cost(**{k: s[k] for k in ("cost", "cv", "cv_classic")}),
                )
                for s in row["solutions"]
            ],
            pe_profile=PEProfile(**{k: row[k] for k in ("meter", "unit", "machine_id")}),
        )
        for row in profiled
    ]
    done = apply(SELECT, records, selection=section)
    return _plain(done, records=done.records)
