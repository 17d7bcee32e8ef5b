"""DPE / EvalPerf rows, scored as EvalPerf does (see docs/metrics.md, "DPE scoring"): every sample
is judged on the test cases; each correct sample is profiled on the performance-exercising
input; the cluster references are profiled on that same input on this machine, lazily, scanning
from the fastest cluster only as far as a sample's cost requires. A reference that fails is
retried once with longer limits, then skipped. Unlike EvalPerf, the answers on the performance
input are judged too, by the task's ``evaluate_offline`` in the profiler's judge: against the
row's ``pe_expected``, or, for a row without it, against the answer the cluster references agree
on; a wrong answer scores 0.
"""

from __future__ import annotations

import json
import logging
import math
import os
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.dpe.select import pe_answers_task, pe_profile_task
from quicksilver.metrics import (
    DPSResult,
    SampleOutcome,
    check_dps_tolerance,
    dps_task_score,
    matches,
)
from quicksilver.profiler import Job, ProfileTask, RunResult, profile_many, profile_solution
from quicksilver.rows import TaskRow
from quicksilver.samples import Sample
from quicksilver.scoring.cache import UNCACHED_STATUSES, ReferenceCache
from quicksilver.scoring.model import SampleScore, TaskScore
from quicksilver.scoring.runs import ScoringRun, cached_samples, profile_keyed, run_summary

log = logging.getLogger(__name__)


DPS_FIRST_CORRECT = 10
# A time meter's DPS match tolerance (quicksilver.metrics.matches). Scoring each DPE task's second
# cluster reference as a sample with the cpu meter (bench/scoring.py, one core busy), EvalPerf's
# exact rule gave DPS 29.6 and 33.5 in two runs of the same samples: a sample that is its
# reference's own code lands a hair above or below it. The fastest-passes estimate of one code
# measured twice in one window agrees within a few percent; 10% covers that, stays well under
# the 25% the clusters are apart at least, and is recorded in the report.
DPS_TIME_TOLERANCE = 0.1


def dps_tolerance_for(measure: MeasureConfig, tolerance: float | None) -> float:
    """The DPS match tolerance a run uses: ``tolerance`` as given, else 0 for a deterministic
    meter and :data:`DPS_TIME_TOLERANCE` for a time meter."""
    if tolerance is None:
        tolerance = 0.0 if measure.deterministic else DPS_TIME_TOLERANCE
    check_dps_tolerance(tolerance)
    return tolerance


PE_MIN_ROUNDS = 3
"""Rounds per performance input at least, so that a cost is a median, not one noisy run."""

RETRY_FACTOR = 4.0
"""A failed reference profile is retried once with the CPU and wall limits times this."""


def is_dpe_record(rec: TaskRow) -> bool:
    """A row carries EvalPerf's fields: cluster references, their scores and a pe input."""
    return rec.reference is not None and rec.scores is not None and rec.pe_input is not None


def _stored_expected(rec: TaskRow, calls: int) -> list[Any] | None:
    """The row's ``pe_expected``: one accepted answer per ``pe_input`` call; None when the row
    has none (EvalPerf's release, older builds)."""
    if rec.pe_expected is None:
        return None
    try:
        data = json.loads(rec.pe_expected)
    except ValueError as exc:
        raise ValueError(f"'pe_expected' is not valid JSON: {exc}") from exc
    if not isinstance(data, list) or len(data) != calls:
        raise ValueError(f"'pe_expected' must be a JSON list of {calls} answer(s), one per call")
    return data


def _pe_inputs(rec: TaskRow) -> list[list[Any]]:
    """``pe_input``: a JSON list of calls, each the argument list of one call."""
    try:
        data = json.loads(rec.pe_input or "")
    except ValueError as exc:
        raise ValueError(f"'pe_input' is not valid JSON: {exc}") from exc
    if not isinstance(data, list) or not data:
        raise ValueError("'pe_input' must be a non-empty JSON list of argument lists")
    for i, args in enumerate(data):
        if not isinstance(args, list):
            raise ValueError(
                f"'pe_input' entry #{i} is a {type(args).__name__}, not an argument list"
            )
    return data


def dpe_problem(rec: TaskRow) -> str | None:
    """Why a DPE row cannot be scored (a dataset problem), or None when it can."""
    refs, scores = rec.reference or [], rec.scores or []
    if not refs:
        return "'reference' is empty"
    if len(scores) != len(refs):
        return f"'scores' has {len(scores)} entries for {len(refs)} references"
    for i, value in enumerate(scores):
        if not isinstance(value, int | float) or math.isnan(value) or not 0 <= value <= 100:
            return f"'scores' entry #{i} ({value!r}) is not a percentage"
        if i and value < scores[i - 1]:
            return f"'scores' must be non-decreasing (slowest cluster first), #{i} < #{i - 1}"
    try:
        _stored_expected(rec, len(_pe_inputs(rec)))
    except ValueError as exc:
        return str(exc)
    return None


def pe_row_task(rec: TaskRow, expected: Sequence[Any]) -> ProfileTask:
    """A published row's task on its performance-exercising input: one case per call, each
    answer judged against ``expected`` (one answer per call) by the row's ``evaluate_offline``, as
    on the test cases. Built with :func:`quicksilver.dpe.select.pe_profile_task`, the builder the
    DPE build profiles its references with (on its records), so scoring measures the same task."""
    return pe_profile_task(
        rec.task_key,
        rec.entry_point,
        [list(args) for args in _pe_inputs(rec)],
        expected=expected,
        convert_offline=rec.effective_convert_offline(),
        evaluate_offline=rec.effective_evaluate_offline(),
        kind=rec.task_kind or "class",
        difficulty=rec.difficulty or None,
    )


def reference_answers_task(rec: TaskRow) -> ProfileTask:
    """The task on the row's performance-exercising input that only collects answers (every
    answer accepted): trusted reference code's answers become the expected ones."""
    return pe_answers_task(
        rec.task_key,
        rec.entry_point,
        [list(args) for args in _pe_inputs(rec)],
        convert_offline=rec.effective_convert_offline(),
        kind=rec.task_kind or "class",
    )


@dataclass(frozen=True)
class PEExpected:
    """The expected answers on a DPE task's performance input, or why there are none.

    ``source``: "dataset" (the row's ``pe_expected``) or "references" (the answer the cluster
    references agree on, for a row without it); ``detail`` says how it was obtained;
    ``problem`` (answers None) why the samples' answers there cannot be judged."""

    answers: list[Any] | None
    source: str | None
    detail: str
    problem: str | None = None

    def wrong(self, error: str | None) -> str:
        """A sample's wrong answer on the input, for its ``pe_error``."""
        whose = (
            "the dataset's accepted answer, pe_expected"
            if self.source == "dataset"
            else "the answer the cluster references agree on"
        )
        return f"wrong answer on the performance input: {_got_expected(error)} (expected: {whose})"


def _got_expected(error: str | None) -> str:
    """The profiler's "case 0: wrong answer: got ..., expected ..." without the repetition."""
    return str(error).replace(": wrong answer: ", ": ", 1)


def _in_place_argument(rec: TaskRow) -> int | None:
    """The argument that holds an in-place task's answer, as its test cases show: the only one
    whose value has the expected answer's shape (its type; a list's length) in every case.
    None when no single argument does."""
    cases = rec.cases()
    if not cases:
        return None

    def same_shape(a: Any, b: Any) -> bool:
        if isinstance(a, list) and isinstance(b, list):
            return len(a) == len(b)
        return type(a) is type(b)

    n = min(len(c.inputs) for c in cases)
    fits = [k for k in range(n) if all(same_shape(c.inputs[k], c.expected) for c in cases)]
    return fits[0] if len(fits) == 1 else None


def _answers_of(rec: TaskRow, outputs: list[dict[str, Any]]) -> list[Any]:
    """A reference's answers, one per call, from what its passing run returned
    (:attr:`RunResult.outputs`): the return value, or for an in-place task (None returned, where
    the test cases expect a value) the argument that holds the answer. ValueError when that
    argument cannot be told."""
    answers = []
    for out in outputs:
        if out["output"] is not None or all(c.expected is None for c in rec.cases()):
            answers.append(out["output"])
            continue
        k = _in_place_argument(rec)
        after = out["inputs_after"]
        if k is None or not isinstance(after, list) or k >= len(after):
            raise ValueError(
                "the references return None on the performance input, where the test cases "
                "expect a value, and the test cases do not show which argument holds an "
                "in-place answer"
            )
        answers.append(after[k])
    return answers


def pe_expected_answers(
    records: Mapping[str, TaskRow],
    *,
    sandbox: SandboxConfig,
    workers: int | None = None,
) -> dict[str, PEExpected]:
    """The expected answers on each DPE row's performance input (rows :func:`dpe_problem` finds
    nothing wrong with): the row's ``pe_expected``; for a row without it, the answer of its
    fastest cluster reference that answers, which every other reference that answers must be
    judged to give too (by the row's ``evaluate_offline``, in the profiler's judge). References
    that disagree leave the task without an expected answer: judging against one of them would
    be arbitrary.

    The references run natively (the cpu meter), one verdict pass each, nothing measured: their
    answers, not their costs, are wanted here; the first one's outputs are kept
    (:func:`quicksilver.profiler.profile_many`'s ``keep_outputs``)."""
    out: dict[str, PEExpected] = {}
    todo: dict[str, TaskRow] = {}
    for key, rec in records.items():
        stored = _stored_expected(rec, len(_pe_inputs(rec)))
        if stored is None:
            todo[key] = rec
        else:
            out[key] = PEExpected(stored, "dataset", "the row's pe_expected")
    if todo:
        first = _first_reference_answers(todo, sandbox, workers)
        checks: list[Job] = []
        for key, rec in todo.items():
            found = first[key]
            if isinstance(found, str):
                out[key] = PEExpected(None, None, "", found)
                continue
            j, answers = found
            task = pe_row_task(rec, answers)
            refs = rec.reference or []
            checks += [Job(task, code, f"{key}\0{i}") for i, code in enumerate(refs) if i != j]
        native = MeasureConfig(meter="cpu")
        judged = profile_keyed(checks, "cpu", sandbox, native, workers, measure_cost=False)
        for key, rec in todo.items():
            found = first[key]
            if not isinstance(found, str):
                out[key] = _agreement(key, rec, *found, judged)
    for key, e in out.items():
        if e.problem:
            log.warning("%s: the performance input's answers cannot be judged: %s", key, e.problem)
        elif e.source == "references":
            log.info("%s: expected answer on the performance input: %s", key, e.detail)
    return out


def _first_reference_answers(
    todo: Mapping[str, TaskRow], sandbox: SandboxConfig, workers: int | None
) -> dict[str, tuple[int, list[Any]] | str]:
    """Per task, (cluster index, answers) of its fastest reference that answers on the input,
    or why none does (a string)."""
    found: dict[str, tuple[int, list[Any]] | str] = {}
    failures: dict[str, list[str]] = {key: [] for key in todo}
    nxt = {key: len(rec.reference or []) - 1 for key, rec in todo.items()}
    tasks = {key: reference_answers_task(rec) for key, rec in todo.items()}
    while True:
        jobs = [
            Job(tasks[key], (todo[key].reference or [])[nxt[key]], key)
            for key in todo
            if key not in found and nxt[key] >= 0
        ]
        if not jobs:
            break
        results = profile_many(
            jobs,
            meter="cpu",
            sandbox=sandbox,
            measure=MeasureConfig(meter="cpu"),
            workers=workers,
            measure_cost=False,
            keep_outputs=True,
        )
        for job, res in zip(jobs, results, strict=True):
            key, j = job.key, nxt[job.key]
            m = len(todo[key].reference or [])
            if res.passed and res.outputs is not None:
                try:
                    found[key] = (j, _answers_of(todo[key], res.outputs))
                except ValueError as exc:
                    found[key] = str(exc)
            else:
                failures[key].append(f"cluster {j} of {m}: {res.status}: {res.error}")
            nxt[key] -= 1
    for key in todo:
        if key not in found:
            why = "; ".join(failures[key])
            found[key] = f"no cluster reference answers on the performance input ({why})"
    return found


def _agreement(
    key: str, rec: TaskRow, j: int, answers: list[Any], judged: Mapping[str, RunResult]
) -> PEExpected:
    """Cluster ``j``'s answers, when no other reference that answers is judged to differ."""
    m = len(rec.reference or [])
    agree: list[int] = []
    silent: list[int] = []
    differ: list[str] = []
    for i in range(m):
        if i == j:
            continue
        res = judged[f"{key}\0{i}"]
        if res.passed:
            agree.append(i)
        elif res.status == "failed":
            differ.append(f"cluster {i}: {_got_expected(res.error)}")
        else:
            silent.append(i)
    if differ:
        return PEExpected(
            None,
            None,
            "",
            f"the cluster references disagree on the performance input: judged against cluster "
            f"{j}'s answer (0 = slowest of {m}), {'; '.join(differ)}; the samples' answers there "
            "are not judged against an arbitrary one of them",
        )
    detail = (
        f"the answer of cluster {j}'s reference (0 = slowest of {m}), which the row's "
        f"evaluate_offline accepts from the {len(agree)} other reference(s) that answer"
    )
    if silent:
        detail += f" ({len(silent)} gave none: clusters {', '.join(map(str, silent))})"
    return PEExpected(answers, "references", detail)


def pe_measure_config(measure: MeasureConfig) -> MeasureConfig:
    """``measure`` with at least :data:`PE_MIN_ROUNDS` rounds."""
    rounds = max(measure.min_rounds, PE_MIN_ROUNDS)
    return measure.model_copy(
        update={"min_rounds": rounds, "max_rounds": max(measure.max_rounds, rounds)}
    )


def retry_sandbox(sandbox: SandboxConfig, factor: float) -> SandboxConfig:
    """``sandbox`` with its CPU and wall limits multiplied by ``factor``."""
    lim = sandbox.limits
    longer = lim.model_copy(
        update={"cpu_seconds": lim.cpu_seconds * factor, "wall_seconds": lim.wall * factor}
    )
    return sandbox.model_copy(update={"limits": longer})


class ReferenceProfiler:
    """Cluster references on a pe input: this run's results, else the disk cache, else a
    profile (retried once with longer limits). Shared by the tasks scored in parallel."""

    def __init__(
        self,
        cache: ReferenceCache,
        meter: str,
        sandbox: SandboxConfig,
        measure: MeasureConfig,
        retry_factor: float,
    ) -> None:
        self.cache = cache
        self.meter = meter
        self.sandbox = sandbox
        self.retry = retry_sandbox(sandbox, retry_factor)
        self.retry_factor = retry_factor
        self.measure = measure
        self._memo: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def known(self, key: str, result: dict[str, Any]) -> None:
        """A result measured elsewhere in this run (paired with the samples)."""
        with self._lock:
            self._memo[key] = {**result, "cached": False, "first_error": None}

    def get(self, key: str, task: ProfileTask, code: str) -> dict[str, Any]:
        with self._lock:
            known = self._memo.get(key)
        if known is not None:
            return known
        hit = self.cache.get(key, self.meter)
        result = {**hit, "cached": True} if hit is not None else self._profile(key, task, code)
        with self._lock:
            self._memo[key] = result
        return result

    def _profile(self, key: str, task: ProfileTask, code: str) -> dict[str, Any]:
        res = profile_solution(task, code, sandbox=self.sandbox, measure=self.measure)
        first_error: str | None = None
        if not res.passed and res.status != "failed":  # a wrong answer is no limit's doing
            first_error = f"{res.status}: {res.error}"
            log.info(
                "%s: a cluster reference failed on the performance input (%s); retrying with "
                "%gx the CPU and wall limits",
                task.task_id,
                first_error,
                self.retry_factor,
            )
            res = profile_solution(task, code, sandbox=self.retry, measure=self.measure)
        if res.status not in UNCACHED_STATUSES:
            self.cache.put(key, self.meter, res)
        return {
            "status": res.status,
            "runtime": res.runtime,
            "flags": list(res.flags),
            "error": res.error,
            "first_error": first_error,
            "cached": False,
        }


class ClusterReferences:
    """The cluster references of one DPE task, profiled only when a scan reaches them."""

    def __init__(self, rec: TaskRow, task: ProfileTask, profiler: ReferenceProfiler) -> None:
        self.codes = list(rec.reference or [])
        self.scores = [float(x) for x in rec.scores or []]
        self.task = task
        self.profiler = profiler
        self.keys = [profiler.cache.key(code, task, profiler.meter) for code in self.codes]
        self.results: list[dict[str, Any] | None] = [None] * len(self.codes)

    def cost(self, j: int) -> float | None:
        """Cluster j's reference cost, or None when its profile failed."""
        if self.results[j] is None:
            self.results[j] = self.profiler.get(self.keys[j], self.task, self.codes[j])
        r = self.results[j] or {}
        if r.get("status") != "passed" or r.get("runtime") is None:
            return None
        return float(r["runtime"])

    def match(self, cost: float | None, tolerance: float = 0.0) -> DPSResult | None:
        """EvalPerf's scan: from the fastest cluster, the first j whose reference the cost
        matches (``cost <= cost(ref_j) * (1 + tolerance)``: :func:`quicksilver.metrics.matches`).

        Failed references are skipped. No match, or a failed sample profile (``cost`` None), is
        0; the latter is decided once one reference is known to pass, so that a performance input
        on which nothing runs is reported as the task's problem, not as a 0 for the sample.
        None: every reference failed, nothing to compare with.
        """
        m = len(self.codes)
        any_passed = False
        for j in range(m - 1, -1, -1):
            ref = self.cost(j)
            if ref is None:
                continue
            any_passed = True
            if cost is None:
                break
            if matches(cost, ref, tolerance):
                return DPSResult(self.scores[j], 100.0 * (j + 1) / m, j)
        return DPSResult(0.0, 0.0, None) if any_passed else None

    def costs(self) -> list[float | None]:
        return [
            None if r is None or r.get("status") != "passed" else r.get("runtime")
            for r in self.results
        ]

    def statuses(self) -> list[str | None]:
        return [None if r is None else str(r.get("status")) for r in self.results]

    def flags(self) -> list[list[str]]:
        """Per reference: its profile's flags (empty where it was not needed or converged)."""
        return [list((r or {}).get("flags") or []) for r in self.results]

    def errors(self) -> list[str]:
        m = len(self.codes)
        out = []
        for j, r in enumerate(self.results):
            if r is None or r.get("status") == "passed":
                continue
            msg = f"cluster {j} of {m} (0 = slowest): {r.get('status')}: {r.get('error')}"
            if r.get("cached"):
                msg += " (cached result; --recollect profiles it again)"
            elif r.get("first_error"):
                msg += (
                    f" (after a retry with {self.profiler.retry_factor:g}x the CPU and wall "
                    f"limits; first attempt: {r['first_error']})"
                )
            out.append(msg)
        return out


def score_dpe_task(
    key: str,
    rec: TaskRow,
    group: list[Sample],
    verdicts: dict[str, RunResult],
    pe_results: dict[str, RunResult],
    clusters: ClusterReferences | None,
    problem: str | None,
    first: int,
    tolerance: float = 0.0,
    expected: PEExpected | None = None,
) -> TaskScore:
    """One DPE task's figures. ``clusters`` None: no sample's cost is placed (the row has a
    ``problem``, no sample is correct, or ``expected`` says why the answers on the performance
    input cannot be judged)."""
    ts = TaskScore(
        task=key,
        difficulty=rec.difficulty or None,
        reference_runtimes=[],
        reference_errors=[],
        dpe=True,
    )
    if expected is not None and expected.answers is not None:
        ts.pe_expected_source, ts.pe_expected_detail = expected.source, expected.detail
    values: list[float] = []
    norms: list[float] = []
    every_reference_failed = False
    for s in sorted(group, key=lambda x: x.index):
        verdict = verdicts[f"{key}\0{s.index}"]
        sc = SampleScore(
            task=key,
            index=s.index,
            status=verdict.status,
            runtime=None,
            runtime_ci=None,
            beyond=None,
            percentile=None,
            error=verdict.error,
            imports_added=list(s.extra.get("imports_added", [])),
        )
        ts.samples.append(sc)
        if not verdict.passed:
            continue
        ts.n_correct += 1
        if clusters is None:
            continue  # the row cannot be scored (problem)
        if ts.n_correct > first:
            sc.pe_status = "skipped"
            sc.pe_error = f"not profiled: the task score counts the first {first} correct samples"
            continue
        pe = pe_results[f"{key}\0{s.index}"]
        sc.pe_status, sc.pe_error = pe.status, pe.error
        if pe.status == "failed" and expected is not None:  # scores 0, as any failed profile
            sc.pe_error = expected.wrong(pe.error)
        sc.pe_cost = pe.runtime if pe.passed else None
        sc.flags = list(pe.flags) if pe.passed else []
        d = clusters.match(sc.pe_cost, tolerance)
        if d is None:
            every_reference_failed = True
            continue
        sc.dps, sc.dps_norm, sc.cluster = d.dps, d.dps_norm, d.cluster
        values.append(d.dps)
        norms.append(d.dps_norm)
    if clusters is not None:
        ts.reference_costs = clusters.costs()
        ts.reference_status = clusters.statuses()
        ts.reference_flags = clusters.flags()
        ts.reference_errors = clusters.errors()
    m = len(rec.reference or [])
    if problem is not None:
        ts.dps_error = f"dataset row: {problem}"
    elif expected is not None and expected.problem is not None:
        ts.dps_error = f"the performance input's answers cannot be judged: {expected.problem}"
    elif every_reference_failed:
        ts.dps_error = f"every cluster reference ({m}) failed on the performance input"
    elif ts.n_correct:
        ts.dps = dps_task_score(values, first)
        ts.dps_norm = dps_task_score(norms, first)
    if ts.dps_error:
        log.warning("%s: no DPS: %s", key, ts.dps_error)
    for err in ts.reference_errors:
        log.warning("%s: %s", key, err)
    profiled = sum(1 for x in ts.reference_status or [] if x is not None)
    log.info(
        "%s: DPS %s over %d correct sample(s); %d of %d cluster reference(s) needed",
        key,
        "-" if ts.dps is None else f"{ts.dps:.1f} (norm {ts.dps_norm:.1f})",
        min(ts.n_correct, first),
        profiled,
        m,
    )
    return ts


def score_dpe(
    rows: Mapping[str, tuple[TaskRow, list[Sample]]],
    tasks: Mapping[str, ProfileTask],
    run: ScoringRun,
    *,
    retry_factor: float,
    first: int,
    tolerance: float,
) -> tuple[dict[str, TaskScore], dict[str, list[SampleOutcome]], str | None]:
    """The DPE rows' scores: 1. every sample judged on the test cases (verdict only); 2. the
    expected answers on the performance input of the tasks with a correct sample; 3. the first
    ``first`` correct samples profiled on that input, their answers judged; 4. the reference
    scans. Returns (scores, outcomes, the isolation of the first verdict, None without any)."""
    verdict_jobs = [
        Job(tasks[key], s.code, f"{key}\0{s.index}")
        for key, (_rec, group) in rows.items()
        for s in sorted(group, key=lambda x: x.index)
    ]
    verdicts = profile_keyed(
        verdict_jobs, run.meter, run.sandbox, run.measure, run.workers, measure_cost=False
    )
    isolation = next(iter(verdicts.values())).isolation if verdicts else None

    # the row's pe_expected, else the answer the cluster references agree on
    problems = {key: dpe_problem(rec) for key, (rec, _) in rows.items()}
    correct = {
        key: sorted(
            (s for s in group if verdicts[f"{key}\0{s.index}"].passed), key=lambda x: x.index
        )
        for key, (_rec, group) in rows.items()
    }
    expected = pe_expected_answers(
        {key: rec for key, (rec, _) in rows.items() if not problems[key] and correct[key]},
        sandbox=run.sandbox,
        workers=run.workers,
    )
    pe_tasks = {
        key: pe_row_task(rows[key][0], e.answers)
        for key, e in expected.items()
        if e.answers is not None
    }
    profiler = ReferenceProfiler(
        run.cache, run.meter, run.sandbox, pe_measure_config(run.measure), retry_factor
    )
    pe_results = _profile_pe_samples(rows, pe_tasks, correct, profiler, run, first)

    # reference scans (lazy with a deterministic meter: a scan profiles, or reads from the
    # cache, only the references it reaches), one task per worker
    scored: dict[str, TaskScore] = {}
    outcomes: dict[str, list[SampleOutcome]] = {}
    n = run.workers or run.measure.workers or os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=n, thread_name_prefix="qs-dpe") as pool:
        futures = {
            pool.submit(
                score_dpe_task,
                key,
                rec,
                group,
                verdicts,
                pe_results,
                ClusterReferences(rec, pe_tasks[key], profiler) if key in pe_tasks else None,
                problems[key],
                first,
                tolerance,
                expected.get(key),
            ): key
            for key, (rec, group) in rows.items()
        }
        for fut in as_completed(futures):
            ts = fut.result()
            key = futures[fut]
            scored[key] = ts
            outcomes[key] = _outcomes(key, rows[key][0], ts)
            if run.on_sample is not None:
                for sc in ts.samples:
                    run.on_sample(ts, sc)
    return scored, outcomes, isolation


def _profile_pe_samples(
    rows: Mapping[str, tuple[TaskRow, list[Sample]]],
    pe_tasks: Mapping[str, ProfileTask],
    correct: Mapping[str, list[Sample]],
    profiler: ReferenceProfiler,
    run: ScoringRun,
    first: int,
) -> dict[str, RunResult]:
    """The first ``first`` correct samples of each task profiled on the performance input (by
    ``task\\0index``). With a time meter every cluster reference of a task with a sample to
    place is measured together with those samples (interleaved, one time window) and handed to
    ``profiler``, so that the scans read them."""
    pe_measure = profiler.measure
    pe_jobs = [
        Job(pe_tasks[key], s.code, f"{key}\0{s.index}")
        for key in pe_tasks
        for s in correct[key][:first]
    ]
    pe_refs: list[Job] = []
    if run.paired:
        for key in {j.key.split("\0", 1)[0] for j in pe_jobs}:
            pt, rec = pe_tasks[key], rows[key][0]
            for code in rec.reference or []:
                pe_refs.append(Job(pt, code, profiler.cache.key(code, pt, run.meter)))
        pe_results = profile_keyed(
            pe_refs + pe_jobs, run.meter, run.sandbox, pe_measure, run.workers
        )
    else:
        pe_results = cached_samples(
            pe_jobs, run.cache, run.meter, run.sandbox, pe_measure, run.workers
        )
    for job in pe_refs:
        profiler.known(job.key, run_summary(pe_results[job.key]))
    return pe_results


def _outcomes(key: str, rec: TaskRow, ts: TaskScore) -> list[SampleOutcome]:
    """A DPE task's samples for pass@k. Beyond has no reference distribution here: the task is
    "unscorable" for it. A correct sample's runtime is its pe cost (infinite when that profile
    failed or was skipped); no Beyond is computed from it."""
    return [
        SampleOutcome(
            key,
            rec.difficulty or None,
            sc.status == "passed",
            (sc.pe_cost if sc.pe_cost is not None else math.inf) if sc.status == "passed" else None,
            [],
        )
        for sc in ts.samples
    ]
