"""Stage 5, test cases: generated inputs plus the statement's examples, and every solution's
answers on them, all computed in the sandbox.

Per task (a shard of tasks per call, so shards run on any Prefect task runner):

1. the task's seed is derived from the recorded base seed and the slug; ``n`` per-input seeds
   from it; the generator runs once per seed (``random.seed(s)`` before each call);
2. an input is discarded, with its reason, when the generator raised or timed out on its seed,
   when it does not match the method's parameter types, when an offline generator's input
   breaks a constraint of the generator's own spec (``generator-bug``, with an error line: a
   second implementation, synth/offline/checker.py, checks every one), or when it repeats an
   earlier input;
3. every solution runs on every input (one process per solution) as the judge would judge it
   (quicksilver/pipeline/solution_runs.py): a screening pass with ``call_floor_seconds`` per
   call, then every call it did not finish again with ``solution_cpu_seconds``, the ceiling,
   until those calls have spent ``test_set_cpu_seconds`` (the test set's budget per solution;
   the inputs it did not run or finish then are left out, ``over-budget``); the solutions after
   a slow one run only the inputs up to the last one the budget could keep for it (the
   screening's horizon, docs/mercury-build.md). A solution that
   does not load is dropped (``does-not-load``), and so is one whose runs of the statement's
   examples alone cost more
   than the test set's budget (``over-budget``). A solution that does not finish, within the
   ceiling, an input which enough of its peers finish (``peers_finish_share``, two at least) is
   dropped (``slower-than-peers``): the slow solution goes, not the input; one that does not
   finish more than ``max_timeout_share`` of the inputs is dropped (``too-slow``). A solution
   that finishes every input within the ceiling stays, however far its peers are ahead: step 4
   sizes the test set to it. An input that too few
   solutions finish is discarded (``solution-timeout``); inputs on which most solutions raised
   are discarded as ``invalid-input`` (the generator wrote something the task does not accept),
   and so are inputs whose answer is outside a range the statement guarantees (every solution
   that answered agrees; ``answer-out-of-range``: "The answer is guaranteed to fit in a 32-bit
   integer", read into the offline generator's spec);
4. the test set is sized to its budget (:func:`fit_to_budget`): every kept solution must run all
   of it within ``test_set_cpu_seconds`` of CPU, at most the judge's ``judge_seconds`` (the
   Mercury evaluator's 30 s per solution). The examples stay; edge cases, the most expensive
   generated input and then the others in the generator's order stay while every solution's
   total fits; the rest are left out (``over-budget``), and a solution over the budget on the
   examples alone is dropped (``over-budget``). The budget and the cost are recorded
   (``tests.budget``);
5. a task left with fewer than ``min_cases`` inputs is dropped (``too-few-cases``).

The answers are kept per solution and input; the uniqueness stage decides the expected outputs.
"""

from __future__ import annotations

import ast
import hashlib
import json
import logging
from collections import Counter
from dataclasses import dataclass
from typing import Any

from quicksilver import astparse
from quicksilver.agreement import short
from quicksilver.config import CasesSection, SandboxConfig
from quicksilver.execute import (
    SLOW_STATUSES,
    CallOutcome,
    case_seeds,
    run_generator,
)
from quicksilver.pipeline.records import (
    CaseAnswer,
    CaseInput,
    Solution,
    TaskRecord,
    Tests,
    json_digest,
)
from quicksilver.pipeline.solution_runs import (
    LIMIT_RULE,
    Fit,
    SolutionRuns,
    budget_spent,
    fit_to_budget,
)
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.sources.convert import convert_offline_source, judged_answer, parse_signature
from quicksilver.synth import OFFLINE_SYNTHESIZER
from quicksilver.synth.offline.checker import check_input, spec_from_generator
from quicksilver.synth.shapes import conforms

log = logging.getLogger(__name__)


EDGE_ENTRY_NAME = "generate_edge_cases"


def defines(code: str, name: str) -> bool:
    """Whether ``code`` defines a top-level function ``name`` (read, never run)."""
    try:
        tree = astparse.parse(code)
    except SyntaxError:
        return False
    return any(isinstance(n, ast.FunctionDef) and n.name == name for n in tree.body)


def task_seed(base_seed: int, slug: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{base_seed}:{slug}".encode()).digest()[:4], "big")


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


BUDGET_RULE = (
    "every kept solution runs the whole test set within test_set_cpu_seconds of CPU (at most "
    "judge_seconds, the judge's budget per solution): the examples always stay, then the edge "
    "cases, the largest generated input (by its JSON text) and the other generated inputs in "
    "the generator's order, each while every solution's total stays within the budget; a "
    "solution's screening stops once it has spent twice the budget (the calls it did not make "
    "are run again like the calls it did not finish), and the solutions after one whose own fit "
    "ends early run only the inputs up to its end (the rest is left out unrun)"
)


def cases_for_task(
    ctx: Context, record: TaskRecord, section: CasesSection, sandbox: SandboxConfig
) -> TaskRecord | None:
    """The task's test inputs and every surviving solution's answers on them (see the module
    docstring), or None when the task is dropped. Every drop is made in this order: solutions
    that do not load, invalid inputs, slow solutions, inputs too slow for the rest, what the
    budget leaves out, then the task when too few inputs are left."""
    slug = record.slug
    solutions = record.solutions
    sig = parse_signature(record.task.meta)
    seed = task_seed(section.seed, slug)
    spec = _offline_spec(record)
    inputs = _collect_inputs(ctx, record, section, sandbox, seed, spec)
    if inputs is None:
        return None
    runner = SolutionRuns(
        entry_point=sig.name,
        convert_offline=convert_offline_source(sig),
        output_param=sig.output_param,
        inputs=[c.input for c in inputs],
        section=section,
        sandbox=sandbox,
        kind=record.task.kind,
        kinds=[c.kind for c in inputs],
        sizes=[_size(c.input) for c in inputs],
    )
    outcomes, reran, load_errors = runner.run_all(solutions)
    for sol in solutions:
        error = load_errors.get(sol.hash)
        if error is not None:
            ctx.drop(sol, "does-not-load", f"{slug} solution #{sol.position}: {error}")
    alive = [s for s in solutions if s.hash in outcomes]
    judged = _Judged(
        ctx=ctx,
        slug=slug,
        inputs=inputs,
        outcomes=outcomes,
        reran=reran,
        floor=section.call_floor,
        ceiling=section.solution_cpu_seconds,
        alive=alive,
        slow_of={
            s.hash: [i for i, o in enumerate(outcomes[s.hash]) if o.status in SLOW_STATUSES]
            for s in alive
        },
        order=runner.order,
    )
    invalid = judged.drop_invalid_inputs()
    invalid |= judged.drop_answers_out_of_range((spec or {}).get("answer"), invalid)
    judged.drop_over_on_examples(invalid, section)
    judged.drop_slow_solutions(invalid, runner, section)
    keep_idx, fit = judged.fit_budget(judged.inputs_all_finish(invalid), section)
    kept_inputs = [inputs[i] for i in keep_idx]
    if len(kept_inputs) < section.min_cases:
        ctx.drop(
            record,
            "too-few-cases",
            f"{slug}: {len(kept_inputs)} usable input(s), fewer than min_cases "
            f"({section.min_cases})",
            lost=alive,
        )
        return None
    answer_type = sig.returns if sig.output_param is None else sig.params[sig.output_param][1]
    leetcode = record.task.kind != "function"  # LeetCode's reading of a boolean answer
    answered = [
        sol.model_copy(
            update={
                "answers": [
                    CaseAnswer(
                        status=o.status,
                        value=judged_answer(o.value, answer_type, leetcode=leetcode)
                        if o.ok
                        else None,
                        error=o.error,
                        cpu=round(o.cpu_seconds, 6),
                    )
                    for o in (outcomes[sol.hash][i] for i in keep_idx)
                ]
            }
        )
        for sol in alive
    ]
    slowest = max(answered, key=lambda s: sum(a.cpu for a in s.answers or []), default=None)
    tests = Tests(
        seed=seed,
        base_seed=section.seed,
        cases=kept_inputs,
        call_limits={
            "floor_seconds": section.call_floor,
            "factor": section.call_limit_factor,
            "ceiling_seconds": section.solution_cpu_seconds,
            "rule": LIMIT_RULE,
            "per_input": [judged.input_limit(i) for i in keep_idx],
        },
        budget={
            "judge_seconds": section.judge_seconds,
            "budget_seconds": section.test_set_cpu_seconds,
            "cost_seconds": round(fit.cost, 3),
            "left_out": len(fit.left_out),
            # inputs a solution never ran or finished: its calls run again spent the budget first
            "left_out_unrun": judged.unrun,
            # the kept solution the test set was sized to (the binding one when inputs went)
            "slowest_solution": slowest.position if slowest is not None else None,
            "rule": BUDGET_RULE,
        },
    )
    return record.with_solutions(answered, tests=tests)


def _size(value: Any) -> float:
    """An input's size for :func:`fit_order`: the length of its JSON text, ties broken by the
    magnitude of its numbers (``[45]`` is larger than ``[39]``: the same text length)."""
    total = _magnitude(value)
    return len(json.dumps(value, separators=(",", ":"))) + total / (1.0 + total)


def _magnitude(value: Any) -> float:
    """The sum of the absolute values of the numbers in ``value`` (nested lists, any data)."""
    if isinstance(value, list | tuple):
        return sum(_magnitude(v) for v in value)
    if isinstance(value, dict):
        return sum(_magnitude(v) for v in value.values())
    if isinstance(value, int | float) and not isinstance(value, bool):
        return min(abs(float(value)), 1e300)
    return 0.0


def _over_on_examples(spent: float, budget: float) -> str:
    return (
        f"needs {spent:.3g} s of CPU for the statement's examples alone, over the test set's "
        f"budget of {budget:g} s"
    )


def _outside(value: Any, lo: int, hi: int) -> bool:
    """Some integer in ``value`` (a number, or nested lists of them) lies outside [lo, hi]."""
    if isinstance(value, list):
        return any(_outside(v, lo, hi) for v in value)
    return isinstance(value, int) and not isinstance(value, bool) and not lo <= value <= hi


def _offline_spec(record: TaskRecord) -> dict[str, Any] | None:
    """The offline synthesizer's spec of the task's generator (None for an LLM's generator,
    which has none): every input is checked against it, and its ``answer`` range, where the
    statement guarantees one, decides which inputs the task takes."""
    assert record.generator is not None, "testcases reads the generators stage's records"
    if record.generator.generator_model != OFFLINE_SYNTHESIZER:
        return None
    return spec_from_generator(record.generator.generator_code)


def _collect_inputs(
    ctx: Context,
    record: TaskRecord,
    section: CasesSection,
    sandbox: SandboxConfig,
    seed: int,
    spec: dict[str, Any] | None,
) -> list[CaseInput] | None:
    """The statement's examples, the generator's edge cases and its seeded inputs, each checked
    against the parameter types and deduplicated (each one set aside says why); None, with the
    task dropped, when the generator does not load."""
    slug = record.slug
    assert record.generator is not None, "testcases reads the generators stage's records"
    types = [t for _, t in parse_signature(record.task.meta).params]
    seeds = case_seeds(seed, section.n)
    gen = run_generator(
        record.generator.generator_code,
        seeds=seeds,
        cpu_seconds=section.generator_cpu_seconds,
        memory_mb=section.memory_mb,
        sandbox=sandbox,
    )
    if gen.load_error:
        ctx.drop(
            record, "generator-failed", f"{slug}: the generator does not load: {gen.load_error}"
        )
        return None
    inputs: list[CaseInput] = []
    seen: set[str] = set()

    # the offline synthesizer's inputs are checked against its spec by a second implementation
    # (synth/offline/checker.py); an LLM's generator has no spec to check against
    def add(value: Any, kind: str, case_seed: int | None) -> None:
        key = json_digest(value)
        where = f"{slug}: {kind} input" + (f" (seed {case_seed})" if case_seed is not None else "")
        problem = _input_problem(value, types)
        if problem:
            ctx.drop(
                {"slug": slug, "input": value, "seed": case_seed},
                "input-type-mismatch",
                f"{where}: {problem}",
                dropped="input",
            )
            return
        broken = check_input(spec, value) if spec is not None and kind != "example" else []
        if broken:
            # our own synthesizer wrote an input the statement forbids: a bug, said loudly
            log.error("%s: the offline generator broke a stated constraint: %s", where, broken[0])
            ctx.drop(
                {"slug": slug, "input": value, "seed": case_seed},
                "generator-bug",
                f"{where}: the offline generator broke a stated constraint: "
                + "; ".join(broken[:3]),
                dropped="input",
            )
            return
        if key in seen:
            ctx.drop(
                {"slug": slug, "input": value, "seed": case_seed},
                "duplicate-input",
                f"{where}: the same as an earlier input",
                dropped="input",
            )
            return
        seen.add(key)
        inputs.append(CaseInput(input=value, kind=kind, seed=case_seed))

    if section.include_examples:
        for ex in record.task.examples:
            add(list(ex), "example", None)
    code = record.generator.generator_code
    if section.include_edge_cases and defines(code, EDGE_ENTRY_NAME):
        edge = run_generator(
            code,
            seeds=[seed],
            entry=EDGE_ENTRY_NAME,
            cpu_seconds=section.generator_cpu_seconds,
            memory_mb=section.memory_mb,
            sandbox=sandbox,
        )
        outcome = edge.outcomes[0] if edge.outcomes else None
        if outcome is not None and outcome.ok and isinstance(outcome.value, list):
            for value in outcome.value:
                add(value, "edge", None)
        else:
            why = edge.load_error or (
                f"{outcome.status}: {outcome.error}"
                if outcome and not outcome.ok
                else "it did not return a list of inputs"
            )
            ctx.drop(
                {"slug": slug},
                "generator-error",
                f"{slug}: the generator's {EDGE_ENTRY_NAME}() failed: {why}",
                dropped="input",
            )
    for s, outcome in zip(seeds, gen.outcomes, strict=True):
        if not outcome.ok:
            ctx.drop(
                {"slug": slug, "seed": s},
                "generator-error",
                f"{slug}: the generator failed on seed {s}: {outcome.status}: {outcome.error}",
                dropped="input",
            )
            continue
        add(outcome.value, "generated", s)
    return inputs


@dataclass
class _Judged:
    """One task's inputs and its loaded solutions' outcomes on them, while the steps of
    :func:`cases_for_task` drop inputs and solutions (``alive`` shrinks as solutions go)."""

    ctx: Context
    slug: str
    inputs: list[CaseInput]
    outcomes: dict[int, list[CallOutcome]]
    reran: dict[int, set[int]]  # solution hash -> the inputs its calls ran again, with the ceiling
    floor: float
    ceiling: float
    alive: list[Solution]
    slow_of: dict[int, list[int]]  # solution hash -> the inputs it did not finish
    order: list[int]  # the order the solutions ran the inputs in, the test set's (fit_order)
    unrun: int = 0  # inputs left out because a solution spent the test set's budget before them

    def limit(self, sol: Solution, i: int) -> float:
        """The limit of ``sol``'s last call on input ``i``: the ceiling when it ran again."""
        return self.ceiling if i in self.reran.get(sol.hash, ()) else self.floor

    def input_limit(self, i: int) -> float:
        """Input ``i``'s limit, recorded: the ceiling when a kept solution's answer on it came
        from a call run again there, else the floor."""
        return max((self.limit(s, i) for s in self.alive), default=self.floor)

    def drop_solution(self, sol: Solution, reason: str, detail: str) -> None:
        self.ctx.drop(sol, reason, f"{self.slug} solution #{sol.position}: {detail}")
        self.alive.remove(sol)

    def drop_invalid_inputs(self) -> set[int]:
        """1. Inputs on which most solutions raised: the generator wrote something the task does
        not accept (decided before anyone is dropped for speed: validity is not about speed)."""
        invalid: set[int] = set()
        alive, outcomes = self.alive, self.outcomes
        for i, case in enumerate(self.inputs):
            errors = [s for s in alive if outcomes[s.hash][i].status == "error"]
            if alive and len(errors) * 2 > len(alive):
                invalid.add(i)
                first = Counter(str(outcomes[s.hash][i].error) for s in errors).most_common(1)
                self.ctx.drop(
                    {"slug": self.slug, **case.row()},
                    "invalid-input",
                    f"{self.slug}: input discarded: {len(errors)} of {len(alive)} solutions "
                    f"raised on it (most often: {first[0][0][:200]})",
                    dropped="input",
                )
        return invalid

    def drop_answers_out_of_range(
        self, answer: dict[str, Any] | None, invalid: set[int]
    ) -> set[int]:
        """1b. Inputs the statement rules out by their answer (``The answer is guaranteed to
        fit in a 32-bit integer``): every solution that answered gave a number outside the
        range. No generator can aim for an answer; the build keeps the guarantee by keeping
        only the inputs that meet it."""
        out: set[int] = set()
        if not answer:
            return out
        lo, hi = answer["lo"], answer["hi"]
        for i, case in enumerate(self.inputs):
            if i in invalid or case.kind == "example":
                continue
            values = [o.value for s in self.alive if (o := self.outcomes[s.hash][i]).ok]
            if values and all(_outside(v, lo, hi) for v in values):
                out.add(i)
                self.ctx.drop(
                    {"slug": self.slug, **case.row()},
                    "answer-out-of-range",
                    f"{self.slug}: input discarded: its answer ({short(values[0], 80)}) is "
                    f"outside [{lo}, {hi}], which the statement guarantees: "
                    f'"{answer.get("text", "")}"',
                    dropped="input",
                )
        return out

    def drop_over_on_examples(self, invalid: set[int], section: CasesSection) -> None:
        """2a. A solution whose runs of the statement's examples alone cost more than the test
        set's budget fits in no test set (the examples always stay). It goes before the inputs
        are settled, so that what it did not run does not leave inputs out for the others."""
        budget = section.test_set_cpu_seconds
        examples = [
            i for i, c in enumerate(self.inputs) if c.kind == "example" and i not in invalid
        ]
        for sol in list(self.alive):
            outs = self.outcomes[sol.hash]
            spent = sum(outs[i].cpu_seconds for i in examples if outs[i].status == "ok")
            if spent > budget:
                self.drop_solution(sol, "over-budget", _over_on_examples(spent, budget))

    def drop_slow_solutions(
        self, invalid: set[int], runner: SolutionRuns, section: CasesSection
    ) -> None:
        """2. A solution that does not finish, within the ceiling, an input enough of its peers
        finish is the slow one (not the input); 3. one that did not finish more than
        max_timeout_share of the inputs is too slow. Either may have been stopped before every
        call was made (the calls not made are counted, and the detail says why)."""
        n_inputs = len(self.inputs)
        loaded = len(self.alive)
        finishers = [
            sum(self.outcomes[s.hash][i].status not in SLOW_STATUSES for s in self.alive)
            for i in range(n_inputs)
        ]
        for sol in list(self.alive):
            outs = self.outcomes[sol.hash]
            unrun = [
                i
                for i in self.slow_of[sol.hash]
                if budget_spent(outs[i]) and self.inputs[i].kind == "example" and i not in invalid
            ]
            if unrun:  # the examples always stay: one it never ran is its own over-budget
                self.drop_solution(
                    sol,
                    "over-budget",
                    f"spent the test set's budget before running the statement's example (input "
                    f"{unrun[0]}): {outs[unrun[0]].error}",
                )
                continue
            slow = [
                i for i in self.slow_of[sol.hash] if i not in invalid and not budget_spent(outs[i])
            ]
            skipped = [i for i in slow if outs[i].status == "skipped"]
            why = f" ({outs[skipped[0]].error})" if skipped and outs[skipped[0]].error else ""
            stopped = f"; stopped there, {len(skipped)} input(s) not run{why}" if skipped else ""
            peers = [
                i
                for i in slow
                if outs[i].status != "skipped" and runner.enough_finishers(finishers[i], loaded)
            ]
            if peers:
                i = peers[0]
                self.drop_solution(
                    sol,
                    "slower-than-peers",
                    f"did not finish input {i} ({outs[i].status}, limit "
                    f"{self.limit(sol, i):g} s of CPU) which {finishers[i]} of the "
                    f"{loaded - 1} other solutions finish{stopped}",
                )
            elif skipped or (n_inputs and len(slow) / n_inputs > section.max_timeout_share):
                share = (
                    f" (more than max_timeout_share {section.max_timeout_share:g} allows)"
                    if (len(slow) - len(skipped)) / n_inputs > section.max_timeout_share
                    else ""
                )
                self.drop_solution(
                    sol,
                    "too-slow",
                    f"did not finish {len(slow) - len(skipped)} of {n_inputs} inputs within "
                    f"their limits{share}{stopped}",
                )

    def inputs_all_finish(self, invalid: set[int]) -> list[int]:
        """The valid inputs every remaining solution finished; each other one is set aside."""
        keep_idx = []
        for i, case in enumerate(self.inputs):
            if i in invalid:
                continue
            heavy = [s for s in self.alive if i in self.slow_of[s.hash]]
            spent = [s for s in heavy if budget_spent(self.outcomes[s.hash][i])]
            if spent and len(spent) == len(heavy):
                self.unrun += 1
                self.ctx.drop(
                    {"slug": self.slug, **case.row()},
                    "over-budget",
                    f"{self.slug}: {case.kind} input left out: solution(s) "
                    f"{', '.join('#' + str(s.position) for s in spent)} spent the test set's "
                    "budget on the inputs before it (calls run again with the ceiling): "
                    f"{self.outcomes[spent[0].hash][i].error}",
                    dropped="input",
                )
                continue
            if heavy:
                self.ctx.drop(
                    {"slug": self.slug, **case.row()},
                    "solution-timeout",
                    f"{self.slug}: input discarded: solution(s) "
                    f"{', '.join('#' + str(s.position) for s in heavy)} did not finish it "
                    f"within {max(self.limit(s, i) for s in heavy):g} s of CPU, and too few "
                    "others did",
                    dropped="input",
                )
                continue
            keep_idx.append(i)
        return keep_idx

    def fit_budget(self, keep_idx: list[int], section: CasesSection) -> tuple[list[int], Fit]:
        """4. The test set within its budget: every kept solution runs all of it as the judge
        would. The inputs kept, and the fit."""
        inputs, outcomes, budget = self.inputs, self.outcomes, section.test_set_cpu_seconds
        costs = [[outcomes[s.hash][i].cpu_seconds for i in keep_idx] for s in self.alive]
        at = {i: j for j, i in enumerate(keep_idx)}  # the runs' order, on the inputs left
        order = [at[i] for i in self.order if i in at]
        fit = fit_to_budget([inputs[i].kind for i in keep_idx], costs, budget, order)
        for sol in [self.alive[k] for k in fit.over]:
            spent = sum(
                outcomes[sol.hash][i].cpu_seconds for i in keep_idx if inputs[i].kind == "example"
            )
            self.drop_solution(sol, "over-budget", _over_on_examples(spent, budget))
        for j in fit.left_out:
            case = inputs[keep_idx[j]]
            need = max(c[j] for c in costs)
            self.ctx.drop(
                {"slug": self.slug, **case.row()},
                "over-budget",
                f"{self.slug}: {case.kind} input left out: the test set's budget of "
                f"{budget:g} s of CPU per solution is spent (it costs up to {need:.3g} s)",
                dropped="input",
            )
        return [keep_idx[j] for j in fit.kept], fit


def testcases(
    ctx: Context, records: list[TaskRecord], *, testcases: CasesSection, sandbox: SandboxConfig
) -> list[TaskRecord]:
    """Each task of the shard with its test inputs and its solutions' answers."""
    out = []
    for record in records:
        done = cases_for_task(ctx, record, testcases, sandbox)
        if done is not None:
            out.append(done)
            assert done.tests is not None
            log.info(
                "%s: %d test inputs, %d solutions, the slowest runs them in %.2f s of CPU "
                "(budget %g s)",
                done.slug,
                len(done.tests.cases),
                len(done.solutions),
                done.tests.budget["cost_seconds"],
                done.tests.budget["budget_seconds"],
            )
    return out


def cpu_spent(records: list[TaskRecord]) -> float:
    """The CPU seconds the solutions spent on their test cases, natively: what measuring them
    will cost, roughly (the scheduler starts the heaviest shards' later stages first)."""
    return sum(a.cpu for r in records for s in r.solutions for a in s.answers or [])


TESTCASES = Stage(
    "testcases",
    logic=testcases,
    reads=("testcases", "sandbox"),
    sharded=True,
    weighs=cpu_spent,
    needs=("generator",),
    fills=("tests", "solutions.answers"),
)
