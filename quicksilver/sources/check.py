"""Running a snapshot's solutions on its known tests in the sandbox (`quicksilver snapshot check`).

For maintainers of a corpus: every solution of every question is judged on the tests the file
carries (the statement's examples, for the bundled corpus) so that a mistake in a hand-written or
scraped file shows up before a build.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.profiler import Case, Job, ProfileTask, profile_many
from quicksilver.sources.convert import (
    UnsupportedSignature,
    convert_offline_source,
    evaluate_offline_source,
    parse_signature,
)
from quicksilver.sources.snapshot import SnapshotFile
from quicksilver.sources.text import html_to_text, says_any_order


def is_function_style(snap: SnapshotFile) -> bool:
    """HumanEval/MBPP-style tasks: a top-level function, not a ``class Solution`` method."""
    snippet = snap.question.python3_snippet() or ""
    return snap.entry_point is not None and "class Solution" not in snippet


def statement_says_any_order(snap: SnapshotFile) -> bool:
    """Whether the question's statement accepts the answer in any order, decided as the build's
    uniqueness stage decides it: ``says_any_order`` on the plain text of the HTML ``content``
    (``html_to_text``, as the load stage makes it). The file's ``annotations`` are never read:
    they document a corpus, and a check that trusted them would pass a file the build fails."""
    return says_any_order(html_to_text(snap.question.content))


def snapshot_task(snap: SnapshotFile, *, any_order: bool | None = None) -> ProfileTask:
    """A profiler task from a snapshot question and its ``tests`` (raises UnsupportedSignature).

    ``any_order`` None: as the statement says (``statement_says_any_order``). Function-style
    tasks compare answers exactly, whatever their docstring says.
    """
    cases = tuple(Case(list(t["input"]), t["expected"]) for t in (snap.tests or []))
    if is_function_style(snap):
        assert snap.entry_point is not None
        return ProfileTask(
            task_id=snap.slug,
            entry_point=snap.entry_point,
            cases=cases,
            kind="function",
            difficulty=snap.question.difficulty,
        )
    sig = parse_signature(snap.question.metaData or "{}")
    if any_order is None:
        any_order = statement_says_any_order(snap)
    return ProfileTask(
        task_id=snap.slug,
        entry_point=sig.name,
        cases=cases,
        kind="class",
        convert_offline=convert_offline_source(sig),
        evaluate_offline=evaluate_offline_source(sig, any_order=any_order),
        difficulty=snap.question.difficulty,
    )


@dataclass
class SolutionCheck:
    slug: str
    index: int
    status: str
    error: str | None


@dataclass
class CheckReport:
    checked: list[SolutionCheck] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (slug, why)


def check_snapshots(
    snaps: list[SnapshotFile],
    *,
    sandbox: SandboxConfig | None = None,
    workers: int | None = None,
) -> CheckReport:
    report = CheckReport()
    jobs: list[Job] = []
    for snap in snaps:
        if snap.question.isPaidOnly:
            report.skipped.append((snap.slug, "paid-only"))
            continue
        if not snap.tests:
            report.skipped.append((snap.slug, "no tests in the file"))
            continue
        try:
            task = snapshot_task(snap)
        except UnsupportedSignature as exc:
            report.skipped.append((snap.slug, f"unsupported signature: {exc}"))
            continue
        for i, sol in enumerate(snap.solutions):
            if sol.lang != "python3":
                continue
            jobs.append(Job(task, sol.code, f"{snap.slug}#{i}"))
    results = profile_many(
        jobs,
        sandbox=sandbox,
        measure=MeasureConfig(min_rounds=1, max_rounds=1),
        workers=workers,
        measure_cost=False,
    )
    for job, res in zip(jobs, results, strict=True):
        slug, idx = job.key.rsplit("#", 1)
        report.checked.append(SolutionCheck(slug, int(idx), res.status, res.error))
    return report
