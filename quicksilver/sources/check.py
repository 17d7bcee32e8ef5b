"""Running a snapshot's solutions on its known tests in the sandbox (`quicksilver snapshot check`).

For maintainers of a corpus: every solution of every question is judged on the tests the file
carries (the statement's examples, for the bundled corpus) so that a mistake in a hand-written or
scraped file shows up before a build.

The report is meant for grep and CI logs as much as for a person: ``report_lines`` gives one line
per finding (a failed solution, a skipped question, a file set aside) and a summary line, each a
single line whatever the reason's text (newlines collapsed, control characters escaped).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.profiler import Case, Job, ProfileTask, RunResult, Status, profile_many
from quicksilver.sources.convert import (
    Signature,
    UnsupportedSignature,
    convert_offline_source,
    evaluate_offline_source,
    parse_signature,
)
from quicksilver.sources.snapshot import SnapshotError, SnapshotFile, load_snapshot_dir
from quicksilver.sources.text import html_to_text, says_any_order, says_many_answers

log = logging.getLogger(__name__)

FindingKind = Literal["wrong-answer", "does-not-load", "timeout", "memory", "error"]

# The profiler's messages for a solution that never got to its first call
# (quicksilver/profiler/runner.py, _TaskRunner._load_step); tests/test_snapshot_check.py fails if
# they change.
_COMPILE_PREFIX = "the solution does not compile: "
_LOAD_PREFIX = "loading the solution: "

REASON_CHARS = 300
"""A finding line's reason is cut here (``--json`` keeps the profiler's whole message)."""


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
    tasks compare answers exactly, whatever their docstring says (a tuple as the list the file's
    JSON holds, as the build compares them).
    """
    cases = tuple(Case(list(t["input"]), t["expected"]) for t in (snap.tests or []))
    if is_function_style(snap):
        assert snap.entry_point is not None
        exact = Signature(snap.entry_point, [], "any", None)  # no tolerance, no node types
        return ProfileTask(
            task_id=snap.slug,
            entry_point=snap.entry_point,
            cases=cases,
            kind="function",
            evaluate_offline=evaluate_offline_source(exact, tuples_as_lists=True),
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


@dataclass(frozen=True)
class SolutionCheck:
    """One solution's verdict on its file's tests; ``index`` is its place in ``solutions``,
    ``failed_case`` the failing test's place in ``tests`` (both from 0)."""

    slug: str
    index: int
    status: Status  # the profiler's: passed, failed (a wrong answer), error, timeout, memory
    error: str | None
    failed_case: int | None = None
    source: str | None = None
    model: str | None = None
    note: str | None = None  # a caveat about the verdict (the statement accepts several answers)

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def finding(self) -> tuple[FindingKind, str, str]:
        """(kind, what, reason): ``("wrong-answer", "wrong answer on test 1", "got 3, expected
        4")``. Only for a solution that did not pass."""
        text = self.error or ""
        case = self.failed_case
        on = f" on test {case}" if case is not None else ""
        if case is not None:
            text = text.removeprefix(f"case {case}: ")
        if self.status == "failed":
            return "wrong-answer", f"wrong answer{on}", text.removeprefix("wrong answer: ")
        if text.startswith(_COMPILE_PREFIX):
            return "does-not-load", "does not load", text.removeprefix(_COMPILE_PREFIX)
        if text.startswith(_LOAD_PREFIX):
            reason = text.removeprefix(_LOAD_PREFIX)
            if self.status == "timeout":
                return "timeout", "timeout while loading", reason
            return "does-not-load", "does not load", reason
        if self.status == "timeout":
            return "timeout", f"timeout{on}", text
        if self.status == "memory":
            return "memory", f"memory limit{on}", text
        return "error", f"error{on}", text

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "slug": self.slug,
            "index": self.index,
            "source": self.source,
            "model": self.model,
            "status": self.status,
        }
        if not self.passed:
            kind, what, _ = self.finding()
            data.update(
                finding=kind,
                what=what,
                test=self.failed_case,
                error=self.error,
                note=self.note,
            )
        return data


@dataclass
class CheckReport:
    checked: list[SolutionCheck] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (slug, why)
    set_aside: list[tuple[str, str]] = field(default_factory=list)  # (file, reason)
    order_free: list[str] = field(default_factory=list)  # slugs whose statement says any order
    not_python3: int = 0  # solutions in other languages, not run

    @property
    def failures(self) -> list[SolutionCheck]:
        return [c for c in self.checked if not c.passed]

    @property
    def exit_code(self) -> int:
        """0: every solution passed; 1: a solution failed or a file was set aside (a malformed
        file is a mistake in the corpus too, as ``snapshot stats`` counts it)."""
        return 1 if self.failures or self.set_aside else 0

    def to_dict(self) -> dict[str, Any]:
        by_kind = Counter(c.finding()[0] for c in self.failures)
        return {
            "solutions": len(self.checked),
            "passed": len(self.checked) - len(self.failures),
            "failed": len(self.failures),
            "failed_by_kind": dict(sorted(by_kind.items())),
            "questions": len({c.slug for c in self.checked}),
            "order_free": self.order_free,
            "not_python3": self.not_python3,
            "exit_code": self.exit_code,
            "checked": [c.to_dict() for c in self.checked],
            "skipped": [{"slug": s, "why": why} for s, why in self.skipped],
            "set_aside": [{"file": f, "reason": r} for f, r in self.set_aside],
        }


def one_line(text: str, limit: int | None = None) -> str:
    """``text`` on one line: whitespace runs (newlines too) become one space, other control
    characters are escaped (a solution's exception text reaches the terminal), cut at ``limit``."""
    flat = " ".join(text.split())
    flat = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in flat)
    if limit is not None and len(flat) > limit:
        flat = flat[: limit - 3] + "..."
    return flat


def _who(c: SolutionCheck) -> str:
    if c.model and c.source == "model":
        return f"model {c.model}"
    if c.model:
        return f"{c.source}, model {c.model}"
    return c.source or "source unknown"


def finding_line(c: SolutionCheck) -> str:
    """``FAIL <slug> solution <i> (<source>): <what>: <reason>`` on one line."""
    _, what, reason = c.finding()
    line = f"FAIL {one_line(c.slug)} solution {c.index} ({one_line(_who(c))}): {what}"
    if reason:
        line += f": {one_line(reason, REASON_CHARS)}"
    if c.note:
        line += f" ({c.note})"
    return line


def skip_line(slug: str, why: str) -> str:
    return f"SKIP {one_line(slug)}: {one_line(why, REASON_CHARS)}"


def set_aside_line(path: str, reason: str) -> str:
    return f"SET-ASIDE {one_line(path)}: {one_line(reason, REASON_CHARS)}"


def summary_line(report: CheckReport) -> str:
    failures = report.failures
    by_kind = Counter(c.finding()[0] for c in failures)
    kinds = ", ".join(f"{n} {k.replace('-', ' ')}" for k, n in sorted(by_kind.items()))
    questions = len({c.slug for c in report.checked})
    line = (
        f"SUMMARY {len(report.checked) - len(failures)} of {len(report.checked)} solutions "
        f"passed in {questions} question(s); {len(failures)} failed"
        + (f" ({kinds})" if kinds else "")
    )
    line += (
        f"; {len(report.skipped)} question(s) skipped; {len(report.set_aside)} file(s) set aside"
    )
    if report.order_free:
        line += f"; {len(report.order_free)} judged in any order (the statement says so)"
    if report.not_python3:
        line += f"; {report.not_python3} solution(s) in other languages not run"
    return line


def report_lines(report: CheckReport) -> list[str]:
    """Every finding, then the summary: failures, skipped questions, files set aside."""
    return [
        *(finding_line(c) for c in report.failures),
        *(skip_line(slug, why) for slug, why in report.skipped),
        *(set_aside_line(path, reason) for path, reason in report.set_aside),
        summary_line(report),
    ]


def check_snapshots(
    snaps: list[SnapshotFile],
    *,
    sandbox: SandboxConfig | None = None,
    workers: int | None = None,
    on_result: Callable[[RunResult], None] | None = None,
) -> CheckReport:
    """Judge every Python 3 solution of ``snaps`` on its file's ``tests`` (one pass, no cost
    measured). Questions that cannot be judged are in ``skipped`` with the reason."""
    report = CheckReport()
    jobs: list[Job] = []
    origin: list[tuple[SnapshotFile, int]] = []
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
        runnable = [i for i, sol in enumerate(snap.solutions) if sol.lang == "python3"]
        report.not_python3 += len(snap.solutions) - len(runnable)
        if not runnable:
            report.skipped.append((snap.slug, "no Python 3 solution"))
            continue
        if task.kind == "class" and statement_says_any_order(snap):
            report.order_free.append(snap.slug)
        for i in runnable:
            jobs.append(Job(task, snap.solutions[i].code, f"{snap.slug}#{i}"))
            origin.append((snap, i))
    log.info(
        "checking %d solution(s) of %d question(s)", len(jobs), len({s.slug for s, _ in origin})
    )
    if not jobs:  # nothing to run: no sandbox is needed (nor probed)
        return report
    results = profile_many(
        jobs,
        sandbox=sandbox,
        # A check only judges: the cpu meter runs solutions natively, where the default icount
        # meter runs them under qemu (~15x slower) for counts nobody reads here. The limits are
        # native CPU seconds either way, so a timeout means the same.
        measure=MeasureConfig(meter="cpu", min_rounds=1, max_rounds=1),
        workers=workers,
        measure_cost=False,
        on_result=(lambda _job, res: on_result(res)) if on_result is not None else None,
    )
    for (snap, i), res in zip(origin, results, strict=True):
        sol = snap.solutions[i]
        note = None
        if res.status == "failed" and says_many_answers(html_to_text(snap.question.content)):
            note = "the statement accepts any of several answers: this one may be valid"
        report.checked.append(
            SolutionCheck(
                slug=snap.slug,
                index=i,
                status=res.status,
                error=res.error,
                failed_case=res.failed_case,
                source=sol.source,
                model=sol.model,
                note=note,
            )
        )
    return report


def check_snapshot_dir(
    directory: str | Path,
    *,
    slugs: list[str] | None = None,
    sandbox: SandboxConfig | None = None,
    workers: int | None = None,
    on_result: Callable[[RunResult], None] | None = None,
) -> CheckReport:
    """``check_snapshots`` on a folder's files (only ``slugs`` when given); files that do not
    validate are in ``set_aside``. Raises SnapshotError for a missing folder or a slug that names
    no file."""
    loaded = load_snapshot_dir(directory)
    snaps = loaded.files
    rejects = [(r.path, r.reason) for r in loaded.rejects]
    if slugs is not None:
        wanted = set(slugs)
        known = {s.slug for s in snaps} | {Path(p).stem for p, _ in rejects}
        unknown = sorted(wanted - known)
        if unknown:
            raise SnapshotError(f"{directory}: no file for {', '.join(unknown)}")
        snaps = [s for s in snaps if s.slug in wanted]
        rejects = [(p, r) for p, r in rejects if Path(p).stem in wanted]
    report = check_snapshots(snaps, sandbox=sandbox, workers=workers, on_result=on_result)
    report.set_aside = rejects
    return report
