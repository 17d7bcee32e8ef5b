"""Several valid answers: the evidence that a task has them, and a checker that judges them.

The uniqueness stage (``quicksilver/stages/uniqueness.py``) decides expected outputs by agreement
among the reference solutions. When they disagree, a minority may be wrong, or the task may have
several valid answers (a longest palindromic substring: ``"aba"`` and ``"bab"`` of ``"ababa"``).
This module holds what tells the two apart (docs/uniqueness.md states the rule and its limits):

- :func:`selection_evidence`: every credible answer is *chosen* from an argument (a substring or a
  subsequence of an argument string, a sub-multiset of an argument list's values) — the kind of
  answer of which several can be valid. Computed answers (a count, a sum, a built string) are not;
- :func:`mine_invariants`: properties every credible answer has on every input (a palindrome,
  sorted, a permutation of an argument, chosen from an argument), each on enough inputs where it
  could have failed; a minority answer without one of them is shown wrong;
- :func:`answer_key`: what two valid answers of one input must share: a scalar answer's value
  (a number, a boolean, a character: a deterministic statement has one), a string's or a list's
  length, and the mined invariants. Answers that differ in their key cannot both be right.

When the disagreements that remain are all between answers with the same key, the task is kept
only with a checker: :class:`CheckerWriter` asks the configured LLM endpoint for
``check_answer(inputs, answer, expected) -> bool`` (prompt ``prompts/answer_checker.j2``), runs it
in the sandbox on every credible solution's answers (all must be accepted) and on answers known to
be wrong (the solutions shown wrong, and each reference answer made one shorter or one larger: all
must be rejected). A checker that passes becomes the task's ``evaluate_offline``
(:func:`checker_evaluate_offline`): the profile stage, the published rows and scoring judge with it.
"""

from __future__ import annotations

import itertools
import json
import logging
import re
import textwrap
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quicksilver import astparse
from quicksilver.config import CheckerSection, SandboxConfig
from quicksilver.execute import BatchRun, run_calls
from quicksilver.llm import ChatClient, EndpointFailure, clip
from quicksilver.prompts import prompt_environment, prompts_folder, render_messages
from quicksilver.sandbox import isolation as iso
from quicksilver.sources.convert import SUPPORTED_NODES, Signature, base_type

log = logging.getLogger(__name__)

# the template this module renders: part of the keys of the stages that import it (pipeline/keys.py)
DATA_FILES = ("prompts/answer_checker.j2",)

SCALAR_RETURNS = frozenset({"integer", "long", "double", "boolean", "character"})
"""Return types whose answer is one value: a deterministic statement determines it."""

CHECKER_ENTRY = "check_answer"
CACHE_FORMAT = "quicksilver-answer-checker/1"


# --- properties of answers ----------------------------------------------------------------------


def _scalars(x: Any) -> list[Any]:
    """The scalars of a value, depth first (a string is one scalar)."""
    if isinstance(x, list):
        return [s for v in x for s in _scalars(v)]
    return [x]


def _hashable(x: Any) -> Any:
    return json.dumps(x, sort_keys=True) if isinstance(x, list | dict) else (type(x).__name__, x)


def _sub_multiset(part: list[Any], whole: list[Any]) -> bool:
    have = Counter(_hashable(v) for v in whole)
    need = Counter(_hashable(v) for v in part)
    return all(have[k] >= n for k, n in need.items())


def _subsequence(part: str, whole: str) -> bool:
    it = iter(whole)
    return all(ch in it for ch in part)


def _comparable(xs: list[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in xs) or all(
        isinstance(v, str) for v in xs
    )


@dataclass(frozen=True)
class Property:
    """A property an answer may have on one input. ``informative``: the property could have
    failed there (a one-letter string is always a palindrome); ``selection``: an answer with it is
    chosen from an argument, so several answers may be valid."""

    name: str
    informative: Callable[[Any, list[Any]], bool]
    holds: Callable[[Any, list[Any]], bool]
    selection: bool = False


def _argument_properties(k: int, name: str) -> list[Property]:
    """The properties that relate an answer to argument ``k``."""

    def text(args: list[Any]) -> str | None:
        v = args[k] if k < len(args) else None
        return v if isinstance(v, str) else None

    def values(args: list[Any]) -> list[Any] | None:
        v = args[k] if k < len(args) else None
        return v if isinstance(v, list) else None

    def of_text(a: Any, args: list[Any]) -> bool:
        return isinstance(a, str) and a != "" and text(args) is not None

    def of_list(a: Any, args: list[Any]) -> bool:
        return isinstance(a, list) and a != [] and values(args) is not None

    def substring(a: Any, args: list[Any]) -> bool:
        return a in (text(args) or "")

    def subsequence(a: Any, args: list[Any]) -> bool:
        return _subsequence(a, text(args) or "")

    def chosen(a: Any, args: list[Any]) -> bool:
        return _sub_multiset(_scalars(a), _scalars(values(args) or []))

    def permutation_informative(a: Any, args: list[Any]) -> bool:
        return of_list(a, args) and len(a) >= 2

    def permutation(a: Any, args: list[Any]) -> bool:
        return sorted(map(_hashable, a)) == sorted(map(_hashable, values(args) or []))

    return [
        Property(f"a substring of {name}", of_text, substring, selection=True),
        Property(f"a subsequence of {name}", of_text, subsequence, selection=True),
        Property(f"chosen from the values of {name}", of_list, chosen, selection=True),
        Property(f"a permutation of {name}", permutation_informative, permutation),
    ]


def _palindrome_informative(a: Any, _args: list[Any]) -> bool:
    return isinstance(a, str) and len(a) >= 2


def _palindrome(a: Any, _args: list[Any]) -> bool:
    return bool(a == a[::-1])


def _sorted_informative(a: Any, _args: list[Any]) -> bool:
    return isinstance(a, list) and len(a) >= 2 and _comparable(a)


def _sorted(a: Any, _args: list[Any]) -> bool:
    return all(x <= y for x, y in itertools.pairwise(a))


def catalog(n_params: int, names: Sequence[str] = ()) -> list[Property]:
    """The properties looked for, for a task with ``n_params`` arguments."""
    props = [
        Property("a palindrome", _palindrome_informative, _palindrome),
        Property("sorted ascending", _sorted_informative, _sorted),
    ]
    for k in range(n_params):
        name = f"argument {k + 1}" + (f" ({names[k]})" if k < len(names) else "")
        props += _argument_properties(k, name)
    return props


@dataclass
class Found:
    """A property every credible answer has: on how many inputs it could have failed."""

    prop: Property
    informative_inputs: int


def shared_properties(
    props: Sequence[Property], answers: Sequence[tuple[list[Any], Sequence[Any]]]
) -> list[Found]:
    """The properties that hold for every answer where they are informative, with the number of
    inputs where they were. ``answers``: per input, its arguments and the credible answers."""
    found = []
    for prop in props:
        inputs = 0
        for args, values in answers:
            informative = [v for v in values if _safe(prop.informative, v, args)]
            if not informative:
                continue
            if not all(_safe(prop.holds, v, args) for v in informative):
                break
            inputs += 1
        else:
            if inputs:
                found.append(Found(prop, inputs))
    return found


def _safe(fn: Callable[[Any, list[Any]], bool], value: Any, args: list[Any]) -> bool:
    try:
        return bool(fn(value, args))
    except (TypeError, ValueError, IndexError):
        return False


def selection_evidence(found: Sequence[Found]) -> str | None:
    """Why the credible answers look chosen from an argument (None: they look computed)."""
    chosen = [f for f in found if f.prop.selection]
    if not chosen:
        return None
    f = max(chosen, key=lambda f: f.informative_inputs)
    return f"every answer is {f.prop.name} (on {f.informative_inputs} input(s))"


def mine_invariants(found: Sequence[Found], min_inputs: int) -> list[Property]:
    """The shared properties taken as part of the statement (a minority answer without one is
    shown wrong): those seen on at least ``min_inputs`` inputs where they could have failed, and
    every selection property (the evidence of several answers is that answers are chosen so; an
    answer not chosen so is not one of them)."""
    return [f.prop for f in found if f.prop.selection or f.informative_inputs >= min_inputs]


def answer_key(
    value: Any,
    args: list[Any],
    returns: str,
    invariants: Sequence[Property],
    *,
    one_value: bool = True,
) -> list[Any]:
    """What every valid answer of one input shares (see the module docstring), as plain data.
    ``one_value``: a scalar answer is its value (False when the statement says several answers
    are accepted: then any value of the type may be one)."""
    scalar = returns in SCALAR_RETURNS or value is None or isinstance(value, bool | int | float)
    if scalar:
        key: list[Any] = ["value", value] if one_value else [type(value).__name__, None]
    elif returns.strip() == "TreeNode" and isinstance(value, list):
        # a level order holds a null for each missing child before its last node, so two valid
        # trees of the same nodes differ in its length (convert-sorted-array-to-binary-search-
        # tree's [0,-3,9,-10,null,5] and [0,-10,5,null,-3,null,9]); their node count does not,
        # and a property of the level order is none of the tree's
        return ["tree", sum(v is not None for v in value)]
    elif isinstance(value, str):
        key = ["string", len(value)]
    elif isinstance(value, list):
        key = ["list", len(value)]
    else:
        key = ["value", value]
    return key + [
        [p.name, _safe(p.holds, value, args)]
        for p in invariants
        if _safe(p.informative, value, args)
    ]


def describe_difference(key: list[Any], shared: list[Any]) -> str:
    """How an answer's key differs from the key every credible answer shares, in words."""
    if key[0] != shared[0]:
        return f"{key[0]}, where every credible answer is {shared[0]}"
    if key[0] == "value":
        return "a different value"
    parts = []
    if key[1] != shared[1]:
        size = "nodes" if key[0] == "tree" else "length"
        parts.append(f"{size} {key[1]}, where every credible answer's is {shared[1]}")
    props = {name: ok for name, ok in shared[2:]}
    for name, ok in key[2:]:
        if name in props and props[name] != ok:
            parts.append(f"{'' if ok else 'not '}{name}, unlike every credible answer")
    return "; ".join(parts) or "what every valid answer shares"


def mutants(value: Any) -> list[Any]:
    """Answers made from a valid one that differ in their key: one shorter, one larger."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int | float):
        return [value + 1]
    if isinstance(value, str | list) and len(value) > 0:
        return [value[:-1]]
    return []


# --- the checker ----------------------------------------------------------------------------------


def checker_evaluate_offline(checker: str) -> str:
    """Mercury's ``evaluate_offline(inputs, outputs, expected)`` over a checker: the answer and
    the arguments (as they are after the call: Mercury's contract) judged by ``check_answer``.
    Only for tasks :func:`checkable` says a checker can judge."""
    wrapper = (
        "def evaluate_offline(inputs, outputs, expected):\n"
        f"    return {CHECKER_ENTRY}(list(inputs), outputs, expected) is True\n"
    )
    return wrapper + "\n\n" + checker.rstrip() + "\n"


_VALIDATE_ENTRY = "__quicksilver_check"
_VALIDATE = f"""

def {_VALIDATE_ENTRY}(inputs, answer, expected):
    verdict = {CHECKER_ENTRY}(inputs, answer, expected)
    if type(verdict) is not bool:
        raise TypeError("check_answer returned " + type(verdict).__name__ + ", not a bool")
    return verdict
"""

_FENCE = re.compile(r"```(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)(?:```|\Z)", re.S)
_DEFINES = re.compile(rf"^def\s+{CHECKER_ENTRY}\s*\(", re.M)


def extract_checker(answer: str) -> str | None:
    """The last fenced block that defines ``check_answer`` and parses (or the whole answer)."""
    blocks = [textwrap.dedent(m.group("body")) for m in _FENCE.finditer(answer or "")]
    for code in [*reversed(blocks), answer or ""]:
        if _DEFINES.search(code):
            try:
                astparse.parse(code)
            except SyntaxError:
                continue
            return code.strip("\n") + "\n"
    return None


@dataclass
class Trial:
    """One answer the checker is tried on, and what it must say."""

    input_index: int
    args: list[Any]
    answer: Any
    expected: Any
    accept: bool
    why: str  # "solution #3's answer", "the reference answer made shorter", ...


@dataclass
class CheckerResult:
    """A validated checker (``code``), or why there is none (``reason``)."""

    code: str | None = None
    reason: str | None = None
    model: str | None = None
    attempts: list[dict[str, Any]] = field(default_factory=list)
    trials: int = 0

    def record(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "trials": self.trials,
            "attempts": self.attempts,
            **({"reason": self.reason} if self.reason else {}),
        }


@dataclass
class CheckerRequest:
    """What the prompt shows of a task (variables of ``answer_checker.j2``)."""

    slug: str
    title: str
    statement: str
    starter_code: str
    params: list[dict[str, str]]
    returns: str
    examples: list[dict[str, str]]  # per disputed input: arguments and the answers given


class CheckerWriter:
    """Asks the endpoint of ``section.llm`` for a checker and validates it in the sandbox."""

    def __init__(self, section: CheckerSection, sandbox: SandboxConfig) -> None:
        self.section = section
        self.sandbox = sandbox
        self.client = ChatClient(section.llm, Path(section.cache_dir), cache_format=CACHE_FORMAT)
        self._isolation: iso.Isolation | None = None

    @property
    def configured(self) -> bool:
        return self.client.configured

    def messages(self, request: CheckerRequest) -> list[dict[str, str]]:
        env = prompt_environment(prompts_folder(self.section.llm.prompts_dir))
        return render_messages(env, self.section.prompt_template, request.__dict__)

    def write(
        self, request: CheckerRequest, trials: Sequence[Trial], *, seed: int
    ) -> CheckerResult:
        """A checker that says what every trial wants, or the reason there is none."""
        out = CheckerResult(model=self.client.model, trials=len(trials))
        try:
            self._isolation = self._isolation or iso.resolve(self.sandbox)
        except iso.SandboxUnavailable as exc:
            out.reason = f"cannot run a checker here: {exc}"
            return out
        messages = self.messages(request)
        for attempt in range(self.section.max_attempts):
            try:
                (answer,) = self.client.ask(
                    messages,
                    n=1,
                    temperature=self.section.llm.temperature,
                    seed=seed + attempt,
                    key={"kind": "answer-checker", "attempt": attempt},
                )[:1]
            except EndpointFailure as exc:
                out.reason = f"the endpoint failed: {exc}"
                out.attempts.append({"attempt": attempt, "problem": out.reason})
                return out
            code = extract_checker(answer.content)
            problem = (
                f"the answer defines no `{CHECKER_ENTRY}(inputs, answer, expected)` that parses"
                if code is None
                else self.validate(code, trials)
            )
            out.attempts.append({"attempt": attempt, "cached": answer.cached, "problem": problem})
            if problem is None:
                out.code = code
                return out
            log.info("%s: checker attempt %d rejected: %s", request.slug, attempt, problem)
            messages = [
                *messages,
                {"role": "assistant", "content": answer.content},
                {
                    "role": "user",
                    "content": f"Your checker was rejected: {problem}\n\nAnswer with the complete "
                    f"corrected code in one ```python code block defining `{CHECKER_ENTRY}`.",
                },
            ]
        out.reason = (
            f"no checker passed in {self.section.max_attempts} attempt(s); the last: "
            f"{out.attempts[-1]['problem']}"
        )
        return out

    def validate(self, code: str, trials: Sequence[Trial]) -> str | None:
        """None when the checker accepts and rejects as every trial wants (run in the sandbox),
        else the first problem."""
        batch: BatchRun = run_calls(
            code + _VALIDATE,
            entry_point=_VALIDATE_ENTRY,
            inputs=[[t.args, t.answer, t.expected] for t in trials],
            kind="function",
            cpu_seconds=self.section.cpu_seconds,
            sandbox=self.sandbox,
            isolation=self._isolation,
            give_up_after=1,
        )
        if batch.load_error:
            return f"it does not load: {clip(batch.load_error, 300)}"
        for t, o in zip(trials, batch.outcomes, strict=True):
            where = f"on arguments {clip(json.dumps(t.args), 200)}"
            if not o.ok:
                answer = clip(json.dumps(t.answer), 120)
                return f"{where} with answer {answer}: {o.status}: {clip(o.error or '', 200)}"
            if o.value is not t.accept:
                said = "rejected" if t.accept else "accepted"
                return (
                    f"{where} it {said} {t.why} {clip(json.dumps(t.answer), 120)} "
                    f"(expected {clip(json.dumps(t.expected), 120)}), which is "
                    f"{'valid' if t.accept else 'wrong'}"
                )
        return None


def checkable(sig: Signature) -> str | None:
    """Why a checker cannot judge the task (None: it can): tree and linked-list values reach
    ``evaluate_offline`` as nodes, and an in-place answer is the arguments as the solution left
    them (the checker would not see the input)."""
    if sig.output_param is not None:
        return "the answer is an argument changed in place (a checker would not see the input)"
    nodes = sorted({t for t in sig.types if base_type(t) in SUPPORTED_NODES})
    if nodes:
        return f"the task has {', '.join(nodes)} values (a checker sees plain data only)"
    return None
