"""Expected answers by agreement: which answer of an input the solutions' evidence decides.

The uniqueness stage (``quicksilver/stages/uniqueness.py``, docs/uniqueness.md) decides each test
input's expected answer from what the reference solutions answer there. What it does with
answers alone lives here, apart from the stage's records and its drops:

- :func:`answers_equal` and :func:`order_free`: when two answers are the same (a ``double``
  within a relative tolerance; a list in any order where order is free);
- :func:`group_answers`: the solutions partitioned by their answer on one input (a failure is
  compared by its error text, never equal to a value);
- :func:`decide`: the vote on one input (a strict majority, or a clear plurality; a crash makes
  no claim);
- :func:`example_in_another_order`: the evidence that order is free that an example gives;
- :func:`decide_disputed`: the statement's examples, then the vote, over every disputed input,
  a solution shown wrong on one input losing its vote on the others, until nothing changes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


class AnswerRecord(Protocol):
    """One solution's answer on one input as a record (``pipeline.records.CaseAnswer``)."""

    @property
    def status(self) -> str: ...  # ok | error | timeout | memory | skipped

    @property
    def value(self) -> Any: ...  # the answer (None unless ok)

    @property
    def error(self) -> str | None: ...

    def model_dump(self) -> dict[str, Any]: ...


class Numbered(Protocol):
    """A solution as the reasons name it: by its place in its source (``Solution.position``)."""

    @property
    def position(self) -> int: ...


def order_free(x: Any) -> Any:
    """The value with every list sorted (by repr), at every depth."""
    if isinstance(x, list):
        if not any(isinstance(v, list) for v in x):  # leaves: no call per value
            return sorted(x, key=repr)
        return sorted((order_free(v) for v in x), key=repr)
    return x


def answers_equal(a: Any, b: Any, tol: float) -> bool:
    """Whether two answers are the same: numbers by value (a float within ``tol``, relative), a
    bool only to a bool, lists element by element, anything else by type and ``==``."""
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


def _exact_text(value: Any) -> str | None:
    """The value as JSON when two equal texts can only be answers :func:`answers_equal` calls
    the same (types and values alike: ``1`` and ``1.0`` and ``true`` are three texts), else None
    (a NaN, which is equal to nothing; a value JSON cannot hold). Comparing two texts is a
    C-speed shortcut for the agreeing answers that are nearly all of a task's (4.6 MB of them
    in cluster-anagrams); answers whose texts differ are still compared by answers_equal."""
    try:
        text = json.dumps(value, sort_keys=True, allow_nan=True)
    except (TypeError, ValueError):
        return None
    return None if "NaN" in text else text


def _answer(a: AnswerRecord | Mapping[str, Any], any_order: bool) -> tuple[bool, Any]:
    """(ok, comparable value); failures compare by their error text (never equal to a value)."""
    if not isinstance(a, Mapping):
        a = a.model_dump()
    if a["status"] != "ok":
        return False, f"{a['status']}: {a.get('error')}"
    return True, order_free(a["value"]) if any_order else a["value"]


def group_answers(
    answers: Mapping[str, AnswerRecord | Mapping[str, Any]], any_order: bool, tol: float
) -> list[tuple[Any, list[str]]]:
    """Partition solutions by their answer: [(answer, [solution hash...])], largest first.
    ``answers``: solution hash -> its answer on one input (a record such as
    :class:`quicksilver.pipeline.records.CaseAnswer`, or the same as plain data: ``status``,
    ``value``, ``error``)."""
    groups: list[tuple[tuple[bool, Any, str | None], list[str]]] = []
    for h, a in answers.items():
        ok, value = _answer(a, any_order)
        text = _exact_text(value) if ok else None
        for (g_ok, g_value, g_text), members in groups:
            same_text = text is not None and text == g_text
            if ok and g_ok and (same_text or answers_equal(value, g_value, tol)):
                members.append(h)
                break
            if not ok and not g_ok and value == g_value:
                members.append(h)
                break
        else:
            groups.append(((ok, value, text), [h]))
    groups.sort(key=lambda g: -len(g[1]))
    return [((ok, v), m) for (ok, v, _), m in groups]


def plain(a: AnswerRecord, seen_as: Callable[[Any], Any] | None) -> dict[str, Any]:
    """An answer as plain data for :func:`group_answers`, its value seen as ``seen_as`` says (a
    failure as it is)."""
    if a.status != "ok" or seen_as is None:
        return {"status": a.status, "value": a.value, "error": a.error}
    return {"status": "ok", "value": seen_as(a.value), "error": None}


def example_in_another_order(
    slug: str,
    cases: list[dict[str, Any]],
    examples: dict[int, Any],
    per_input: Callable[[int], Mapping[str, AnswerRecord]],
    tol: float,
) -> str | None:
    """Evidence that order is free: a statement example whose given answer no solution gives
    as it is, and some solution gives in another order (the example's answer is ground truth:
    the solutions' order is then one of several valid ones). None when no example shows it."""
    for i, want in examples.items():
        if not isinstance(want, list):
            continue
        got = [a.value for a in per_input(i).values() if a.status == "ok"]
        if not got or any(answers_equal(v, want, tol) for v in got):
            continue
        same = [v for v in got if answers_equal(order_free(v), order_free(want), tol)]
        if same:
            return (
                f"{slug}: the statement's example {short(cases[i]['input'], 80)} answers "
                f"{short(want, 80)}, the solutions {short(same[0], 80)}: the same up to order"
            )
    return None


def short(value: Any, limit: int = 160) -> str:
    """A value as a reason quotes it: JSON (a string by its repr), cut to ``limit`` characters."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class Vote:
    """How one disputed input was decided among the credible solutions."""

    index: int
    sizes: list[int]  # answer groups, largest first (crashes included, each its own group)
    rule: str  # "majority" | "plurality" | "unanimous" | "undecided" | "alternatives"


def decide(
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


# an answer group on one input: ((ok, the answer as the view compares it), [solution hash...])
Group = tuple[tuple[bool, Any], list[str]]

# how the answers the chosen one beats are judged on input i: per losing group, None (spared: it
# may be another valid answer the evidence cannot overrule) or what to add to why it is wrong
Weigh = Callable[[int, Group, list[Group]], list[str | None]]


@dataclass
class Outcome:
    """What the evidence decided on the disputed inputs (see :func:`decide_disputed`)."""

    wrong: dict[str, str]  # solution hash -> why it is ruled out (its first failing input)
    shown_wrong: dict[str, list[int]]  # solution hash -> every input it was ruled out on
    by: dict[str, str]  # solution hash -> what ruled it out first ("the majority", ...)
    open_inputs: list[int]  # inputs still undecided
    votes: dict[int, Vote]
    decision: dict[str, Any]
    alternatives: list[int] = field(default_factory=list)  # inputs with answers spared by weigh


# an answer as the evidence compares it: (input index, the solutions to look at) -> hash -> answer
View = Callable[[int, list[str]], dict[str, dict[str, Any]]]


def decide_disputed(
    slug: str,
    cases: list[dict[str, Any]],
    by_hash: Mapping[str, Numbered],
    disputed: list[int],
    view: View,
    example: Callable[[int], Any | None],
    *,
    tol: float,
    margin: float,
    min_support: int,
    weigh: Weigh | None = None,
) -> Outcome:
    """Decide the disputed inputs: the statement's examples first (``example(i)``: the given
    answer of input ``i`` as ``view`` compares it, None when it is not an example), then the vote
    among the solutions still credible, until nothing changes (docs/uniqueness.md).

    ``weigh``: on each decided input, which of the answers the chosen one beats are spared (kept
    credible: possibly other valid answers the evidence cannot overrule); such an input is
    judged again on every round (a spared answer's support may fall) and ends in
    ``alternatives``. Without it every answer beaten is ruled out."""
    hashes = list(by_hash)
    wrong: dict[str, str] = {}
    shown: dict[str, list[int]] = {}
    by_rule: dict[str, str] = {}

    def rule_out(i: int, group: Group, want: Any, by: str) -> None:
        (ok, value), members = group
        for h in members:
            shown.setdefault(h, []).append(i)
            if h not in wrong:
                by_rule[h] = by
                wrong[h] = (
                    f"{slug} solution #{by_hash[h].position}: on input "
                    f"{short(cases[i]['input'])} answered {short(value) if ok else value}, "
                    f"expected {short(want)} ({by})"
                )

    def settle(i: int, groups: list[Group], chosen: Group, by: str) -> bool:
        """Rule out the answers ``chosen`` beats on input ``i``; True when some are spared."""
        losers = [g for g in groups if g[1] is not chosen[1]]
        notes: list[str | None] = weigh(i, chosen, losers) if weigh else [""] * len(losers)
        for g, note in zip(losers, notes, strict=True):
            if note is not None:
                rule_out(i, g, chosen[0][1], by + note)
        return any(note is None for note in notes)

    def credible() -> list[str]:
        return [h for h in hashes if h not in wrong]

    decision: dict[str, Any] = {}
    examples: dict[int, Any] = {}
    spared_examples: set[int] = set()
    ignored_examples = 0
    for i in disputed:
        want = example(i)
        if want is None:
            continue
        groups = group_answers(view(i, hashes), False, tol)
        match = next((g for g in groups if g[0][0] and answers_equal(g[0][1], want, tol)), None)
        if match is None:
            ignored_examples += 1
            continue
        examples[i] = want
        if settle(i, groups, match, "the statement's example"):
            spared_examples.add(i)
    decision["ruled_out_by_examples"] = len(wrong)
    if ignored_examples:
        decision["examples_no_solution_gives"] = ignored_examples
    votes: dict[int, Vote] = {}
    open_inputs = [i for i in disputed if i not in examples]
    changed = True
    while changed:
        before = len(wrong)
        voters = credible()  # one round: every input judged among the same solutions
        for i in sorted(spared_examples):  # the example's answer against the spared, again
            groups = group_answers(view(i, voters), False, tol)
            match = next(
                (g for g in groups if g[0][0] and answers_equal(g[0][1], examples[i], tol)), None
            )
            if match is None:  # the example's answer lost its solutions on other inputs
                spared_examples.discard(i)
                open_inputs.append(i)
            elif not settle(i, groups, match, "the statement's example"):
                spared_examples.discard(i)
        for i in list(open_inputs):
            groups = group_answers(view(i, voters), False, tol)
            chosen, rule = decide(groups, len(voters), margin, min_support)
            votes[i] = Vote(i, [len(m) for _, m in groups], rule)
            if chosen is None:
                continue
            if settle(i, groups, chosen, f"the {rule}"):
                votes[i].rule = "alternatives"  # judged again next round
            else:
                open_inputs.remove(i)
        changed = len(wrong) > before
    rules = [v.rule for v in votes.values()]
    decision["decided_by"] = {r: rules.count(r) for r in sorted(set(rules))}
    if spared_examples:
        decision["decided_by"]["example, with alternatives"] = len(spared_examples)
    decision["narrowest"] = min(
        (v.sizes for v in votes.values() if v.rule in ("majority", "plurality")),
        key=lambda sz: sz[0] / max(1, sum(sz)),
        default=None,
    )
    alternatives = sorted(
        spared_examples | {i for i in open_inputs if votes[i].rule == "alternatives"}
    )
    undecided = [i for i in open_inputs if votes[i].rule == "undecided"]
    return Outcome(wrong, shown, by_rule, undecided, votes, decision, alternatives)


def leading(
    i: int, outcome: Outcome, view: View, hashes: list[str], tol: float
) -> tuple[list[Any], str | None]:
    """The key the credible solutions share on input ``i``, and one of them."""
    credible = [h for h in hashes if h not in outcome.wrong]
    groups = group_answers(view(i, credible), False, tol)
    return next(((g[0][1], g[1][0]) for g in groups if g[0][0]), (["value", None], None))
