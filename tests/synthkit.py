"""Statements we write in LeetCode's shapes, for the offline synthesizer's family tests
(test_offline_*.py): a question from parameters and Constraints items, its spec or why it is
refused, its inputs drawn on many seeds and checked, and the checker's report on a bad input."""

from __future__ import annotations

import html
import random
import re
from typing import Any

from quicksilver.synth import SynthInput
from quicksilver.synth.offline import build_spec, emit_generator, sample_spec
from quicksilver.synth.offline.checker import check_input


def li(text: str) -> str:
    """A Constraints item as LeetCode writes it: HTML-escaped (``<=``, quotes), ``^k`` as
    ``<sup>k</sup>``."""
    return re.sub(r"\^(\d+)", r"<sup>\1</sup>", html.escape(text))


def question(params: list[tuple[str, str]], items: list[str], prose: str = "Do it.") -> SynthInput:
    """A question with one method ``f(params) -> int``, the description ``prose`` and the
    Constraints ``items``."""
    meta = {
        "name": "f",
        "params": [{"name": n, "type": t} for n, t in params],
        "return": {"type": "integer"},
    }
    body = "".join(f"\t<li>{li(i)}</li>\n" for i in items)
    content = f"<p>{prose}</p>\n<p><strong>Constraints:</strong></p>\n<ul>\n{body}</ul>\n"
    return SynthInput(slug="t", title="T", content_html=content, meta=meta, prompt="")


def spec_of(inp: SynthInput) -> dict[str, Any]:
    """The question's spec (the test fails with the problems when it is refused)."""
    result = build_spec(inp)
    assert result.spec is not None, result.problems
    return result.spec


def refused(inp: SynthInput) -> str:
    """The problems of a question the synthesizer refuses (the test fails when it is read)."""
    result = build_spec(inp)
    assert result.spec is None
    return "\n".join(result.problems)


def draws(
    spec: dict[str, Any],
    n: int,
    *,
    small_cap: int | None = None,
    perf_cap: int = 100,
    edge_seed: int | None = 5,
) -> list[list[Any]]:
    """``n`` random inputs (at cap 1000; every other one at ``small_cap`` when given), three perf
    inputs at ``perf_cap``, and the emitted generator's edge cases (after ``random.seed
    (edge_seed)`` unless None): each passes the independent checker. The generator is compiled
    apart (``dont_inherit``): exec'd as it is, it would inherit this module's ``from __future__
    import annotations`` and hide an annotation the generator file cannot evaluate."""
    out = [
        sample_spec(spec, seed, small_cap if small_cap and seed % 2 else 1000) for seed in range(n)
    ]
    out += [sample_spec(spec, seed, perf_cap, mode="max") for seed in range(3)]
    ns: dict[str, Any] = {}
    exec(compile(emit_generator(spec, 1000), "gen.py", "exec", dont_inherit=True), ns)
    if edge_seed is not None:
        random.seed(edge_seed)
    out += ns["generate_edge_cases"]()
    for args in out:
        assert check_input(spec, args) == [], args
    return out


def reports(spec: dict[str, Any], args: list[Any], *fragments: str) -> None:
    """The checker reports ``args``, in a problem that holds every fragment."""
    problems = check_input(spec, args)
    assert any(all(f in p for f in fragments) for p in problems), problems
