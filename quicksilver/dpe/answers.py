"""The accepted answer on the performance-exercising input, and the vote that accepts it.

The uniqueness stage decides each test input's answer (docs/uniqueness.md); the performance input
is chosen later, and EvalPerf never judged its answers: a solution right on the test cases and
wrong at scale (an overflow, a truncation, a shortcut that breaks on large n) was measured like any
other, could become a cluster reference, and a sample returning rubbish scored as the fastest.
Here the answer is decided in two steps, with the rule the uniqueness stage applies to a disputed
test input:

1. **the candidate** (sampling stage): every valid solution already runs on the chosen input to
   show that it finishes there; its answer is kept as a digest (:func:`answer_digest`), and the
   answer most of them give exactly (ties: the earlier solution, in snapshot order) is the
   candidate (:func:`candidate`);
2. **the vote** (pe_profile stage): the profiler judges every solution's answer against the
   candidate with the task's own ``evaluate_offline`` (in its judge sandbox, as on the test
   cases: an order-free or tolerant comparison, or a checker, accepts what equality would not).
   The candidate is accepted when the solutions it accepts win (:func:`vote`): a strict majority
   of those that answered, or a clear plurality. A solution that did not answer (a crash, a
   limit) makes no claim. The solutions it rejects are then wrong on the performance input; with
   no winner the task's answer there is undecided.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any


def answer_digest(value: Any) -> str:
    """sha256 of an answer's canonical JSON (sorted keys, no spaces): equal answers, equal
    digests. An answer JSON cannot write (an integer past Python's digit limit) is hashed from
    its pickle, which is as deterministic for plain data."""
    try:
        data = json.dumps(value, sort_keys=True, separators=(",", ":")).encode()
    except (TypeError, ValueError):
        data = pickle.dumps(value, protocol=4)
    return hashlib.sha256(data).hexdigest()


def candidate(digests: Mapping[str, str]) -> tuple[str, int] | None:
    """(the digest most solutions' answers have, how many), the earliest solution's answer among
    equally common ones (``digests`` in snapshot order); None without answers."""
    if not digests:
        return None
    support = Counter(digests.values())
    top = max(support.values())
    first = next(d for d in digests.values() if support[d] == top)
    return first, top


@dataclass(frozen=True)
class AnswerVote:
    """How the candidate answer fared: ``agree`` solutions whose answers the task's judge
    accepted, ``disagree`` the others' group sizes (by exact answer, largest first), ``rule``
    what decided (``unanimous``, ``majority``, ``plurality``) or ``undecided``."""

    rule: str
    agree: int
    disagree: list[int] = field(default_factory=list)
    margin: float = 2.0
    min_support: int = 2

    @property
    def voters(self) -> int:
        return self.agree + sum(self.disagree)

    @property
    def accepted(self) -> bool:
        return self.rule != "undecided"

    def describe(self) -> str:
        """``"5 of 6 solutions (majority)"``, for drop details and logs."""
        return f"{self.agree} of {self.voters} solution(s) ({self.rule})"

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "voters": self.voters}


def vote(
    agree: int, disagree: Sequence[str], *, margin: float = 2.0, min_support: int = 2
) -> AnswerVote:
    """The uniqueness stage's rule on one input (docs/uniqueness.md, step 2): the answer the
    judge accepted wins by a strict majority of the solutions that answered, or by a clear
    plurality (``min_support`` solutions or more and ``margin`` x the next answer's support).
    ``disagree``: the digest of each rejected solution's answer (equal answers support each
    other)."""
    groups = sorted(Counter(disagree).values(), reverse=True)
    voters = agree + len(disagree)
    runner_up = groups[0] if groups else 0
    if agree and not groups:
        rule = "unanimous"
    elif agree * 2 > voters:
        rule = "majority"
    elif agree >= min_support and agree >= margin * runner_up:
        rule = "plurality"
    else:
        rule = "undecided"
    return AnswerVote(rule, agree, groups, margin, min_support)
