"""Every solution of a task on every input, judged as the judge would: within its budget.

The testcases stage (quicksilver/stages/testcases.py, step 3) runs its solutions through
:class:`SolutionRuns`; this module is that stage's, apart only for size (a stage never imports
another stage, and no other stage runs solutions this way).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from typing import Any, Literal

from quicksilver.config import CasesSection, SandboxConfig
from quicksilver.execute import BUDGET_STOP, SLOW_STATUSES, BatchRun, CallOutcome, run_outputs
from quicksilver.pipeline.records import Solution

log = logging.getLogger(__name__)

LIMIT_RULE = (
    "every solution runs first with call_floor_seconds per call (a screening pass, stopped early "
    "once the solution has not finished more than max_timeout_share of the inputs or an input "
    "most solutions finished within call_floor_seconds / call_limit_factor); every call it did "
    "not finish then runs again with solution_cpu_seconds (the ceiling; an input most peers did "
    "not finish gets the test set's budget left, if less), until those calls have spent "
    "test_set_cpu_seconds (then the calls the screening never made run with the floor, and the "
    "inputs still not finished are left out); an input's limit is the ceiling where a kept "
    "solution's answer on it came from a call run again, else the floor; a solution is the slow "
    "one only when it does not finish, within the ceiling, an input enough of its peers finish"
)


BUDGET_SPENT = "the test set's budget is spent"
"""The error of a call not made (or not finished within the room left) because the solution's
calls run again spent the test set's budget (``test_set_cpu_seconds``): the input is left out of
the test set (``over-budget``), the solution stays."""


def budget_spent(outcome: CallOutcome) -> bool:
    """Whether ``outcome`` is a call not made because its solution spent the test set's budget."""
    return outcome.status == "skipped" and (outcome.error or "").startswith(BUDGET_SPENT)


SCREENING_BUDGETS = 2.0
"""A solution's screening stops once its calls have spent this many test set's budgets: the
test set keeps, for each solution, inputs worth one budget at most, taken in :func:`fit_order`;
the second budget is room for inputs another solution makes the test set leave out. The calls
it did not make are the final word's like any other not made: an input its peers finished is
run again with the ceiling first (so a hopeless solution is still found slow), the rest within
the budget, then with the floor within one more."""


def _budget_stopped(outcome: CallOutcome) -> bool:
    """A call not made because its batch spent its CPU budget (the screening's)."""
    return (outcome.error or "").startswith(BUDGET_STOP)


def _unfinished(outcome: CallOutcome) -> bool:
    """A call not finished, or not made for any reason but the test set's budget."""
    return outcome.status in SLOW_STATUSES and not budget_spent(outcome)


def fit_order(kinds: list[str], weights: list[float]) -> list[int]:
    """The order in which the test set's budget keeps inputs (and the order solutions run
    them): the examples, the edge cases, the heaviest generated input by ``weights`` (the first
    of the heaviest, in the generator's order), then the other generated inputs in the
    generator's order. The testcases stage weighs inputs by their size (their JSON text), so
    the order is known before anything runs and the largest size stays."""
    n = len(kinds)
    generated = [i for i in range(n) if kinds[i] not in ("example", "edge")]
    heaviest = max(generated, key=lambda i: weights[i], default=None)
    return (
        [i for i in range(n) if kinds[i] == "example"]
        + [i for i in range(n) if kinds[i] == "edge"]
        + ([heaviest] if heaviest is not None else [])
        + [i for i in generated if i != heaviest]
    )


@dataclass(frozen=True)
class Fit:
    """A test set sized to its budget (:func:`fit_to_budget`)."""

    kept: list[int]  # positions of the cases kept, in their order
    left_out: list[int]  # generated or edge cases that did not fit
    over: list[int]  # solutions (positions in ``costs``) over the budget on the examples alone
    cost: float  # the slowest kept solution's CPU over the kept cases


def fit_to_budget(
    kinds: list[str], costs: list[list[float]], budget: float, order: list[int] | None = None
) -> Fit:
    """Which cases stay so that every solution's total CPU over them is within ``budget``.

    ``kinds[i]`` is case i's kind (example, edge, generated), ``costs[s][i]`` solution s's CPU
    on it. The examples are the statement's ground truth and always stay; a solution over the
    budget on them alone is named in ``over`` and the rest are fitted without it. Then, in
    ``order`` (:func:`fit_order`: the edge cases, the smallest and extreme inputs; the heaviest
    generated input, so the largest size stays; the other generated inputs in the generator's
    random order, so the sizes kept keep the generator's spread rather than every case at the
    maximum), a case stays when every solution's total still fits. Without ``order``, the
    heaviest generated input is the most expensive one.
    """
    examples = [i for i, k in enumerate(kinds) if k == "example"]
    over = [s for s, c in enumerate(costs) if sum(c[i] for i in examples) > budget]
    fitted = [c for s, c in enumerate(costs) if s not in over]
    totals = [sum(c[i] for i in examples) for c in fitted]
    if order is None:
        weights = [max((c[i] for c in fitted), default=0.0) for i in range(len(kinds))]
        order = fit_order(kinds, weights)
    kept = set(examples)
    left_out = []
    for i in (i for i in order if kinds[i] != "example"):
        if all(t + c[i] <= budget for t, c in zip(totals, fitted, strict=True)):
            kept.add(i)
            totals = [t + c[i] for t, c in zip(totals, fitted, strict=True)]
        else:
            left_out.append(i)
    return Fit(sorted(kept), sorted(left_out), over, max(totals, default=0.0))


@dataclass
class SolutionRuns:
    """Every solution of a task on every input, judged as the judge would: within its budget.

    The judge (the Mercury authors' evaluator) gives a solution ``judge_seconds`` for the whole
    test set; no single call may take more than ``solution_cpu_seconds``, the ceiling. So:

    1. a screening pass: every solution runs every input with ``call_floor_seconds`` per call,
       and is stopped early once it has failed to finish more inputs than
       ``max_timeout_share`` allows, or an input that most of the solutions before it finished
       within floor / ``call_limit_factor`` (a hanging or exponential solution costs a few
       floors here, not the ceiling on every input). Nothing is decided by this pass;
    2. the final word: every call a solution did not finish (or did not make) runs again with
       the ceiling, a few at a time, until a call does not finish an input enough of its peers
       finished, or those calls have spent the test set's budget (``test_set_cpu_seconds``, at
       most the judge's: the calls the screening never made then run with the floor, and what
       is still not finished is :data:`BUDGET_SPENT`: the testcases stage leaves those inputs
       out of the test set, since no test set that holds them fits this solution's budget).
       An input that too few peers finished runs with the budget's room left, if less than the
       ceiling: it cannot stay in the test set if it needs more.

    A solution that finishes every input within the ceiling is never the slow one, however far
    its peers are ahead: the test set is then sized so that it runs all of it within the
    budget (quicksilver/stages/testcases.py, ``fit_to_budget``).
    """

    entry_point: str
    convert_offline: str
    output_param: int | None
    inputs: list[Any]
    section: CasesSection
    sandbox: SandboxConfig
    kind: Literal["class", "function"] = "class"
    # each input's kind (example, edge, generated) and size: the screening and the calls run
    # again go in the order the test set's budget keeps inputs (:attr:`order`), so that what
    # the budget pays for is what the test set keeps first, and the largest input its peers
    # finish gets the final word with the ceiling whatever the budget (default: every input
    # generated, of one size: the inputs' own order)
    kinds: list[str] | None = None
    sizes: list[float] | None = None
    order: list[int] = field(init=False)

    def __post_init__(self) -> None:
        n = len(self.inputs)
        self.order = fit_order(self.kinds or ["generated"] * n, self.sizes or [0.0] * n)

    def _run(
        self,
        code: str,
        idx: list[int],
        limits: list[float],
        give_up_after: int,
        decisive: set[int] | None = None,
        cpu_budget: float | None = None,
    ) -> BatchRun:
        return run_outputs(
            code,
            entry_point=self.entry_point,
            kind=self.kind,
            inputs=[self.inputs[i] for i in idx],
            convert_offline=self.convert_offline,
            output_param=self.output_param,
            cpu_seconds=limits,
            load_cpu_seconds=self.section.solution_cpu_seconds,
            memory_mb=self.section.memory_mb,
            sandbox=self.sandbox,
            give_up_after=give_up_after,
            decisive=[k for k, i in enumerate(idx) if i in (decisive or ())],
            cpu_budget=cpu_budget,
        )

    def enough_finishers(self, finishers: int, total: int) -> bool:
        """Whether ``finishers`` of ``total`` solutions finishing an input make a solution that
        does not finish it the slow one (``peers_finish_share``, and two at least)."""
        return finishers >= 2 and finishers >= self.section.peers_finish_share * total

    def run_all(
        self, solutions: list[Solution], horizon: bool = True
    ) -> tuple[dict[int, list[CallOutcome]], dict[int, set[int]], dict[int, str]]:
        """(outcomes per loaded solution's hash, the inputs each one's calls ran again with the
        ceiling, load errors by hash).

        With ``horizon``, a solution's screening covers only the inputs up to the horizon
        (:meth:`reach`): the last input the test set's budget could keep for the slowest
        solution screened before it. What lies beyond is :data:`BUDGET_SPENT` for it, as it
        would be once the test set is fitted. Should the solution that set the horizon not
        finish an input within the ceiling in the end (so it may be dropped, and the test set
        not be sized to it), everything runs again without one."""
        sec = self.section
        n = len(self.inputs)
        total = len(solutions)
        allowed = math.floor(sec.max_timeout_share * n + 1e-9)
        every = list(range(n))
        quick = sec.call_floor / sec.call_limit_factor
        need = max(2, math.ceil(sec.peers_finish_share * total - 1e-9), (total - 1) // 2 + 1)
        fast = [0] * n  # solutions that finished each input within floor / factor so far
        outcomes: dict[int, list[CallOutcome]] = {}
        load_errors: dict[int, str] = {}
        order = self.order
        screening = SCREENING_BUDGETS * sec.test_set_cpu_seconds
        reach, setter = n - 1, None  # the horizon, a place in ``order``, and who set it
        for sol in solutions:
            decisive = {i for i in every if fast[i] >= need}
            runs = order[: reach + 1]
            run = self._run(
                sol.code, runs, [sec.call_floor] * len(runs), allowed + 1, decisive, screening
            )
            if run.load_error is not None:
                load_errors[sol.hash] = run.load_error
                continue
            beyond = CallOutcome(
                "skipped",
                error=f"{BUDGET_SPENT}: not run, past the last input the test set's budget could "
                f"keep for solution #{setter.position if setter else 0}",
            )
            outs = [beyond] * n
            for k, i in enumerate(runs):
                outs[i] = run.outcomes[k]
            outcomes[sol.hash] = outs
            for i, o in enumerate(outs):
                if o.status not in SLOW_STATUSES and o.cpu_seconds <= quick:
                    fast[i] += 1
            own = self.reach(outs) if horizon else None
            if own is not None and own < reach:
                reach, setter = own, sol
        if setter is not None:  # past the horizon, nothing is run again: the input is left out
            past = CallOutcome(
                "skipped",
                error=f"{BUDGET_SPENT}: not run again, past the last input the test set's budget "
                f"could keep for solution #{setter.position}",
            )
            for outs in outcomes.values():
                for i in order[reach + 1 :]:
                    if outs[i].status in ("timeout", "skipped") and not budget_spent(outs[i]):
                        outs[i] = past
        finishers = [
            sum(o[i].status not in SLOW_STATUSES for o in outcomes.values()) for i in every
        ]
        # the solutions with the fewest calls to run again go first: what they finish decides
        # inputs for the others (a hanging solution then stops at its first ceiling)
        loaded = [sol for sol in solutions if sol.hash in outcomes]
        loaded.sort(key=lambda sol: sum(_unfinished(o) for o in outcomes[sol.hash]))
        rank = [0] * n
        for place, i in enumerate(order):
            rank[i] = place
        reran: dict[int, set[int]] = {}
        for sol in loaded:
            outs = outcomes[sol.hash]
            decided = {i for i in every if self.enough_finishers(finishers[i], len(outcomes))}
            reran[sol.hash] = self._final_word(sol.code, outs, decided, allowed, rank)
            for i in reran[sol.hash]:
                finishers[i] += outs[i].status not in SLOW_STATUSES
        if setter is not None and any(
            o.status in ("timeout", "memory") for o in outcomes[setter.hash]
        ):
            log.info(
                "solution #%d set the screening's horizon and did not finish every input within "
                "the ceiling: every solution runs again without a horizon",
                setter.position,
            )
            return self.run_all(solutions, horizon=False)
        return outcomes, reran, load_errors

    def reach(self, outs: list[CallOutcome]) -> int | None:
        """The last place in :attr:`order` that the test set's budget could keep for this
        solution alone (None when it sets no horizon): the test set is fitted to it alone, in
        the test set's order, a call not finished at the floor costing the floor (at least).
        A solution that gave up on timeouts, or that is over the budget on the examples alone,
        sets none: it may yet be dropped."""
        if any(o.status == "skipped" and not (_budget_stopped(o) or budget_spent(o)) for o in outs):
            return None
        kinds = self.kinds or ["generated"] * len(outs)
        costs = [
            max(o.cpu_seconds, self.section.call_floor) if o.status == "timeout" else o.cpu_seconds
            for o in outs
        ]
        reached = [i for i in self.order if outs[i].status != "skipped"]
        fit = fit_to_budget(kinds, [costs], self.section.test_set_cpu_seconds, reached)
        if fit.over:
            return None
        place = {i: k for k, i in enumerate(self.order)}
        return max((place[i] for i in fit.kept), default=None)

    def _past_the_budget(
        self, code: str, outs: list[CallOutcome], rest: list[int], spent: float
    ) -> None:
        """The calls left once the calls run again have spent the test set's budget: those the
        screening never made run now with the floor (cheap inputs are still welcome), until
        they too have spent one budget, and every one not finished there is
        :data:`BUDGET_SPENT`: the input is left out (not the solution), since no test set that
        holds it fits this solution's budget. So a solution's calls in this stage cost at most
        four budgets and one ceiling: two screening, one run again, one here."""
        sec = self.section
        why = (
            f"{BUDGET_SPENT}: not run, {spent:.3g} s of CPU went to the calls run again, of the "
            f"test set's budget of {sec.test_set_cpu_seconds:g} s"
        )
        untried = [i for i in rest if outs[i].status == "skipped" and not budget_spent(outs[i])]
        if untried:
            run = self._run(
                code,
                untried,
                [sec.call_floor] * len(untried),
                len(untried) + 1,
                cpu_budget=sec.test_set_cpu_seconds,
            )
            for j, i in enumerate(untried):
                if run.load_error is None and run.outcomes[j].status not in SLOW_STATUSES:
                    outs[i] = run.outcomes[j]
        for i in rest:
            if outs[i].status in ("timeout", "skipped") and not budget_spent(outs[i]):
                outs[i] = CallOutcome("skipped", error=why)

    def _final_word(
        self,
        code: str,
        outs: list[CallOutcome],
        decided: set[int],
        allowed: int,
        rank: list[int],
    ) -> set[int]:
        """Run again every call of one solution that did not finish (or was not made) at the
        floor; ``outs`` is updated in place. The inputs run again are returned.

        The inputs in ``decided`` (enough peers finished them) go first, each with the ceiling,
        and a timeout on one of them ends it: a hanging solution costs one ceiling here. So do
        more than ``allowed`` inputs not finished. Within each group the calls go in the test
        set's order (``rank``), one at a time once less than a ceiling of the budget is left.

        What these calls may spend is the test set's budget (``test_set_cpu_seconds``): every
        one of them needed more than the floor, so once they have spent the budget no test set
        that holds the rest fits this solution, and the rest are :data:`BUDGET_SPENT` (left out,
        the solution stays). An input no majority decided runs with the room left (the ceiling
        at most): not finishing within it is the same, the input left out, not a timeout."""
        sec = self.section
        budget = sec.test_set_cpu_seconds
        # the inputs its peers finished first: a timeout on one of them settles it at once
        redo = sorted(
            (
                i
                for i, o in enumerate(outs)
                if o.status == "timeout" or (o.status == "skipped" and not budget_spent(o))
            ),
            key=lambda i: (i not in decided, rank[i]),
        )
        # the largest input its peers finish goes first: a solution that cannot finish it within
        # the ceiling is the slow one, however early the budget is spent (an exponential one
        # would otherwise spend it on mid-sized inputs and size the test set down to itself)
        sizes = self.sizes or [0] * len(outs)
        largest = max((i for i in redo if i in decided), key=lambda i: sizes[i], default=None)
        if largest is not None:
            redo.remove(largest)
            redo.insert(0, largest)
        ran: set[int] = set()
        settled = sum(o.status == "memory" for o in outs)  # not run again: memory is no time
        if settled > allowed:
            return ran  # too slow whatever the ceiling shows: nothing to run again
        spent = 0.0
        while redo:
            room = budget - spent
            if room <= 0 or (redo[0] not in decided and room <= sec.call_floor):
                self._past_the_budget(code, outs, redo, spent)
                break
            take = redo[: max(1, math.floor(room / sec.solution_cpu_seconds + 1e-9))]
            redo = redo[len(take) :]
            limits = [
                sec.solution_cpu_seconds if i in decided else min(sec.solution_cpu_seconds, room)
                for i in take
            ]
            slow_before = settled + sum(outs[i].status in ("timeout", "memory") for i in ran)
            run = self._run(code, take, limits, allowed + 1 - slow_before, decided)
            for j, i in enumerate(take):
                out = (
                    run.outcomes[j]
                    if run.load_error is None
                    else CallOutcome("error", error=f"on the second run: {run.load_error}")
                )
                if out.status == "timeout" and limits[j] < sec.solution_cpu_seconds:
                    out = CallOutcome(
                        "skipped",
                        error=f"{BUDGET_SPENT}: not finished within the {limits[j]:.3g} s of "
                        f"CPU the test set's budget ({budget:g} s) had left",
                        cpu_seconds=out.cpu_seconds,
                    )
                outs[i] = out
                ran.add(i)
            spent += sum(outs[i].cpu_seconds for i in take)
            slow = settled + sum(outs[i].status in ("timeout", "memory") for i in ran)
            stop = None
            if any(outs[i].status == "timeout" and i in decided for i in take):
                stop = "an input its peers finish was not finished within the ceiling"
            elif slow > allowed:
                stop = f"{slow} call(s) did not finish within the ceiling"
            if stop is not None:
                for i in redo:
                    outs[i] = CallOutcome("skipped", error=f"not run: {stop}")
                break
        return ran
