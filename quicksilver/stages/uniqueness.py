"""Stage 6, uniqueness of output: do the solutions agree on what each input's answer is?

Per task, on the answers the test-case stage collected:

- **all agree** (on every input): keep; the shared answer is the expected output;
- **equal up to order**: the answers differ only in the order of list elements (at any depth) —
  or the statement says the answer may be returned in any order — keep the task with an
  order-insensitive ``evaluate_offline``;
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
- **cannot tell**: the statement says any of several answers is accepted
  (``multiple-valid-answers``), or a disputed input stays undecided (``ambiguous-output``): the
  task is dropped, since one expected output would fail correct solutions.

Each task's record carries the decision with its numbers (``decision``). Answers of type
``double`` agree within a relative tolerance. Near-duplicates found by the dedup stage
(``near_group``) are removed here, among the solutions that passed (they give the same answers,
so no behaviour is merged away). Afterwards the minimum-solutions filter is applied again.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from quicksilver.config import UniquenessSection
from quicksilver.pipeline.records import CaseResult, Solution, TaskRecord, Verdict, json_digest
from quicksilver.pipeline.stage import Context, Stage, enough_solutions, keep_or_drop
from quicksilver.sources.convert import parse_signature
from quicksilver.sources.text import says_any_order, says_many_answers


def order_free(x: Any) -> Any:
    """The value with every list sorted (by repr), at every depth."""
    if isinstance(x, list):
        return sorted((order_free(v) for v in x), key=repr)
    return x


def answers_equal(a: Any, b: Any, tol: float) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    if isinstance(a, int | float) and isinstance(b, int | float):
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        if not (math.isfinite(a) and math.isfinite(b)):
            return a == b
        return abs(a - b) <= tol * max(1.0, abs(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(answers_equal(x, y, tol) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _answer(a: CaseResult | Mapping[str, Any], any_order: bool) -> tuple[bool, Any]:
    """(ok, comparable value); failures compare by their error text (never equal to a value)."""
    if isinstance(a, CaseResult):
        a = a.model_dump()
    if a["status"] != "ok":
        return False, f"{a['status']}: {a.get('error')}"
    return True, order_free(a["value"]) if any_order else a["value"]


def group_answers(
    answers: Mapping[str, CaseResult | Mapping[str, Any]], any_order: bool, tol: float
) -> list[tuple[Any, list[str]]]:
    """Partition solutions by their answer: [(answer, [solution hash...])], largest first.
    ``answers``: solution hash -> its answer on one input (a :class:`CaseResult`, or the same as
    plain data: ``status``, ``value``, ``error``)."""
    groups: list[tuple[tuple[bool, Any], list[str]]] = []
    for h, a in answers.items():
        ok, value = _answer(a, any_order)
        for (g_ok, g_value), members in groups:
            if ok and g_ok and answers_equal(value, g_value, tol):
                members.append(h)
                break
            if not ok and not g_ok and value == g_value:
                members.append(h)
                break
        else:
            groups.append(((ok, value), [h]))
    groups.sort(key=lambda g: -len(g[1]))
    return [((ok, v), m) for (ok, v), m in groups]


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class _Vote:
    """How one disputed input was decided among the credible solutions."""

    index: int
    sizes: list[int]  # answer groups, largest first (crashes included, each its own group)
    rule: str  # "example" | "majority" | "plurality" | "unanimous" | "undecided"


def _decide(
    groups: list[tuple[tuple[bool, Any], list[str]]], voters: int, margin: float, min_support: int
) -> tuple[tuple[tuple[bool, Any], list[str]] | None, str]:
    """The chosen answer group on one input (None: undecided) and the rule that chose it.

    A crash is no claim about the answer: only answer groups compete. The leading answer wins
    by a strict majority of the voters, or by plurality when it has ``min_support`` solutions or
    more and at least ``margin`` x the support of the next answer.
    """
    valid = [g for g in groups if g[0][0]]
    if not valid:
        return None, "undecided"
    top = valid[0]
    if len(valid) == 1 and len(top[1]) == voters:
        return top, "unanimous"
    if len(top[1]) * 2 > voters:
        return top, "majority"
    runner_up = len(valid[1][1]) if len(valid) > 1 else 0
    if len(top[1]) >= min_support and len(top[1]) >= margin * runner_up:
        return top, "plurality"
    return None, "undecided"


def uniqueness_for_task(
    ctx: Context,
    record: TaskRecord,
    tol: float,
    *,
    margin: float = 2.0,
    min_support: int = 2,
) -> TaskRecord | None:
    """Decide a task's expected outputs from the evidence (see the module docstring): the record
    with its verdict and the solutions that agree with it, or None when the task is dropped."""
    task = record.task
    slug = task.slug
    assert record.tests is not None, "uniqueness reads the testcases stage's records"
    sig = parse_signature(task.meta)
    tol = tol if "double" in (sig.returns if sig.output_param is None else "") else 0.0
    statement = task.statement
    by_hash = {str(s.hash): s for s in record.solutions}
    answers = {str(s.hash): s.answers or [] for s in record.solutions}
    hashes = list(by_hash)
    cases = [c.row() for c in record.tests.cases]
    known = {json_digest(t["input"]): t["expected"] for t in task.known_tests}

    def per_input(i: int, among: list[str] | None = None) -> dict[str, CaseResult]:
        return {h: answers[h][i] for h in (hashes if among is None else among)}

    def drop_task(reason: str, detail: str, lost: list[str]) -> None:
        ctx.drop(record, reason, detail, lost=[by_hash[h] for h in lost])

    stated_order_free = says_any_order(statement)
    any_order = stated_order_free
    classification = "all-agree"
    disputed = [
        i for i in range(len(cases)) if len(group_answers(per_input(i), any_order, tol)) > 1
    ]
    if (
        disputed
        and not any_order
        and all(len(group_answers(per_input(i), True, tol)) == 1 for i in disputed)
    ):
        any_order = True
        classification = "equal-up-to-order"
        disputed = []
    if stated_order_free and classification == "all-agree":
        classification = "all-agree (statement: any order)"

    wrong: dict[str, str] = {}
    chosen_value: dict[int, Any] = {}
    decision: dict[str, Any] = {"voters": len(hashes), "disputed_inputs": len(disputed)}

    def rule_out(
        i: int, value_of: tuple[bool, Any], members: list[str], want: Any, by: str
    ) -> None:
        ok, value = value_of
        for h in members:
            if h not in wrong:
                wrong[h] = (
                    f"{slug} solution #{by_hash[h].position}: on input "
                    f"{_short(cases[i]['input'])} answered "
                    f"{_short(value) if ok else value}, expected {_short(want)} ({by})"
                )

    if disputed:
        if says_many_answers(statement):
            i = disputed[0]
            drop_task(
                "multiple-valid-answers",
                f"{slug}: the statement accepts any of several answers and the solutions give "
                f"different ones (first on input {_short(cases[i]['input'])})",
                hashes,
            )
            return None
        # 1. the statement's examples, with their given answers, rule out solutions first (an
        #    example answer that no solution gives is not used: it may be written another way)
        ignored_examples = 0
        for i in disputed:
            digest = json_digest(cases[i]["input"])
            if digest not in known:
                continue
            want = order_free(known[digest]) if any_order else known[digest]
            groups = group_answers(per_input(i), any_order, tol)
            match = next((g for g in groups if g[0][0] and answers_equal(g[0][1], want, tol)), None)
            if match is None:
                ignored_examples += 1
                continue
            chosen_value[i] = match[0][1]
            for value_of, members in groups:
                if members is not match[1]:
                    rule_out(i, value_of, members, match[0][1], "the statement's example")
        decision["ruled_out_by_examples"] = len(wrong)
        if ignored_examples:
            decision["examples_no_solution_gives"] = ignored_examples
        # 2. agreement on the other inputs, among the solutions not yet ruled out; a solution
        #    shown wrong on one input loses its vote on the others, so decide until nothing moves
        votes: dict[int, _Vote] = {}
        open_inputs = [i for i in disputed if i not in chosen_value]
        changed = True
        while changed:
            changed = False
            credible = [h for h in hashes if h not in wrong]
            for i in list(open_inputs):
                groups = group_answers(per_input(i, credible), any_order, tol)
                chosen, rule = _decide(groups, len(credible), margin, min_support)
                votes[i] = _Vote(i, [len(m) for _, m in groups], rule)
                if chosen is None:
                    continue
                open_inputs.remove(i)
                chosen_value[i] = chosen[0][1]
                for value_of, members in groups:
                    if members is not chosen[1]:
                        rule_out(i, value_of, members, chosen[0][1], f"the {rule}")
                        changed = True
        rules = [v.rule for v in votes.values()]
        decision["decided_by"] = {r: rules.count(r) for r in sorted(set(rules))}
        decision["narrowest"] = min(
            (v.sizes for v in votes.values() if v.rule in ("majority", "plurality")),
            key=lambda sz: sz[0] / max(1, sum(sz)),
            default=None,
        )
        if open_inputs:
            i = open_inputs[0]
            sizes = "/".join(str(n) for n in votes[i].sizes)
            credible = [h for h in hashes if h not in wrong]
            decision["undecided_inputs"] = len(open_inputs)
            drop_task(
                "ambiguous-output",
                f"{slug}: on input {_short(cases[i]['input'])} the {len(credible)} solutions "
                f"still credible split {sizes}: no answer has a majority or a clear plurality "
                f"(at least {min_support} and {margin:g}x the next), cannot tell the right "
                "answer",
                credible,
            )
            for h, detail in wrong.items():
                ctx.drop(by_hash[h], "wrong-answer", detail)
            return None
        classification = "minority-wrong"
    for h, detail in wrong.items():
        ctx.drop(by_hash[h], "wrong-answer", detail)
    kept = [h for h in hashes if h not in wrong]
    if not kept:
        drop_task("ambiguous-output", f"{slug}: no solution agrees with the expected answers", [])
        return None
    kept = _drop_near_duplicates(ctx, slug, kept, by_hash, len(cases))
    # the kept solutions agree on every input (up to order / tolerance where that applies)
    verdict = Verdict(
        any_order=any_order,
        classification=classification,
        decision=decision,
        expected=[a.value for a in answers[kept[0]]],
    )
    # each solution's CPU over the test cases when its answers were collected (natively): what
    # measuring it will cost, roughly (the profiler starts the heaviest first); the answers
    # themselves stay in the testcases stage's records
    solutions = [
        by_hash[h].model_copy(
            update={
                "answers": None,
                "native_seconds": round(sum(a.cpu for a in answers[h]), 6),
            }
        )
        for h in kept
    ]
    return record.with_solutions(solutions, verdict=verdict)


def _drop_near_duplicates(
    ctx: Context,
    slug: str,
    kept: list[str],
    by_hash: dict[str, Solution],
    n_inputs: int,
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
            f"both pass and give the same answers on all {n_inputs} inputs",
        )
    order = {h: k for k, h in enumerate(kept)}
    return sorted(out, key=order.__getitem__)


def uniqueness(
    ctx: Context, records: list[TaskRecord], *, uniqueness: UniquenessSection, min_solutions: int
) -> list[TaskRecord]:
    """Each task of the shard with its expected outputs, the solutions that disagree dropped;
    then the minimum-solutions filter again."""
    decided = []
    for record in records:
        result = uniqueness_for_task(
            ctx,
            record,
            uniqueness.double_rel_tol,
            margin=uniqueness.plurality_margin,
            min_support=uniqueness.plurality_min_support,
        )
        if result is not None:
            decided.append(result)
    return keep_or_drop(
        ctx, decided, enough_solutions(min_solutions, when="after the uniqueness stage")
    )


UNIQUENESS = Stage(
    "uniqueness",
    logic=uniqueness,
    reads=("uniqueness", "filters.min_solutions"),
    sharded=True,
)
