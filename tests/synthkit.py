"""Statements we write in LeetCode's shapes, for the offline synthesizer's family tests
(test_offline_chars.py, test_offline_forms.py, test_offline_relations.py): a question from
parameters and Constraints items, and its spec."""

from __future__ import annotations

import html
import re
from typing import Any

from quicksilver.synth import SynthInput
from quicksilver.synth.offline import build_spec


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
