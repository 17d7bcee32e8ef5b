"""Stage 6, uniqueness of output: do the solutions agree on what each input's answer is?

Per task, on the answers the test-case stage collected:

- **all agree** (on every input): keep; the shared answer is the expected output;
- **equal up to order**, only on evidence: the statement says the answer may be returned in any
  order, or one of its examples gives an answer that the solutions give only in another order
  (the example is ground truth): keep the task with an order-insensitive ``evaluate_offline``.
  Solutions whose answers differ only in order are no evidence by themselves (only one
  arrangement may be right: the one that maximises an advantage, say): such a task takes the
  several-valid-answers path below (a validated checker, or dropped ``multiple-valid-answers``);
- **a minority wrong**, decided by evidence, in this order:

  1. the statement's examples, with their given answers, rule out every solution that answers
     an example otherwise (an example answer that no solution gives is not used);
  2. on the other disputed inputs the solutions still credible vote: the leading answer wins by
     a strict majority, or by a clear plurality (``plurality_min_support`` solutions or more and
     ``plurality_margin`` x the support of the next answer; a crash is no claim about the
     answer). A solution shown wrong on one input loses its vote on the others, and inputs are
     decided again until nothing changes;

  the solutions ruled out are dropped (``wrong-answer``) with their first failing input, their
  answer, the expected one and what decided it;
- **several valid answers** (docs/uniqueness.md): when the statement says any of several answers
  is accepted, the vote on the answers shows nothing against another answer: the evidence is
  weighed again on what every valid answer of an input shares
  (:func:`quicksilver.multianswer.answer_key`: a scalar's value, a length, the properties every
  credible answer has) and only the solutions that differ there are ``wrong-answer``. When the
  statement is silent but every credible answer is chosen from an argument (a substring, a
  subset of its values), the examples and the vote above still decide first: an answer they beat
  is ``wrong-answer`` when it differs from the chosen one in that key, and also when it shares
  the key but the chosen answer has ``alternative_margin`` x its support; otherwise it may be
  another valid answer and stays. Inputs the vote leaves undecided are weighed on the key.
  Solutions that still give different answers are kept only with a checker the LLM endpoint
  writes and the sandbox validates (``classification: several-valid-answers``; the task's
  ``evaluate_offline`` from then on); without one the task is dropped
  (``multiple-valid-answers``), never its correct minority as wrong;
- **cannot tell**: a disputed input stays undecided (``ambiguous-output``): the task is dropped,
  since one expected output would fail correct solutions.

Each task's record carries the decision with its numbers (``decision``: the ``rule`` that
decided, the voters, how many inputs each rule decided, the narrowest split; a dropped task's
reject row carries it too). Answers of type ``double`` agree within a relative tolerance.
Near-duplicates found by the dedup stage (``near_group``) are removed here, among the solutions
that passed (they give the same answers, so no behaviour is merged away). Afterwards the
minimum-solutions filter is applied again.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from quicksilver.agreement import (
    Group,
    Outcome,
    View,
    answers_equal,
    decide_disputed,
    example_in_another_order,
    group_answers,
    leading,
    order_free,
    plain,
    short,
)
from quicksilver.config import SandboxConfig, UniquenessSection
from quicksilver.multianswer import (
    CheckerRequest,
    CheckerWriter,
    Found,
    Property,
    Trial,
    answer_key,
    catalog,
    checkable,
    checker_evaluate_offline,
    describe_difference,
    mine_invariants,
    mutants,
    selection_evidence,
    shared_properties,
)
from quicksilver.pipeline.records import CaseAnswer, Solution, TaskRecord, Verdict, json_digest
from quicksilver.pipeline.stage import Context, Stage, enough_solutions, keep_or_drop
from quicksilver.sources.convert import Signature, parse_signature
from quicksilver.sources.text import says_any_order, says_many_answers

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Rules:
    """How one task is decided: the stage's settings (``tol`` already 0 unless the answer is a
    ``double``) and the checker writer (None: no endpoint)."""

    tol: float
    margin: float
    min_support: int
    invariant_min_inputs: int
    alternative_margin: float
    checker: CheckerWriter | None


@dataclass(frozen=True)
class _Answers:
    """One task's answers as the stage weighs them, read once from its record."""

    record: TaskRecord
    sig: Signature
    by_hash: dict[str, Solution]
    answers: dict[str, list[CaseAnswer]]  # solution hash -> its answer on each test input
    hashes: list[str]
    cases: list[dict[str, Any]]
    known: dict[str, Any]  # input digest -> the statement's answer
    examples: dict[int, Any]  # input index -> the statement's answer, for its examples

    @property
    def slug(self) -> str:
        return self.record.task.slug

    def per_input(self, i: int, among: list[str] | None = None) -> dict[str, CaseAnswer]:
        return {h: self.answers[h][i] for h in (self.hashes if among is None else among)}

    def drop_task(
        self, ctx: Context, reason: str, detail: str, lost: list[str], **extra: Any
    ) -> None:
        ctx.drop(self.record, reason, detail, lost=[self.by_hash[h] for h in lost], **extra)


def _read_answers(record: TaskRecord) -> _Answers:
    task = record.task
    assert record.tests is not None, "uniqueness reads the testcases stage's records"
    sig = parse_signature(task.meta)
    by_hash = {str(s.hash): s for s in record.solutions}
    cases = [c.row() for c in record.tests.cases]
    known = {json_digest(t["input"]): t["expected"] for t in task.known_tests}
    return _Answers(
        record=record,
        sig=sig,
        by_hash=by_hash,
        answers={str(s.hash): s.answers or [] for s in record.solutions},
        hashes=list(by_hash),
        cases=cases,
        known=known,
        examples={
            i: known[d] for i, c in enumerate(cases) if (d := json_digest(c["input"])) in known
        },
    )


@dataclass(frozen=True)
class _Order:
    """Whether answers compare in any order, on what evidence, and the inputs they differ on."""

    stated: bool  # the statement says any order
    evidence: str | None  # else: an example the solutions answer only in another order
    disputed: list[int]  # the inputs the solutions answer differently (compared so)
    only: bool  # the answers differ only in order, and nothing shows the right one

    @property
    def any_order(self) -> bool:
        return self.stated or self.evidence is not None

    @property
    def classification(self) -> str:
        if self.evidence is not None:
            return "equal-up-to-order"
        return "all-agree (statement: any order)" if self.stated else "all-agree"


def _order(t: _Answers, tol: float) -> _Order:
    """Order is free only on evidence: the statement's words, or an example answer the solutions
    give only in another order; solutions that agree up to order are no evidence by themselves."""
    stated = says_any_order(t.record.task.statement)
    evidence = (
        None if stated else example_in_another_order(t.slug, t.cases, t.examples, t.per_input, tol)
    )
    any_order = stated or evidence is not None
    disputed = [
        i for i in range(len(t.cases)) if len(group_answers(t.per_input(i), any_order, tol)) > 1
    ]

    def example_given(i: int) -> bool:
        """Some solution gives input ``i``'s example answer as the statement gives it."""
        want = t.examples.get(i)
        return want is not None and any(
            a.status == "ok" and answers_equal(a.value, want, tol) for a in t.per_input(i).values()
        )

    # answers that differ only in order, and no example that shows the right one (an example
    # that does is ground truth: the vote below rules out the other orders)
    only = (
        not any_order
        and bool(disputed)
        and all(len(group_answers(t.per_input(i), True, tol)) == 1 for i in disputed)
        and not any(example_given(i) for i in disputed)
    )
    return _Order(stated, evidence, disputed, only)


@dataclass(frozen=True)
class _Dispute:
    """The disputed inputs, and the answers on them as the evidence compares them."""

    inputs: list[int]
    any_order: bool
    view: View
    example: Callable[[int], Any | None]


def _dispute(t: _Answers, inputs: list[int], any_order: bool) -> _Dispute:
    def value_view(i: int, among: list[str]) -> dict[str, dict[str, Any]]:
        return {
            h: plain(a, order_free if any_order else None) for h, a in t.per_input(i, among).items()
        }

    def value_example(i: int) -> Any | None:
        want = t.examples.get(i)
        return order_free(want) if any_order and want is not None else want

    return _Dispute(inputs, any_order, value_view, value_example)


@dataclass(frozen=True)
class _Decided:
    """What the evidence decided on a task's disputed inputs."""

    outcome: Outcome  # its ``open_inputs``: still undecided
    wrong: dict[str, str]  # solution hash -> why it is ruled out
    evaluate: str | None  # a validated checker: the task has several valid answers


@dataclass(frozen=True)
class _Several:
    """Whether the disagreements look like several valid answers (docs/uniqueness.md)."""

    found: list[Found]  # the properties every credible answer has
    evidence: list[str]  # why they may be several valid answers (empty: computed answers)
    stated_many: bool  # the statement accepts any of several answers


def uniqueness_for_task(
    ctx: Context,
    record: TaskRecord,
    tol: float,
    *,
    margin: float = 2.0,
    min_support: int = 2,
    invariant_min_inputs: int = 3,
    alternative_margin: float = 4.0,
    checker: CheckerWriter | None = None,
) -> TaskRecord | None:
    """Decide a task's expected outputs from the evidence (see the module docstring): the record
    with its verdict and the solutions that agree with it, or None when the task is dropped.
    ``checker``: writes a checker for a task with several valid answers (None: no endpoint)."""
    t = _read_answers(record)
    sig = t.sig
    tol = tol if "double" in (sig.returns if sig.output_param is None else "") else 0.0
    rules = _Rules(tol, margin, min_support, invariant_min_inputs, alternative_margin, checker)
    order = _order(t, tol)
    classification = order.classification
    disputed = order.disputed
    wrong: dict[str, str] = {}
    decision: dict[str, Any] = {"voters": len(t.hashes), "disputed_inputs": len(disputed)}
    if order.evidence is not None:
        decision["order_free"] = order.evidence
    evaluate: str | None = None
    if order.only:
        evaluate = _several_orders(ctx, t, checker, disputed, decision)
        if evaluate is None:
            return None
        classification = "several-valid-answers"
        disputed = []
    if disputed:
        decided = _weigh_disputed(ctx, t, rules, _dispute(t, disputed, order.any_order), decision)
        if decided is None:
            return None
        wrong, evaluate = decided.wrong, decided.evaluate
        classification = "minority-wrong" if evaluate is None else "several-valid-answers"
    for h, detail in wrong.items():
        ctx.drop(t.by_hash[h], "wrong-answer", detail)
    kept = [h for h in t.hashes if h not in wrong]
    if not kept:
        t.drop_task(
            ctx, "ambiguous-output", f"{t.slug}: no solution agrees with the expected answers", []
        )
        return None
    reference = kept[0]  # its answers are the expected ones (a checker was validated with them)
    kept = _drop_near_duplicates(ctx, t.slug, kept, t.by_hash, len(t.cases), same=evaluate is None)
    # the kept solutions agree on every input (up to order / tolerance where that applies), or
    # all pass the task's checker
    verdict = Verdict(
        any_order=order.any_order,
        classification=classification,
        decision=decision,
        expected=[a.value for a in t.answers[reference]],
        evaluate_offline=evaluate,
    )
    # each solution's CPU over the test cases when its answers were collected (natively): what
    # measuring it will cost, roughly (the profiler starts the heaviest first); the answers
    # themselves stay in the testcases stage's records
    solutions = [
        t.by_hash[h].model_copy(
            update={
                "answers": None,
                "native_seconds": round(sum(a.cpu for a in t.answers[h]), 6),
            }
        )
        for h in kept
    ]
    return record.with_solutions(solutions, verdict=verdict)


def _several_orders(
    ctx: Context,
    t: _Answers,
    checker: CheckerWriter | None,
    disputed: list[int],
    decision: dict[str, Any],
) -> str | None:
    """The checker of a task whose answers differ only in order, nothing saying order is free
    (None: the task is dropped)."""
    # either several arrangements are valid (a checker tells) or only one is; equality would
    # fail correct solutions and an order-free comparison would pass wrong ones
    decision["rule"] = "several valid answers (order)"
    return _checker_or_drop(
        ctx, t, checker, t.hashes, Outcome({}, {}, {}, [], {}, decision),
        [
            "the solutions' answers agree only up to order, and neither the statement nor "
            "its examples say that order is free"
        ],
        disputed, decision,
    )  # fmt: skip


def _weigh_disputed(
    ctx: Context, t: _Answers, rules: _Rules, dispute: _Dispute, decision: dict[str, Any]
) -> _Decided | None:
    """The evidence on the disputed inputs (None: the task is dropped, ``ambiguous-output`` or
    ``multiple-valid-answers``, its wrong solutions with it)."""
    # 1-2: the statement's examples, then the vote, on the answers themselves
    by_value = decide_disputed(
        t.slug, t.cases, t.by_hash, dispute.inputs, dispute.view, dispute.example,
        tol=rules.tol, margin=rules.margin, min_support=rules.min_support,
    )  # fmt: skip
    several = _several_evidence(t, by_value)
    if not several.evidence:
        # computed answers: the vote's decision stands
        decision["rule"] = "vote"
        decided = _Decided(by_value, by_value.wrong, None)
        decision.update(by_value.decision)
    else:
        weighed = _several_answers(ctx, t, rules, dispute, several, decision)
        if weighed is None:
            return None
        decided = weighed
    if decided.outcome.open_inputs:
        _drop_undecided(ctx, t, rules, decided, decision)
        return None
    return decided


def _several_evidence(t: _Answers, by_value: Outcome) -> _Several:
    """Do the disagreements look like several valid answers? (docs/uniqueness.md)"""
    credible = [h for h in t.hashes if h not in by_value.wrong]
    seen = [
        (
            [*t.cases[i]["input"]],
            [a.value for h in credible if (a := t.answers[h][i]).status == "ok"],
        )
        for i in range(len(t.cases))
    ]
    params = t.sig.params
    found = shared_properties(catalog(len(params), [n for n, _ in params]), seen)
    stated_many = says_many_answers(t.record.task.statement)
    chosen_from = selection_evidence(found)
    evidence = [
        *(["the statement accepts any of several answers"] if stated_many else []),
        *filter(None, [chosen_from]),
    ]
    return _Several(found, evidence, stated_many)


def _several_answers(
    ctx: Context,
    t: _Answers,
    rules: _Rules,
    dispute: _Dispute,
    several: _Several,
    decision: dict[str, Any],
) -> _Decided | None:
    """The evidence weighed again on what every valid answer shares; the survivors that still
    differ are kept only with a validated checker (None: the task is dropped)."""
    invariants = mine_invariants(several.found, rules.invariant_min_inputs)
    numbers: dict[str, Any] = {
        "evidence": several.evidence,
        "invariants": [p.name for p in invariants],
    }
    decision["several_answers"] = numbers
    if several.stated_many:
        # the statement accepts several answers: a vote on the answers shows nothing
        # against another one; only what every valid answer shares is weighed
        decision["rule"] = "what every valid answer shares (the statement)"
        outcome, survivors, split = _by_properties(
            t, rules, dispute.inputs, invariants, dispute.any_order, stated_many=True
        )
        wrong = outcome.wrong
        decision.update(outcome.decision)
    else:
        decision["rule"] = "vote, then what every valid answer shares"
        outcome, wrong, survivors, split = _vote_then_properties(
            t, rules, dispute, invariants, numbers, decision
        )
    evaluate: str | None = None
    if not outcome.open_inputs and (split or several.stated_many):
        evaluate = _checker_or_drop(
            ctx, t, rules.checker, survivors, outcome, several.evidence, split, decision
        )
        if evaluate is None:
            return None
    return _Decided(outcome, wrong, evaluate)


def _drop_undecided(
    ctx: Context, t: _Answers, rules: _Rules, decided: _Decided, decision: dict[str, Any]
) -> None:
    """Drop a task with an input the evidence leaves undecided (``ambiguous-output``), and the
    solutions already shown wrong."""
    outcome, wrong = decided.outcome, decided.wrong
    i = outcome.open_inputs[0]
    sizes = "/".join(str(n) for n in outcome.votes[i].sizes)
    credible = [h for h in t.hashes if h not in wrong]
    decision["undecided_inputs"] = len(outcome.open_inputs)
    what = "" if "several_answers" not in decision else " in what every valid answer shares"
    t.drop_task(
        ctx,
        "ambiguous-output",
        f"{t.slug}: on input {short(t.cases[i]['input'])} the {len(credible)} solutions "
        f"still credible split {sizes}{what}: no answer has a majority or a clear "
        f"plurality (at least {rules.min_support} and {rules.margin:g}x the next), cannot tell "
        "the right answer",
        credible,
        decision=decision,
    )
    for h, detail in wrong.items():
        ctx.drop(t.by_hash[h], "wrong-answer", detail)


def _vote_then_properties(
    t: _Answers,
    rules: _Rules,
    dispute: _Dispute,
    invariants: list[Property],
    several: dict[str, Any],
    decision: dict[str, Any],
) -> tuple[Outcome, dict[str, str], list[str], list[int]]:
    """Answers chosen from an argument, the statement silent (docs/uniqueness.md, rule 4): the
    examples and the vote on the answers decide first. An answer they beat that differs from the
    chosen one in what every valid answer shares (:func:`answer_key`) is wrong; one that shares
    it may be another valid answer, and is ruled out only when the chosen answer has at least
    ``alternative_margin`` x its support (with the other answers of that key). The inputs the
    vote leaves undecided are weighed on what every valid answer shares.

    Returns the outcome (its ``open_inputs`` undecided), the solutions shown wrong, the survivors
    and the inputs where they still give different answers."""
    slug, cases, by_hash, answers, sig = t.slug, t.cases, t.by_hash, t.answers, t.sig
    disputed, any_order = dispute.inputs, dispute.any_order
    value_view, value_example = dispute.view, dispute.example
    tol, margin, min_support = rules.tol, rules.margin, rules.min_support
    alternative_margin = rules.alternative_margin
    overruled: set[int] = set()

    def key(i: int, value: Any) -> list[Any]:
        return answer_key(value, [*cases[i]["input"]], sig.returns, invariants)

    def raw(i: int, group: Group) -> Any:
        return answers[group[1][0]][i].value  # as given (the view may have sorted it)

    def weigh(i: int, chosen: Group, losers: list[Group]) -> list[str | None]:
        want = key(i, raw(i, chosen))
        same = [g for g in losers if g[0][0] and key(i, raw(i, g)) == want]
        support, others = len(chosen[1]), sum(len(g[1]) for g in same)
        decisive = support >= alternative_margin * others
        if same and decisive:
            overruled.add(i)
        notes: list[str | None] = []
        for g in losers:
            if not g[0][0]:
                notes.append("")  # a crash
            elif any(g is h for h in same):
                notes.append(
                    f", {support} to {others} over answers that share what every valid answer "
                    f"shares (at least {alternative_margin:g}x)"
                    if decisive
                    else None
                )
            else:
                notes.append(f": {describe_difference(key(i, raw(i, g)), want)}")
        return notes

    outcome = decide_disputed(
        slug, cases, by_hash, disputed, value_view, value_example,
        tol=tol, margin=margin, min_support=min_support, weigh=weigh,
    )  # fmt: skip
    decision.update(outcome.decision)
    several["alternative_margin"] = alternative_margin
    several["alternatives_overruled_on"] = len(overruled - set(outcome.alternatives))
    several["alternatives_kept_on"] = len(outcome.alternatives)
    wrong = dict(outcome.wrong)
    if outcome.open_inputs:
        # the vote left these undecided: what every valid answer shares may still decide them
        credible = {h: sol for h, sol in by_hash.items() if h not in wrong}
        by_key, _, _ = _by_properties(
            t, rules, outcome.open_inputs, invariants, any_order,
            stated_many=False, among=credible,
        )  # fmt: skip
        several["undecided_by_vote"] = len(outcome.open_inputs)
        several["decided_by_what_answers_share"] = by_key.decision["decided_by"]
        wrong.update(by_key.wrong)
        shown = {
            h: [*outcome.shown_wrong.get(h, []), *by_key.shown_wrong.get(h, [])] for h in wrong
        }
        outcome = Outcome(
            wrong,
            shown,
            {**outcome.by, **by_key.by},
            by_key.open_inputs,
            {**outcome.votes, **by_key.votes},
            outcome.decision,
            outcome.alternatives,
        )
    survivors = [h for h in by_hash if h not in wrong]
    split = [
        i
        for i in disputed
        if len(group_answers({h: answers[h][i] for h in survivors}, any_order, tol)) > 1
    ]
    return outcome, wrong, survivors, split


def _by_properties(
    t: _Answers,
    rules: _Rules,
    disputed: list[int],
    invariants: list[Property],
    any_order: bool,
    *,
    stated_many: bool,
    among: dict[str, Solution] | None = None,
) -> tuple[Outcome, list[str], list[int]]:
    """The evidence on what every valid answer shares (:func:`answer_key`) instead of the answers
    themselves, among the solutions ``among`` (default: all): the solutions it rules out are
    shown wrong; the inputs where the survivors still give different answers are the split
    (their answers may all be valid)."""
    slug, cases, answers, known, sig = t.slug, t.cases, t.answers, t.known, t.sig
    by_hash = t.by_hash if among is None else among
    tol, margin, min_support = rules.tol, rules.margin, rules.min_support

    def key(i: int, value: Any) -> list[Any]:
        return answer_key(
            value, [*cases[i]["input"]], sig.returns, invariants, one_value=not stated_many
        )

    def key_view(i: int, among: list[str]) -> dict[str, dict[str, Any]]:
        return {h: plain(answers[h][i], lambda v: key(i, v)) for h in among}

    def key_example(i: int) -> Any | None:
        digest = json_digest(cases[i]["input"])
        return key(i, known[digest]) if digest in known else None

    hashes = list(by_hash)
    outcome = decide_disputed(
        slug, cases, by_hash, disputed, key_view, key_example,
        tol=tol, margin=margin, min_support=min_support,
    )  # fmt: skip
    for h in outcome.wrong:
        # name what differs from every credible answer, besides the values
        i = outcome.shown_wrong[h][0]
        a = answers[h][i]
        if a.status == "ok":
            shared, member = leading(i, outcome, key_view, hashes, tol)
            want = answers[member][i].value if member else None
            outcome.wrong[h] = (
                f"{slug} solution #{by_hash[h].position}: on input {short(cases[i]['input'])} "
                f"answered {short(a.value)}, expected {short(want)} ({outcome.by[h]}: "
                f"{describe_difference(key(i, a.value), shared)})"
            )
    survivors = [h for h in hashes if h not in outcome.wrong]
    split = [
        i
        for i in disputed
        if len(group_answers({h: answers[h][i] for h in survivors}, any_order, tol)) > 1
    ]
    return outcome, survivors, split


def _distinct(values: list[Any], limit: int = 4) -> str:
    out: list[str] = []
    for v in values:
        text = short(v, 60)
        if text not in out:
            out.append(text)
    more = f" and {len(out) - limit} more" if len(out) > limit else ""
    return ", ".join(out[:limit]) + more


def _checker_or_drop(
    ctx: Context,
    t: _Answers,
    checker: CheckerWriter | None,
    survivors: list[str],
    outcome: Outcome,
    evidence: list[str],
    split: list[int],
    decision: dict[str, Any],
) -> str | None:
    """The evaluate_offline of a task whose survivors' answers may all be valid: a checker the
    endpoint wrote and every solution's answers validated; None when there is none, the task
    then dropped (``multiple-valid-answers``) with the inputs and answers that show it."""
    record, cases, answers, sig = t.record, t.cases, t.answers, t.sig
    slug = record.slug
    by_hash = {str(s.hash): s for s in record.solutions}
    where = split[0] if split else None
    shown = (
        f" (first on input {short(cases[where]['input'])}: "
        f"{_distinct([answers[h][where].value for h in survivors])})"
        if where is not None
        else ""
    )
    why = (
        f"{slug}: the answers look like several valid ones ({'; '.join(evidence)}): "
        f"the {len(survivors)} credible solutions give different answers on {len(split)} "
        f"input(s){shown}"
        if split
        else f"{slug}: {'; '.join(evidence)}, and the solutions give different answers{shown}"
    )
    cannot = checkable(sig)
    if checker is None or not checker.configured or cannot or not survivors:
        because = (
            f"no checker: {cannot}"
            if cannot
            else "no LLM endpoint to write a checker (uniqueness.checker.llm)"
            if checker is None or not checker.configured
            # every solution was shown wrong: no credible answers to validate a checker on
            else "no checker: no credible solution is left to validate one on"
        )
        detail = f"{why}; {because}, and one expected output would fail correct solutions"
    else:
        expected = {i: answers[survivors[0]][i].value for i in range(len(cases))}
        trials = _trials(cases, answers, survivors, outcome, expected, checker.section.max_trials)
        request = CheckerRequest(
            slug=slug,
            title=str(record.task.question.get("title") or slug),
            statement=record.task.statement,
            starter_code=record.task.prompt,
            params=[{"name": n, "type": typ} for n, typ in sig.params],
            returns=sig.returns,
            examples=[
                {
                    "args": json.dumps(cases[i]["input"]),
                    "answers": _distinct([answers[h][i].value for h in survivors]),
                }
                for i in split[:3]
            ],
        )
        assert record.tests is not None
        result = checker.write(request, trials, seed=record.tests.seed)
        decision["checker"] = result.record()
        if result.code is not None:
            log.info("%s: kept with a checker (%d trials)", slug, len(trials))
            return checker_evaluate_offline(result.code)
        detail = f"{why}; no checker: {result.reason}"
    for h, d in outcome.wrong.items():
        ctx.drop(by_hash[h], "wrong-answer", d)
    ctx.drop(
        record,
        "multiple-valid-answers",
        detail,
        lost=[by_hash[h] for h in survivors],
        decision=decision,
    )
    return None


def _trials(
    cases: list[dict[str, Any]],
    answers: dict[str, list[CaseAnswer]],
    survivors: list[str],
    outcome: Outcome,
    expected: dict[int, Any],
    limit: int,
) -> list[Trial]:
    """What a checker must say: accept every credible solution's answer on every input, reject
    the answers shown wrong and the reference answers made shorter or larger."""
    trials: list[Trial] = []
    seen: set[str] = set()

    def add(i: int, answer: Any, accept: bool, why: str) -> None:
        tag = json.dumps([i, answer], sort_keys=True)
        if tag not in seen and len(trials) < limit:
            seen.add(tag)
            trials.append(Trial(i, [*cases[i]["input"]], answer, expected[i], accept, why))

    for i in range(len(cases)):
        for h in survivors:
            if answers[h][i].status == "ok":
                add(i, answers[h][i].value, True, "a credible solution's answer")
    for h, inputs in outcome.shown_wrong.items():
        for i in inputs:
            if answers[h][i].status == "ok":
                add(i, answers[h][i].value, False, "an answer shown wrong")
    for i in range(len(cases)):
        for m in mutants(expected[i]):
            add(i, m, False, "the reference answer changed")
    return trials


def _drop_near_duplicates(
    ctx: Context,
    slug: str,
    kept: list[str],
    by_hash: dict[str, Solution],
    n_inputs: int,
    *,
    same: bool = True,
) -> list[str]:
    """Near-duplicates (the dedup stage's groups, ``near_group``) are removed only now, among
    solutions that passed: they give the same answers on every input, so no behaviour is merged
    away, and the copy kept is one that passes (the first listed)."""
    first: dict[int, Solution] = {}
    out = []
    for h in sorted(kept, key=lambda h: (int(by_hash[h].position), int(h))):
        sol = by_hash[h]
        group = sol.near_group
        if group is None:
            out.append(h)
            continue
        keeper = first.setdefault(int(group), sol)
        if keeper is sol:
            out.append(h)
            continue
        ctx.drop(
            sol,
            "near-duplicate",
            f"{slug} solution #{sol.position}: near-duplicate of solution "
            f"#{keeper.position} ({sol.near_detail or 'same near-duplicate group'}); "
            f"both pass and give the same answers on all {n_inputs} inputs"
            if same
            else f"both pass the task's checker on all {n_inputs} inputs",
        )
    order = {h: k for k, h in enumerate(kept)}
    return sorted(out, key=order.__getitem__)


def uniqueness(
    ctx: Context,
    records: list[TaskRecord],
    *,
    uniqueness: UniquenessSection,
    min_solutions: int,
    sandbox: SandboxConfig | None = None,
) -> list[TaskRecord]:
    """Each task of the shard with its expected outputs (or its checker), the solutions that
    disagree dropped; then the minimum-solutions filter again. ``sandbox``: where a checker the
    endpoint writes is validated (default: the default sandbox)."""
    section = uniqueness
    checker = CheckerWriter(section.checker, sandbox or SandboxConfig())
    decided = []
    for record in records:
        result = uniqueness_for_task(
            ctx,
            record,
            section.double_rel_tol,
            margin=section.plurality_margin,
            min_support=section.plurality_min_support,
            invariant_min_inputs=section.invariant_min_inputs,
            alternative_margin=section.alternative_margin,
            checker=checker if checker.configured else None,
        )
        if result is not None:
            decided.append(result)
    return keep_or_drop(
        ctx, decided, enough_solutions(min_solutions, when="after the uniqueness stage")
    )


UNIQUENESS = Stage(
    "uniqueness",
    logic=uniqueness,
    reads=("uniqueness", "filters.min_solutions", "sandbox"),
    sharded=True,
    needs=("tests", "solutions.answers"),
    fills=("verdict",),
)
