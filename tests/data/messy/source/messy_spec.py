"""The shapes the messy corpus's question modules fill in (see ../README.md and ../make_messy.py).

Each ``qNN_<slug>.py`` module beside this one defines ``SPEC``: a question (statement parts,
examples, constraints in LeetCode's wording), a trusted reference solution, input generators for the
verification and ~15 solutions written in the style of model samples, each with its ground-truth
label and the evidence for it (a failing input, the exception, the input that hangs, ...).

Everything here is data: ``make_messy.py`` turns it into snapshot JSON (no sandbox needed, so the
files regenerate deterministically) and, with ``--check``, runs it in the sandbox to verify every
claim.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# The labels, one per solution. "near-duplicate" is written "near-duplicate-of-<k>" in the JSON.
CORRECT = "correct"
RAMBLING = "rambling-correct"
NEAR_DUP = "near-duplicate"
WRONG = "wrong"
RAISES = "raises"
SLOW = "slow"
EXPONENTIAL = "exponential"
HANGING = "hanging"
NO_COMPILE = "does-not-compile"
LABELS = (CORRECT, RAMBLING, NEAR_DUP, WRONG, RAISES, SLOW, EXPONENTIAL, HANGING, NO_COMPILE)

# Labels whose answers are right whenever the solution finishes.
RIGHT_WHEN_DONE = (CORRECT, RAMBLING, NEAR_DUP, SLOW, EXPONENTIAL)
# Labels that cannot finish some input within the constraints (the "fifth" of the corpus).
COSTLY = (SLOW, EXPONENTIAL, HANGING)

# Seven invented sampler names: the solutions were written by us in the style of model samples.
MODELS = tuple(f"synthetic-sample-{c}" for c in "abcdefg")

Input = list[Any]  # one value per parameter, LeetCode's list form for trees and linked lists
Generator = Callable[[random.Random], Input]


def code(text: str) -> str:
    """A solution's source from an indented triple-quoted string."""
    return textwrap.dedent(text).strip("\n") + "\n"


@dataclass(frozen=True)
class Example:
    """One example of the statement: the arguments, the stated output, an optional explanation."""

    inputs: Input
    output: Any
    explanation: str | None = None  # HTML


@dataclass(frozen=True)
class Sol:
    """One solution and its ground truth.

    ``witness`` is an input that shows the label: where a wrong solution's answer (``got``)
    differs from the right one (``expected``), where a raising one raises ``error``, or where a
    hanging one never finishes. Slow and exponential solutions exceed the limit on the
    question's big input named by ``slow_input``.
    """

    label: str
    model: str  # one of "a".."g"
    note: str
    code: str
    key: str | None = None  # a name other solutions refer to (near-duplicates)
    dup_of: str | None = None  # near-duplicate: the key of the solution it nearly copies
    differs: bool = False  # near-duplicate: True when one token changes what it answers
    diff: str | None = None  # near-duplicate: the change, for the README
    jaccard: float | None = None  # near-duplicate: quicksilver.stages.dedup's Jaccard at writing
    witness: Input | None = None
    witness_big: str | None = None  # raises / hanging: a key of Spec.big instead of an input
    expected: Any = None
    got: Any = None
    fails_examples: bool | None = None  # wrong: whether the statement's examples catch it
    error: str | None = None  # raises: the exception's type; does-not-compile: SyntaxError, ...
    why: str = ""
    complexity: str | None = None  # slow / exponential
    slow_input: str | None = None  # slow / exponential: a key of Spec.big
    sleeps: bool = False  # slow in wall time only (time.sleep), not in CPU time


@dataclass(frozen=True)
class Plurality:
    """An input on which the right answer has the most votes but not a strict majority.

    ``split`` is the answer groups' sizes among the solutions that load, largest first, failures
    grouped by their error text the way the uniqueness stage groups them; ``split_passing`` is the
    same among the solutions that also pass the statement's examples."""

    input: Input
    split: str
    split_passing: str
    note: str


@dataclass(frozen=True)
class Spec:
    slug: str
    qid: int
    title: str
    difficulty: str
    tags: list[tuple[str, str]]
    method: str
    params: list[tuple[str, str]]  # (name, LeetCode type)
    returns: str
    description: str  # HTML paragraphs before the examples
    examples: list[Example]
    constraints: list[str]  # the <li> contents, HTML
    reference: str  # trusted solution, used by the verification only
    small: Generator  # random inputs within the constraints, small enough for every solution
    big: dict[str, tuple[str, Generator]]  # name -> (description, generator) near the maxima
    solutions: list[Sol]
    hints: list[str] = field(default_factory=list)
    follow_up: str | None = None
    any_order: bool = False
    plurality: Plurality | None = None
    # big inputs only the slow samples run on (the correct ones are checked on the others)
    slow_only: tuple[str, ...] = ()
    # Which constraint items are LeetCode's own wording for this well-known problem (all, here).
    leetcode_constraints: str = "all items, word for word as LeetCode lists them"


# ---------------------------------------------------------------------------- input helpers

Tree = list[Any] | None  # [value, left, right]


def random_tree(rng: random.Random, n: int, lo: int, hi: int, *, path: bool = False) -> Tree:
    """``n`` nodes with values in [lo, hi]: each new node takes a random free child slot (a
    bushy shape), or with ``path`` the last node's left or right slot (a path)."""
    if n == 0:
        return None
    root: list[Any] = [rng.randint(lo, hi), None, None]
    free: list[tuple[list[Any], int]] = [(root, 1), (root, 2)]
    last = root
    for _ in range(n - 1):
        if path:
            parent, side = last, rng.choice((1, 2))
        else:
            parent, side = free.pop(rng.randrange(len(free)))
        child: list[Any] = [rng.randint(lo, hi), None, None]
        parent[side] = child
        free += [(child, 1), (child, 2)]
        last = child
    return root


def leetcode_tree(root: Tree) -> list[Any]:
    """A tree in LeetCode's level-order list form (``null`` for missing children, trailing
    ``null``s dropped)."""
    out: list[Any] = []
    queue: list[Tree] = [root] if root is not None else []
    head = 0
    while head < len(queue):
        node = queue[head]
        head += 1
        if node is None:
            out.append(None)
            continue
        out.append(node[0])
        queue += [node[1], node[2]]
    while out and out[-1] is None:
        out.pop()
    return out
