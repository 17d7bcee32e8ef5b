"""The offline test-generator synthesizer: metaData types + the statement's Constraints section.

:func:`synthesize_offline` reads the parameters' LeetCode types (``inp.meta``) and every item of
the Constraints list (``inp.content_html``), turns them into a *spec* (a JSON-like dict: integer
quantities with linear bounds, and per parameter its dimensions and value domain), and emits a
self-contained generator: a small generic runtime plus the literal spec (:func:`emit_generator`).
Nothing is guessed: a constraint line it does not understand, a type it does not generate, a
parameter without a stated bound, or a missing Constraints section is *reported* (``needs_llm``,
``reason`` quoting each line) instead. See docs/offline-synthesizer.md.

What it understands (one Constraints item at a time, after ``<sup>`` -> ``^`` and entity decoding):

- chains of comparisons over linear integer expressions: ``1 <= nums.length <= 10^5``,
  ``-2^31 <= x <= 2^31 - 1``, ``2 * 10^4``, comma lists (``1 <= m, n <= 300``,
  ``-10^9 <= nums[i], target <= 10^9``), aliases (``n == nums.length``), chains
  (``1 <= k <= n <= 10^4``), relations (``1 <= k <= nums.length``), sums (``1 <= m + n <= ...``),
  element bounds (``nums[i]``, ``lists[i][j]``, ``grid[i][j]``, ``Node.val``);
- ``X is in the range [a, b]``, ``The number of nodes in the tree/list/each list is in the range
  [a, b]`` and ``The number of nodes in the list is sz.``;
- ``The sum of lists[i].length will not exceed B``;
- alphabets (``s consists of lowercase English letters``, ``... English letters, digits, symbols
  and spaces``, ``p contains only lowercase English letters, '.', and '*'``) and value sets
  (``grid[i][j] is '0' or '1'``, ``nums[i] is either 0, 1, or 2``);
- sortedness (``... sorted in non-decreasing order``; ``ascending`` / ``increasing`` are read as
  strictly increasing, the reading that satisfies either meaning) and distinctness (``All the
  values of nums are unique``);
- LeetCode's own wordings, collected from 781 real Constraints items (docs/offline-synthesizer.md,
  "LeetCode's real wording"): ``The number of nodes in the list is the range [0, 5000]``,
  ``... will be in the range``, ``between a and b``, ``min(50, nums.length)``,
  ``sum(words[i].length)``, ``s.length / 2``, ``n = grid[i].length``, free names tied by an
  equality (``nums.length == n + 1``), parity (``n is even``), ``!=`` (``divisor != 0``),
  permutations, binary search trees, rows with named fields (``edges[i] = [a_i, b_i]``), and
  many more alphabet, order and uniqueness phrasings;
- from the description: row forms, a BST, binary strings, grids, named sizes, and guarantees
  about the input (:mod:`~.described`), each read as a Constraints item would be or reported.

Sampling policy (also written into each generated file's header):

- lengths and counts: uniform in ``[lo, min(hi, size_cap)]`` (each capped bound is noted);
- element values: uniform within their range (or over their value set / alphabet);
- scalar integer parameters: log-uniform in magnitude when the range spans >= 3 orders of
  magnitude (so ``n <= 10^6`` reaches large values without dominating), otherwise uniform;
- with probability ~10% a list with no stated order comes sorted, ascending or descending;
- with probability ~10% a size or scalar is a boundary (its min or max), a parameter's values
  lean on the extremes (or a string uses only one or two letters of its alphabet), and a tree is
  path-shaped instead of random;
- distinct values via ``random.sample`` over the range (lengths bounded by the range size, which
  is reported when impossible); sorted by sorting; sums of lengths shrunk to fit their bound;
- quantities are sampled in a topological order of their relations (sizes first); an ordering
  that cannot bound a quantity (no stated bound, a cycle) is reported.

The generator only uses the module-level ``random`` functions (the caller seeds it) and imports
only ``math`` and ``random``.

Perf mode (the offline path of DPE's SaS, :mod:`quicksilver.dpe.sas`):
:func:`synthesize_offline_perf` emits the same runtime and spec, built without capping any stated
bound, plus ``perf_input_gen(scale)``, which switches the runtime's ``_SIZE_MODE`` to ``"max"`` for
one call: every length and count is ``min(stated max, scale)`` (at least the stated min), scalar
integers whose range spans >= 3 orders of magnitude from >= 0 take ``min(hi, max(lo, scale))``, and
no random edge case is drawn, so the input's size is monotone in ``scale`` (:data:`PERF_POLICY`).
Element values and narrow scalars stay random. In ``"random"`` mode the runtime draws exactly what
it drew before the mode existed, so ``generate_test_case()`` is unchanged.
"""

from __future__ import annotations

import logging

from quicksilver.sources.text import constraint_lines, html_to_text
from quicksilver.synth import OFFLINE_SYNTHESIZER, GeneratorResult, SynthInput
from quicksilver.synth.offline.analysis import Analysis, SpecResult
from quicksilver.synth.offline.constraints import Param, parse_type
from quicksilver.synth.offline.entries import PERF_ENTRY
from quicksilver.synth.offline.policy import PERF_POLICY, SAMPLING_POLICY
from quicksilver.synth.offline.runtime import (
    DEFAULT_SIZE_CAP,
    OFFLINE_PERF_SYNTHESIZER,
    PERF_SPEC_CAP,
    emit_generator,
    sample_spec,
)

__all__ = [
    "DEFAULT_SIZE_CAP",
    "OFFLINE_PERF_SYNTHESIZER",
    "PERF_POLICY",
    "PERF_SPEC_CAP",
    "SAMPLING_POLICY",
    "SpecResult",
    "build_spec",
    "constraint_lines",
    "emit_generator",
    "sample_spec",
    "synthesize_offline",
    "synthesize_offline_perf",
]

log = logging.getLogger(__name__)


def build_spec(inp: SynthInput, *, size_cap: int = DEFAULT_SIZE_CAP) -> SpecResult:
    """Types + Constraints -> a spec for :func:`emit_generator`, or the problems found."""
    return _build_spec(inp, size_cap, perf=False)


def _build_spec(inp: SynthInput, size_cap: int, *, perf: bool) -> SpecResult:
    """:func:`build_spec`; ``perf``: notes describe ``perf_input_gen(scale)`` (the spec is the
    same: ``size_cap`` only decides which stated bounds the notes call capped)."""
    if size_cap < 1:
        raise ValueError(f"size_cap must be >= 1, got {size_cap}")
    problems: list[str] = []
    params: list[Param] = []
    raw_params = inp.meta.get("params") if isinstance(inp.meta, dict) else None
    if not isinstance(raw_params, list) or "name" not in inp.meta:
        return SpecResult(None, [], ["metaData names no method and parameters (a design problem?)"])
    for raw in raw_params:
        name, t = str(raw.get("name")), str(raw.get("type"))
        p = parse_type(name, t)
        if p is None:
            problems.append(
                f"parameter {name} has type {t}, which the offline synthesizer does not generate"
            )
            continue
        params.append(p)
    lines = constraint_lines(inp.content_html)
    if lines is None:
        problems.append(
            "the statement has no Constraints section"
            + ("" if inp.content_html else " (no statement at all: paid-only?)")
        )
        return SpecResult(None, [], problems)
    analysis = Analysis(params, size_cap, perf=perf)
    analysis.facts.returns = str((inp.meta.get("return") or {}).get("type"))  # numstrings.py
    result = analysis.run(lines, html_to_text(inp.content_html))
    if problems:
        return SpecResult(None, result.notes, problems + result.problems)
    return result


def synthesize_offline(inp: SynthInput, *, size_cap: int = DEFAULT_SIZE_CAP) -> GeneratorResult:
    """A generator from the statement's constraints, or a report of what blocks one.

    ``generator_code`` defines ``generate_test_case()`` (one argument list per call, the caller
    seeds ``random``) and ``_generate(size_cap)``; ``notes`` say how each parameter was understood
    and which stated bounds were capped at ``size_cap``.
    """
    result = build_spec(inp, size_cap=size_cap)
    out = GeneratorResult(slug=inp.slug, path="offline", model=OFFLINE_SYNTHESIZER)
    if result.spec is None:
        out.needs_llm = True
        out.reason = "the offline synthesizer cannot satisfy: " + "; ".join(result.problems)
        out.notes = result.notes
        log.info("%s: offline synthesis reports %d problem(s)", inp.slug, len(result.problems))
        return out
    header = [f"Question: {inp.slug}", "Understood:"] + [f"  {n}" for n in result.notes]
    out.generator_code = emit_generator(result.spec, size_cap, header=header)
    out.notes = result.notes
    log.info("%s: offline generator written (%d parameters)", inp.slug, len(result.spec["params"]))
    return out


def synthesize_offline_perf(inp: SynthInput) -> GeneratorResult:
    """The offline SaS path: a ``perf_input_gen(scale)`` from the statement's constraints, or a
    report of what blocks one (``needs_llm`` and ``reason``, as :func:`synthesize_offline`).

    ``perf_input_gen(scale)`` returns the argument list with every length and count at
    min(stated max, scale) and magnitude-like scalars likewise (:data:`PERF_POLICY`), so a larger
    scale never gives a smaller input and the stated bounds are reached (not capped at the Mercury
    size cap). The file keeps ``generate_test_case()`` (random inputs, sizes at most
    :data:`DEFAULT_SIZE_CAP`).
    """
    result = _build_spec(inp, PERF_SPEC_CAP, perf=True)
    out = GeneratorResult(slug=inp.slug, path="offline", model=OFFLINE_PERF_SYNTHESIZER)
    if result.spec is None:
        out.needs_llm = True
        out.reason = "the offline synthesizer cannot satisfy: " + "; ".join(result.problems)
        out.notes = result.notes
        log.info("%s: offline perf synthesis reports %d problem(s)", inp.slug, len(result.problems))
        return out
    header = [f"Question: {inp.slug}", "Understood:"] + [f"  {n}" for n in result.notes]
    out.generator_code = emit_generator(
        result.spec,
        DEFAULT_SIZE_CAP,
        header=header,
        extra_entry=PERF_ENTRY,
        title=(
            f"Performance-input generator perf_input_gen(scale) written by "
            f"{OFFLINE_PERF_SYNTHESIZER}, the offline perf synthesizer (no LLM)."
        ),
        policy=PERF_POLICY,
    )
    out.notes = [*result.notes, "perf_input_gen(scale): sizes min(stated max, scale)"]
    log.info(
        "%s: offline perf generator written (%d parameters)", inp.slug, len(result.spec["params"])
    )
    return out
