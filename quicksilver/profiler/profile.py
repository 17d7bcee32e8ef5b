"""Profiling several solutions of one task: native verdicts, the verdict pass, the rounds of
timed passes until each converges, and each solution's figures from them."""

from __future__ import annotations

import logging
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from quicksilver.config import MeasureConfig, MeterName, SandboxConfig
from quicksilver.faults import InfrastructureFault
from quicksilver.machine import machine_info
from quicksilver.meters import MeterError
from quicksilver.profiler.estimate import _estimate, estimator_name, mode_check
from quicksilver.profiler.memory import (
    _case_memory,
    _largest_bytes,
    _load_memory,
    _memory_source,
    _pass_tmu,
    _Tmu,
    _with_unsampled_peaks,
)
from quicksilver.profiler.model import CaseResult, ProfileTask, RunResult, Status
from quicksilver.profiler.runner import _Pass, _TaskRunner
from quicksilver.profiler.verdicts import (
    _plain_outputs,
    _status_of_exception,
    _unexpected,
    _Verdict,
    _wrong_answer,
)
from quicksilver.sandbox import isolation as iso
from quicksilver.sandbox.session import SandboxError, ShuttingDown
from quicksilver.stats import ModeSplit

log = logging.getLogger("quicksilver.profiler")


@dataclass
class _Solution:
    """A solution's profile as it goes: the verdict, then the passes."""

    index: int
    code: str
    result: RunResult
    items: list[dict[str, Any]] = field(default_factory=list)
    honest: list[int] = field(default_factory=list)
    honest_memory: list[int | None] = field(default_factory=list)  # a report's memory growth
    passes: list[_Pass] = field(default_factory=list)
    costs: list[int] = field(default_factory=list)  # raw, per pass
    charges: list[list[int]] = field(default_factory=list)  # raw, per pass, per case
    idle_charges: list[int] = field(default_factory=list)
    memory: list[list[int | None]] = field(default_factory=list)  # per pass, per case (bytes)
    load_memory: list[int | None] = field(default_factory=list)  # per pass (bytes)
    memory_sources: list[str | None] = field(default_factory=list)  # per pass
    tmu: _Tmu | None = None  # from the sampled pass
    native_cpu: float | None = None  # CPU seconds of its native pass ("Native first")
    done: bool = False


class _Profile:
    """Profiling several solutions of one task in one zygote (see the module docstring)."""

    def __init__(
        self,
        task: ProfileTask,
        codes: Sequence[str],
        *,
        meter: MeterName,
        sandbox: SandboxConfig,
        measure: MeasureConfig,
        isolation: iso.Isolation,
        measure_cost: bool,
        keep_outputs: bool = False,
    ) -> None:
        self.task = task
        self.measure = measure
        self.measure_cost = measure_cost
        self.keep_outputs = keep_outputs
        self.runner = _TaskRunner(task, meter, sandbox, measure, isolation)
        m = self.runner.meter
        # under a deterministic meter, every solution is judged natively first ("Native first")
        self.native = (
            _TaskRunner(task, "cpu", sandbox, measure, isolation)
            if m.deterministic and measure.native_first
            else None
        )
        mid = str(machine_info()["machine_id"])
        self.solutions = [
            _Solution(
                i,
                code,
                RunResult(
                    task_id=task.task_id,
                    status="error",
                    meter=m.name,
                    unit=m.unit,
                    isolation=isolation.mode,
                    machine_id=mid,
                    cases=[CaseResult(index=j) for j in range(len(task.cases))],
                    cpu_limits=dict(self.runner.applied),
                ),
            )
            for i, code in enumerate(codes)
        ]

    def run(self) -> list[RunResult]:
        started = time.monotonic()
        try:
            return self._run()
        finally:
            log.info(
                "%s: %d solution(s) profiled with %s in %.1f s",
                self.task.task_id,
                len(self.solutions),
                self.runner.meter.name,
                time.monotonic() - started,
            )

    def _run(self) -> list[RunResult]:
        runner = self.runner
        # the native verdicts first, in their own zygote and judge, closed before the meter's
        # zygote starts: the counted passes run exactly as they would without them
        self._native_verdicts()
        try:
            if any(not sol.done for sol in self.solutions):
                try:
                    runner.start()
                except _Verdict as v:
                    return self._all(v.status, str(v))
                except (SandboxError, MeterError, OSError) as exc:
                    if isinstance(exc, ShuttingDown):
                        raise
                    return self._all("error", f"could not start the sandbox: {exc}")
                except InfrastructureFault:
                    raise  # no verdict on the code: the stage runs again (quicksilver/faults.py)
                except Exception as exc:  # a task's problem is its solutions' verdict
                    return self._all(
                        "error", _unexpected(exc, self.task.task_id, "the task's setup")
                    )
                for sol in self.solutions:
                    if not sol.done:
                        self._verdict(sol)
                if self.measure_cost and not runner.meter.deterministic:
                    self._rounds()
        finally:
            runner.close()
        for sol in self.solutions:
            try:
                self._finish(sol)
            except Exception as exc:  # one solution never stops the others
                res = sol.result
                res.status, res.runtime, res.runtime_ci = "error", None, None
                res.error = _unexpected(exc, self.task.task_id, "its figures")
        return [s.result for s in self.solutions]

    def _all(self, status: Status, message: str) -> list[RunResult]:
        """Every solution without a verdict yet gets this one (the task could not start)."""
        for sol in self.solutions:
            if not sol.done:
                sol.result.status, sol.result.error = status, message
        return [s.result for s in self.solutions]

    @staticmethod
    def _judged(
        runner: _TaskRunner, items: list[dict[str, Any]], res: RunResult, prefix: str = ""
    ) -> None:
        """Every case's answer judged by the task's ``evaluate_offline`` (in ``runner``'s
        judge): the first failure is the verdict (a :class:`_Verdict`, its text after
        ``prefix``)."""
        verdicts = runner.judge(items)
        for i, v in enumerate(verdicts):
            if not v.get("ok"):
                raise _Verdict(
                    "error", f"{prefix}case {i}: evaluate_offline failed: {v.get('error')}", i
                )
            res.cases[i].passed = bool(v["passed"])
            if not v["passed"]:
                raise _Verdict("failed", prefix + _wrong_answer(items[i], i), i)

    def _native_verdicts(self) -> None:
        """Every solution judged natively first (``self.native``, "Native first" in
        docs/profiler.md): a failure there is its verdict, prefixed "natively:", and it is not
        counted; a solution that passes gets the CPU limit of its counted pass
        (:meth:`_counted_limit`)."""
        native = self.native
        if native is None:
            return
        try:
            try:
                native.start(calibrate=False)
            except ShuttingDown:
                raise
            except Exception as exc:  # counted as before, only without the native verdicts
                log.warning(
                    "%s: the native judge did not start (%s): solutions are judged under the "
                    "meter only",
                    self.task.task_id,
                    exc,
                )
                self.native = None
                return
            for sol in self.solutions:
                self._native_verdict(native, sol)
        finally:
            native.close()

    def _native_verdict(self, native: _TaskRunner, sol: _Solution) -> None:
        res = sol.result
        try:
            try:
                npass = native.run_pass(sol.code)
            except _Verdict as v:
                raise _Verdict(v.status, f"natively: {v}", v.case) from None
            finally:
                out = native.last_output
                res.stdout, res.stderr = out["stdout"], out["stderr"]
                res.output_dropped_bytes = out["dropped_bytes"]
            self._judged(native, npass.items, res, "natively: ")
            sol.native_cpu = npass.cpu_ns / 1e9
        except _Verdict as v:
            res.status, res.error, res.failed_case = v.status, str(v), v.case
            sol.done = True
        except ShuttingDown:
            raise
        except SandboxError as exc:
            status, message = _status_of_exception(exc)
            res.status, res.error = status, f"natively: {message}"
            sol.done = True
        except Exception as exc:  # one solution never stops the others (docs/sandbox.md)
            res.status = "error"
            res.error = _unexpected(exc, self.task.task_id, "the native verdict")
            sol.done = True

    def _counted_limit(self, sol: _Solution) -> float | None:
        """The counted pass's CPU limit (native seconds) after a native pass: ``native_margin``
        x its CPU, ``native_floor_seconds`` at least; None without a native pass."""
        if sol.native_cpu is None:
            return None
        m = self.measure
        return max(m.native_floor_seconds, m.native_margin * sol.native_cpu)

    def _verdict(self, sol: _Solution) -> None:
        runner = self.runner
        res = sol.result
        try:
            limit = self._counted_limit(sol)
            try:
                # the verdict pass is the sampled one (its memory curve, for the time-memory
                # integral): the first pass of the solution, so that nothing it did in an
                # earlier pass can lighten it, and, with a time meter, not timed
                # after a native pass (which ran under the row's limit per call) the counted
                # pass's own limit is its native CPU's margin: a call near the per-call limit
                # natively is not cut by the emulator's uneven slowdown
                first = runner.run_pass(
                    sol.code,
                    sample=self.measure_cost,
                    cpu_seconds=limit,
                    per_call=sol.native_cpu is None,
                )
            except _Verdict as v:
                if v.status != "timeout" or sol.native_cpu is None:
                    raise
                raise _Verdict(
                    "timeout",
                    f"{v} under the meter, though it finished natively in "
                    f"{sol.native_cpu:.3g} s of CPU (a counted pass may take "
                    f"{self.measure.native_margin:g}x that, "
                    f"{self.measure.native_floor_seconds:g} s at least)",
                    v.case,
                ) from None
            finally:
                out = runner.last_output
                res.stdout, res.stderr = out["stdout"], out["stderr"]
                res.output_dropped_bytes = out["dropped_bytes"]
            self._judged(runner, first.items, res)
            res.status = "passed"
            sol.items = first.items
            if self.keep_outputs:
                res.outputs = [_plain_outputs(item) for item in first.items]
            if self.measure_cost and self.task.cases:
                sol.honest, sol.honest_memory = runner.honest_reports(first.items)
                sol.tmu = _pass_tmu(
                    first,
                    sol.honest,
                    sol.honest_memory,
                    runner.tolerance,
                    runner.slack,
                    runner.idle_slack,
                )
                if runner.meter.deterministic:
                    # a count and a high-water mark are the same whether the host samples or
                    # not: the one pass is the sampled pass and the measured one
                    self._add(sol, first)
                else:
                    # the host's sampling thread runs beside the child: its time is not booked
                    # (the rounds are), its peak memory is (sampling never resets the mark)
                    self._add_memory(sol, first)
        except _Verdict as v:
            res.status, res.error, res.failed_case = v.status, str(v), v.case
            sol.done = True
        except MeterError as exc:
            res.status, res.error = "error", f"meter failed: {exc}"
            sol.done = True
        except ShuttingDown:
            raise
        except SandboxError as exc:
            res.status, res.error = _status_of_exception(exc)
            sol.done = True
        except Exception as exc:  # one solution never stops the others (docs/sandbox.md)
            res.status, res.error = "error", _unexpected(exc, self.task.task_id, "the verdict")
            sol.done = True
        if not self.measure_cost or runner.meter.deterministic:
            sol.done = True

    def _add(self, sol: _Solution, p: _Pass) -> None:
        """Book one pass: its cost is load + calls + every excess beyond a calibration."""
        tol, slack = self.runner.tolerance, self.runner.slack
        charges = [
            max(0, rep - int(honest * tol) - slack)
            for rep, honest in zip(p.reports, sol.honest, strict=True)
        ]
        idle = max(0, p.idle - self.runner.idle_slack * (2 * len(p.calls) + 1))
        sol.passes.append(p)
        sol.charges.append(charges)
        sol.idle_charges.append(idle)
        sol.costs.append(p.load + sum(p.calls) + sum(charges) + idle)
        self._add_memory(sol, p)

    def _add_memory(self, sol: _Solution, p: _Pass) -> None:
        """Book one pass's peak memory (each figure is the largest over passes)."""
        sol.memory.append(_case_memory(p, sol.honest_memory))
        sol.load_memory.append(_load_memory(p))
        sol.memory_sources.append(p.memory_source)

    def _rounds(self) -> None:
        """Further passes, one solution after another in turn, until each has converged."""
        m = self.measure
        budget = m.budget_seconds * 1e9
        # the verdict pass (the sampled one) is not booked with a time meter: max_rounds more
        for rnd in range(1, m.max_rounds + 1):
            active = [s for s in self.solutions if not s.done]
            if not active:
                break
            for sol in active:
                res = sol.result
                try:
                    p = self.runner.run_pass(sol.code)
                    if p.items != sol.items:
                        verdicts = self.runner.judge(p.items)
                        for i, v in enumerate(verdicts):
                            if not (v.get("ok") and v.get("passed")):
                                raise _Verdict(
                                    "failed",
                                    f"pass {rnd + 1}: {_wrong_answer(p.items[i], i)} (it passed "
                                    "the verdict pass: answers that change between passes)",
                                    i,
                                )
                    self._add(sol, p)
                except _Verdict as v:
                    res.status, res.error, res.failed_case = v.status, str(v), v.case
                    if v.status != "failed":
                        res.error = f"pass {rnd + 1} (after passing the verdict pass): {v}"
                    sol.done = True
                    continue
                except ShuttingDown:
                    raise
                except SandboxError as exc:
                    status, message = _status_of_exception(exc)
                    res.status, res.error = status, f"pass {rnd + 1}: {message}"
                    sol.done = True
                    continue
                except Exception as exc:  # one solution never stops the others
                    res.status = "error"
                    res.error = _unexpected(exc, self.task.task_id, f"pass {rnd + 1}")
                    sol.done = True
                    continue
                n = len(sol.costs)
                spent = sum(q.cpu_ns for q in sol.passes[1:])
                if n >= m.min_rounds:
                    if _estimate(m, sol.costs).rel_half_width <= m.target_rel_ci:
                        res.converged = sol.done = True
                    elif spent > budget:
                        res.flags.append("budget")
                        sol.done = True

    def _modes(self, sol: _Solution) -> ModeSplit:
        """The mode check of ``sol``'s passes, against the task's other passing solutions
        (measured interleaved with it, round by round)."""
        m = self.runner.meter
        peers = [
            [m.to_unit(c) for c in other.costs]
            for other in self.solutions
            if other is not sol and other.result.status == "passed" and other.costs
        ]
        costs = [m.to_unit(c) for c in sol.costs]
        return mode_check(self.measure, costs, peers, unit=m.unit)

    def _finish(self, sol: _Solution) -> None:
        res = sol.result
        m = self.runner.meter
        res.window_overhead = m.to_unit(self.runner.null_call)
        res.measure_cpu_seconds = sum(p.cpu_ns for p in sol.passes) / 1e9
        if res.status == "passed" and sol.tmu is not None:
            runner = self.runner
            t = _with_unsampled_peaks(
                sol.tmu, sol.passes, sol.honest_memory, runner.null_call, runner.null_load
            )
            res.tmu = m.to_unit(t.total)
            res.tmu_samples = t.readings
            res.tmu_interval_ms = t.interval_s * 1e3
            res.tmu_bounded = t.load_bounded or any(t.bounded)
            for case, tmu, n, b in zip(res.cases, t.cases, t.samples, t.bounded, strict=False):
                case.tmu, case.tmu_samples, case.tmu_bounded = m.to_unit(tmu), n, b
            if res.tmu_bounded:
                log.info(
                    "%s: a pass that was not sampled held more memory than the sampled one; "
                    "the TMU of its load (%s) and cases %s is that pass's peak x duration",
                    res.task_id,
                    t.load_bounded,
                    [i for i, b in enumerate(t.bounded) if b],
                )
        if res.status != "passed" or not sol.costs:
            res.runtime = res.runtime_ci = None
            res.rounds = len(sol.costs)
            return
        n = len(sol.costs)
        res.rounds = n
        res.round_costs = [m.to_unit(c) for c in sol.costs]
        res.load_cost = m.to_unit(statistics.median(p.load for p in sol.passes))
        res.charged = m.to_unit((sum(map(sum, sol.charges)) + sum(sol.idle_charges)) / n)
        res.estimator = estimator_name(self.measure, m.deterministic)
        measure = self.measure
        if m.deterministic:
            res.runtime = res.round_costs[0]
            res.runtime_ci = (res.runtime, res.runtime)
            res.converged = True
        else:
            split = self._modes(sol)
            if split.split:
                # A cheap path in some passes only: the fastest passes would credit it with its
                # luckiest draws. Its median pass is the figure, and it is not converged.
                res.flags.append("modes")
                res.converged = False
                measure = measure.model_copy(update={"estimator": "median"})
                res.estimator = estimator_name(measure, False)
                log.warning(
                    "%s: solution %d's passes split into modes: %s; scored by its median pass",
                    res.task_id,
                    sol.index,
                    split.describe(),
                )
            est = _estimate(measure, res.round_costs)
            # a microsecond solution's passes can read below the empty calls subtracted from
            # them (noise); a cost is never negative
            res.runtime = max(0.0, est.estimate)
            res.runtime_ci = (max(0.0, est.low), max(0.0, est.high))
            if n < measure.min_rounds:
                res.flags.append("few-rounds")
            if not res.converged and not {"budget", "modes"} & set(res.flags):
                res.flags.append("max-rounds" if n >= measure.max_rounds else "unconverged")
        for i, case in enumerate(res.cases):
            per_pass = [
                m.to_unit(p.calls[i] + ch[i]) for p, ch in zip(sol.passes, sol.charges, strict=True)
            ]
            est = _estimate(measure, per_pass)
            case.rounds = n
            case.samples = per_pass
            case.median, case.ci_low, case.ci_high = (
                max(0.0, v) for v in (est.estimate, est.low, est.high)
            )
            case.ci_coverage = est.coverage
            case.converged = res.converged
            case.charged = m.to_unit(sum(ch[i] for ch in sol.charges) / n)
            case.peak_memory_bytes = _largest_bytes([mem[i] for mem in sol.memory])
        res.load_memory_bytes = _largest_bytes(sol.load_memory)
        res.memory_source = _memory_source(sol.memory_sources)
        baselines = [p.baseline for p in sol.passes if p.baseline is not None]
        if sol.passes and len(baselines) == len(sol.passes):
            res.memory_baseline_bytes = int(statistics.median_low(baselines))
        figures = [c.peak_memory_bytes for c in res.cases] + [res.load_memory_bytes]
        if sol.passes and all(f is not None for f in figures):
            res.peak_memory_bytes = max(f for f in figures if f is not None)
        if res.flags:
            log.info(
                "%s: measurement not converged (%s) after %d pass(es)",
                res.task_id,
                ", ".join(res.flags),
                n,
            )
