"""Function-style tasks (HumanEval, MBPP, any snapshot with an ``entry_point`` and no ``class
Solution``): their signature and input bounds, read from the task's own example calls.

Such tasks have no LeetCode ``metaData`` and no Constraints section. What they do have are calls:

- the file's ``tests`` (``[{"input": [args...], "expected": value}]``; HumanEval's plain asserts,
  extracted at conversion);
- the asserts of its ``test_code`` of the form ``assert candidate(<literals>) == <literal>`` (or
  the entry point's own name);
- the examples of its prompt: ``>>> f(1, 2)`` followed by the answer on the next line, and lines
  such as ``f("abc") == "cba"``, ``f(3) ➞ True``, ``f(5) => 3``, ``f(5) should return 3``.

:func:`infer_signature` types each parameter from the values the calls pass (``ast`` literals:
``bool`` -> ``boolean``, ``int`` -> ``integer`` (``long`` beyond 32 bits), ``float`` -> ``double``,
``str`` -> ``string``, a list or tuple -> ``X[]`` of its elements' common type; ints and floats
together make ``double``). The return type comes from the expected answers (``None`` beside other
answers is allowed). A type the calls leave open (every example passes an empty list) is taken
from the prompt's annotation when it names one; a parameter whose values are of no such type
(a dict, a set, ``None``, a mix of a string and a number) is *not inferable*, and the task is
dropped by the filters stage with that reason (``unsupported-type``).

:func:`inferred_constraints` writes the bounds a generator may draw from as Constraints lines the
offline synthesizer reads (docs/offline-synthesizer.md), stated from the same calls: integer and
float values within the range the examples span (a single example value: between it and 0),
strings over the character classes they use,
list and string lengths from the shortest example up to ``max_length`` (the config's
``functions.max_length``; nested lists and strings inside lists up to the longest seen). These
lines are recorded in the task's record (``Task.constraints``) and in each generator's header.
"""

from __future__ import annotations

import ast
import json
import math
import re
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from quicksilver import astparse
from quicksilver.sources.convert import UnsupportedSignature

_INT32 = 2**31
_UNKNOWN = "?"

_ANNOTATIONS = {
    "int": "integer",
    "float": "double",
    "str": "string",
    "bool": "boolean",
}


@dataclass(frozen=True)
class Call:
    """One example call: its arguments and, when the example states it, the answer."""

    args: tuple[Any, ...]
    expected: Any = None
    has_expected: bool = False
    origin: str = "tests"  # tests | test_code | prompt


# --- collecting the calls --------------------------------------------------------------------


_LITERAL_ERRORS = (ValueError, TypeError, SyntaxError, MemoryError, RecursionError)


def _literal(node: ast.AST) -> Any:
    return ast.literal_eval(node)


def calls_in_asserts(code: str, names: Iterable[str]) -> list[Call]:
    """``assert <name>(<literals>) == <literal>`` in ``code``, for each of ``names``."""
    wanted = set(names)
    try:
        tree = astparse.parse(code)
    except SyntaxError:
        return []
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert) or not isinstance(node.test, ast.Compare):
            continue
        cmp = node.test
        if len(cmp.ops) != 1 or not isinstance(cmp.ops[0], ast.Eq):
            continue
        call = cmp.left
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
            continue
        if call.func.id not in wanted or call.keywords:
            continue
        try:
            args = tuple(_literal(a) for a in call.args)
            expected = _literal(cmp.comparators[0])
        except _LITERAL_ERRORS:
            continue
        out.append(Call(args, expected, True, "test_code"))
    return out


_SEPARATORS = re.compile(r"^\s*(?:==>|==|=>|->|➞|=|:|\bshould\s+return\b|\breturns?\b)\s*", re.I)


def _call_at(line: str, start: int, entry: str) -> tuple[tuple[Any, ...], int] | None:
    """The literal arguments of the call to ``entry`` starting at ``start``, and where it ends."""
    depth = 0
    quote: str | None = None
    i = start + len(entry)
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                break
        i += 1
    else:
        return None
    try:
        node = astparse.parse(line[start : i + 1], mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    try:
        return tuple(_literal(a) for a in node.args), i + 1
    except _LITERAL_ERRORS:
        return None


def _answer(text: str) -> tuple[bool, Any]:
    text = text.strip().rstrip(".,;").strip()
    if not text:
        return False, None
    try:
        return True, ast.literal_eval(astparse.parse(text.lstrip(" \t"), mode="eval"))
    except _LITERAL_ERRORS:
        return False, None


def calls_in_prompt(prompt: str, entry: str) -> list[Call]:
    """The prompt's examples of calls to ``entry`` (doctest lines and ``f(x) == y`` forms)."""
    lines = prompt.split("\n")
    out = []
    pattern = re.compile(rf"(?<![\w.]){re.escape(entry)}\s*\(")
    for n, line in enumerate(lines):
        if re.match(r"\s*def\s", line):
            continue
        for m in pattern.finditer(line):
            found = _call_at(line, m.start(), entry)
            if found is None:
                continue
            args, end = found
            rest = line[end:]
            has, expected = False, None
            sep = _SEPARATORS.match(rest)
            if sep:
                has, expected = _answer(rest[sep.end() :])
            elif line.lstrip().startswith(">>>") and not rest.strip() and n + 1 < len(lines):
                nxt = lines[n + 1].strip()
                if nxt and not nxt.startswith(">>>"):
                    has, expected = _answer(nxt)
            out.append(Call(args, expected, has, "prompt"))
    return out


def example_calls(
    entry: str,
    *,
    prompt: str,
    tests: Sequence[dict[str, Any]] | None,
    test_code: str | None,
) -> list[Call]:
    """Every example call of the task, distinct (the file's tests first, then the asserts of its
    test code, then the prompt's examples)."""
    calls = [
        Call(tuple(t["input"]), t.get("expected"), "expected" in t, "tests")
        for t in tests or []
        if isinstance(t, dict) and isinstance(t.get("input"), list)
    ]
    if test_code:
        calls += calls_in_asserts(test_code, ("candidate", entry))
    calls += calls_in_prompt(prompt, entry)
    seen: set[str] = set()
    out = []
    for c in calls:
        try:
            key = json.dumps([c.args, c.expected], sort_keys=True, default=repr)
        except (TypeError, ValueError):
            key = repr((c.args, c.expected))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


# --- types -----------------------------------------------------------------------------------


class NotInferable(ValueError):
    """A value whose type no LeetCode type describes, or values that share no type."""


def value_type(value: Any) -> str:
    """The LeetCode type of one plain value (``?`` for an empty list's elements)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer" if -_INT32 <= value < _INT32 else "long"
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotInferable(f"a non-finite float ({value})")
        return "double"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        inner = _UNKNOWN
        for v in value:
            inner = unify(inner, value_type(v))
        return f"{inner}[]"
    kind = "None" if value is None else type(value).__name__
    raise NotInferable(f"a {kind} value ({_short(value)})")


def unify(a: str, b: str) -> str:
    """The one type both ``a`` and ``b`` values have (ints widen to long and double)."""
    if a == b or b == _UNKNOWN:
        return a
    if a == _UNKNOWN:
        return b
    if a.endswith("[]") and b.endswith("[]"):
        return unify(a[:-2], b[:-2]) + "[]"
    numbers = ("integer", "long", "double")
    if a in numbers and b in numbers:
        return max(a, b, key=numbers.index)
    raise NotInferable(f"values of two types ({a} and {b})")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def annotation_type(node: ast.expr | None) -> str | None:
    """The LeetCode type a Python annotation names (``List[int]`` -> ``integer[]``), or None."""
    if node is None:
        return None
    if isinstance(node, ast.Name):
        return _ANNOTATIONS.get(node.id)
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("List", "list", "Sequence")
    ):
        inner = annotation_type(node.slice)
        return f"{inner}[]" if inner else None
    return None


def _def_of(prompt: str, entry: str) -> ast.FunctionDef | None:
    try:
        tree = astparse.parse(prompt)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == entry:
            return node
    return None


def _settle(t: str, hint: str | None, what: str) -> str:
    """``t`` with the annotation's type where the values left it open."""
    if _UNKNOWN not in t:
        if hint is not None:
            try:
                return unify(t, hint)  # e.g. ints passed to a float parameter: double
            except NotInferable:
                return t  # the values say what the calls pass; the annotation is a hint
        return t
    if hint is not None:
        try:
            return unify(t, hint)
        except NotInferable:
            pass
    raise NotInferable(f"{what}: every example leaves the element type open (empty lists)")


def infer_signature(entry: str, prompt: str, calls: Sequence[Call]) -> dict[str, Any]:
    """A LeetCode-shaped metaData dict (``name``, ``params``, ``return``) from the calls; raises
    :class:`~quicksilver.sources.convert.UnsupportedSignature` saying what is not inferable."""
    if not calls:
        raise UnsupportedSignature(
            f"no example call of {entry} with literal arguments to infer the types from"
        )
    fn = _def_of(prompt, entry)
    arities = sorted({len(c.args) for c in calls})
    if len(arities) > 1:
        raise UnsupportedSignature(
            f"the examples call {entry} with {' and '.join(map(str, arities))} arguments "
            "(default or variable arguments are not supported)"
        )
    n = arities[0]
    if fn is not None:
        if fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs:
            raise UnsupportedSignature(f"{entry} takes *args, **kwargs or keyword-only arguments")
        names = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
        hints = [annotation_type(a.annotation) for a in [*fn.args.posonlyargs, *fn.args.args]]
        if len(names) != n:
            raise UnsupportedSignature(
                f"{entry} has {len(names)} parameter(s) but the examples pass {n} argument(s)"
            )
        ret_hint = annotation_type(fn.returns)
    else:
        names, hints, ret_hint = [f"arg{i}" for i in range(n)], [None] * n, None
    params = []
    for i, (name, hint) in enumerate(zip(names, hints, strict=True)):
        t = _UNKNOWN
        try:
            for c in calls:
                t = unify(t, value_type(c.args[i]))
            t = _settle(t, hint, f"parameter {name}")
        except NotInferable as exc:
            raise UnsupportedSignature(f"parameter {name} is not inferable: {exc}") from exc
        params.append({"name": name, "type": t})
    answers = [c.expected for c in calls if c.has_expected and c.expected is not None]
    try:
        ret = _UNKNOWN
        for a in answers:
            ret = unify(ret, value_type(a))
        if ret == _UNKNOWN and ret_hint is None:
            raise NotInferable("no example states a (non-None) answer")
        ret = _settle(ret, ret_hint, "the answer")
    except NotInferable as exc:
        raise UnsupportedSignature(f"the return type is not inferable: {exc}") from exc
    return {"name": entry, "params": params, "return": {"type": ret}}


# --- bounds for generated inputs -------------------------------------------------------------

_CLASSES = (
    (string.ascii_lowercase, "lowercase English letters"),
    (string.ascii_uppercase, "uppercase English letters"),
    (string.digits, "digits"),
)


def _alphabet(chars: set[str]) -> str | None:
    """The characters a generated string may use, as a Constraints item words them: each class
    (lowercase, uppercase, digits) the examples touch, whole, plus any other character seen."""
    if not chars:
        return None
    parts = [name for cls, name in _CLASSES if chars & set(cls)]
    others = sorted(c for c in chars if not any(c in cls for cls, _ in _CLASSES))
    if any(c in "'\\" or not c.isprintable() for c in others):
        return None
    return ", ".join(parts + [f"'{c}'" for c in others])


def _number(v: float) -> str:
    return repr(float(v)) if isinstance(v, float) and not float(v).is_integer() else str(int(v))


def value_range(nums: Sequence[float]) -> tuple[float, float]:
    """The range generated numbers are drawn from: the examples' span; a single value ``v``
    (nothing to span) widens to the range between it and 0 ([0, 1] for 0 itself)."""
    lo, hi = min(nums), max(nums)
    if lo == hi:
        lo, hi = min(lo, 0), max(hi, 0)
        if lo == hi:
            hi = 1
    return lo, hi


def _leaves(value: Any, depth: int) -> list[Any]:
    if depth == 0:
        return [value]
    return [x for v in value for x in _leaves(v, depth - 1)]


def inferred_constraints(
    meta: dict[str, Any], calls: Sequence[Call], *, max_length: int
) -> list[str]:
    """Constraints lines for the parameters of ``meta`` from the calls (see the module doc)."""
    lines: list[str] = []
    for i, p in enumerate(meta.get("params", [])):
        name, t = str(p["name"]), str(p["type"])
        values = [c.args[i] for c in calls if len(c.args) > i]
        depth = 0
        base = t
        while base.endswith("[]"):
            base, depth = base[:-2], depth + 1
        if base == "string":
            depth += 1  # a string's characters are one more level
        # lengths, level by level: the outermost up to max_length, the inner ones as seen
        level = [list(v) if isinstance(v, str) else v for v in values]
        index = ""
        for d in range(depth):
            lengths = [len(v) for v in level]
            lo = min(lengths) if lengths else 0
            hi = max_length if d == 0 else max(max(lengths, default=0), 1)
            lines.append(f"{lo} <= {name}{index}.length <= {max(hi, lo)}")
            level = [list(x) if isinstance(x, str) else x for v in level for x in v]
            index += "[" + "ijklmn"[d] + "]"
        leaves = [x for v in values for x in _leaves(v, depth)]
        ref = name + index
        if base in ("integer", "long", "double") and leaves:
            nums = [x for x in leaves if isinstance(x, int | float) and not isinstance(x, bool)]
            if nums:
                low, high = value_range(nums)
                lines.append(f"{_number(low)} <= {ref} <= {_number(high)}")
        elif base == "string":
            alphabet = _alphabet({ch for x in leaves for ch in x} if leaves else set())
            if alphabet:
                lines.append(f"{name}{index[:-3]} consists of {alphabet}")
    return lines


def constraints_html(lines: Sequence[str]) -> str:
    """A Constraints section holding ``lines`` (what the synthesizers read), for a statement that
    has none."""
    items = "".join(f"\n\t<li><code>{_escape(line)}</code></li>" for line in lines)
    return (
        "\n<p>(No stated constraints: the bounds below are inferred from the task's example "
        "calls.)</p>\n<p><strong>Constraints:</strong></p>"
        f"\n<ul>{items}\n</ul>\n"
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
