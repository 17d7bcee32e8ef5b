"""Offline worst-case input search: structured variants at small scale, the dearest one scaled up.

The offline perf generator (:func:`quicksilver.synth.offline.synthesize_offline_perf`) makes every
size as large as allowed and fills it with random values. An expensive input is often a
*structured* one: a sorted array for a naive quicksort, many duplicates for a hashing solution,
a window of ``sqrt(n)`` rather than ``n``. Before exponential sampling, :func:`search_worst_case`

1. asks the generator itself, in the sandbox, for its structured variants (``perf_variants()``:
   per argument sorted, reversed, alternating, all equal, few distinct values, extremes, a
   path-shaped tree; per scalar quantity the skews min, sqrt, half, max of its allowed range;
   only the variants the stated constraints allow) and draws each at ``2**scale_exp`` with the
   sampling seed (``perf_input_variant(scale, pattern)``), plus the random input;
2. measures each input's cost on the first ``solutions`` valid solutions with the project's meter
   (``icount`` by default: exact instruction counts, the same on every run), all inputs of one
   solution in one profiler pass;
3. scores a variant by the total cost of those solutions on it over their total cost on the
   random input (inputs of one scale: a cost per unit of size). The total, not a mean of
   per-solution ratios: the slow solutions are the ones the input must exercise, and a fast one
   that gets faster on the variant (timsort on sorted input) only widens the spread; with
   ``combine``, the best variant of each argument that beat random are merged into one pattern
   and measured too;
4. keeps the best pattern if it beats random by ``min_gain``; the generator to sample is then the
   original code with ``_PERF_PATTERN = <pattern>`` appended, and the usual doubling scales it
   up. Otherwise the random generator is sampled as before.

Everything the search did (seed, scale, meter, each variant's costs and ratio, the winner) is in
:class:`SearchResult` and goes into the sampling record and the published row.
"""

from __future__ import annotations

import logging
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from quicksilver.config import (
    MeasureConfig,
    MeterName,
    SandboxConfig,
    SandboxLimits,
    WorstCaseSection,
)
from quicksilver.dpe.sampling import Target, canonical_sha256, int64_violation
from quicksilver.execute import run_calls, run_generator

log = logging.getLogger(__name__)

RANDOM = "random"  # the label of the random (max-size) input, the baseline
VARIANTS_ENTRY = "perf_variants"
VARIANT_ENTRY = "perf_input_variant"

# Appended to the generator (inside the sandbox): every variant drawn after random.seed(seed),
# as perf_input_gen(scale) would be under run_generator's seeding.
_VARIANTS_WRAPPER = """

def __quicksilver_variants(__scale, __seed, __patterns):
    import random as __random
    if __patterns is None:
        __patterns = [None, *perf_variants()]
    __out = []
    for __p in __patterns:
        __random.seed(__seed)
        try:
            __out.append(["ok", __p, list(perf_input_variant(__scale, __p))])
        except Exception as __e:
            __out.append(["error", __p, type(__e).__name__ + ": " + str(__e)[:300]])
    return __out
"""


def searchable(code: str) -> bool:
    """Whether ``code`` is an offline perf generator that offers structured variants."""
    return f"def {VARIANTS_ENTRY}(" in code and f"def {VARIANT_ENTRY}(" in code


@dataclass
class Variant:
    """One structured variant at the search scale: its input and costs per solution."""

    label: str
    pattern: dict[str, Any] | None
    status: str = "ok"  # ok | generator-error | rejected (a solution failed on it) | duplicate
    detail: str | None = None
    input_sha256: str | None = None
    input_bytes: int | None = None
    costs: dict[str, float] = field(default_factory=dict)  # solution key -> cost (meter unit)
    ratio: float | None = None  # total cost over the solutions / the random input's
    spread: float | None = None  # the dearest solution's cost / the cheapest's on this input

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SearchResult:
    """What the worst-case search did for one generator, and the code to sample."""

    generator: int
    seed: int
    scale: int
    meter: str
    solutions: list[str]
    label: str = RANDOM  # the chosen pattern's label (RANDOM: none beat the baseline)
    pattern: dict[str, Any] | None = None
    ratio: float | None = None  # the chosen pattern's cost ratio vs random at the search scale
    min_gain: float = 1.0
    variants: list[Variant] = field(default_factory=list)
    reason: str | None = None  # why no search was possible, or why random stayed
    code: str = ""  # the generator to sample (the original with _PERF_PATTERN appended)
    fallback: str | None = None  # set by the caller when the pattern could not be sampled

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        del out["code"]
        out["variants"] = [v.to_dict() for v in self.variants]
        return out


def with_pattern(code: str, label: str, pattern: dict[str, Any], ratio: float | None) -> str:
    """``code`` whose ``perf_input_gen(scale)`` draws the structured variant ``pattern``."""
    gain = f"{ratio:.3g}x" if ratio is not None else "?"
    return (
        code.rstrip("\n")
        + "\n\n\n# Worst-case search (quicksilver/dpe/worstcase.py, no LLM): the variant "
        + f"{label!r} cost the reference solutions {gain} the random input's at the search scale.\n"
        + f"_PERF_PATTERN = {pattern!r}\n"
    )


def _draw(
    code: str,
    patterns: list[dict[str, Any] | None] | None,
    scale: int,
    seed: int,
    section: WorstCaseSection,
    memory_mb: int,
    sandbox: SandboxConfig | None,
) -> tuple[list[Variant], list[list[Any] | None], str | None]:
    """The variants' inputs, drawn in the sandbox by the generator's own code."""
    run = run_generator(
        code + _VARIANTS_WRAPPER,
        seeds=[seed],
        entry="__quicksilver_variants",
        args=(scale, seed, patterns),
        cpu_seconds=section.cpu_seconds,
        memory_mb=memory_mb,
        sandbox=sandbox,
    )
    if run.load_error is not None:
        return [], [], f"the generator did not load: {run.load_error}"
    out = run.outcomes[0]
    if not out.ok or not isinstance(out.value, list):
        return [], [], f"drawing the variants failed: {out.error or out.status}"
    variants: list[Variant] = []
    inputs: list[list[Any] | None] = []
    for item in out.value:
        status, pattern, value = item
        label = RANDOM if pattern is None else str(pattern.get("label", pattern))
        v = Variant(label=label, pattern=pattern)
        if status != "ok":
            v.status, v.detail = "generator-error", str(value)
            inputs.append(None)
        elif int64_violation(value):
            v.status, v.detail = "generator-error", int64_violation(value)
            inputs.append(None)
        else:
            v.input_sha256, v.input_bytes = canonical_sha256(value)
            inputs.append(value)
        variants.append(v)
    return variants, inputs, None


def _measure(
    variants: list[Variant],
    inputs: list[list[Any] | None],
    solutions: dict[str, str],
    target: Target,
    meter: MeterName,
    sandbox: SandboxConfig | None,
    task: str,
) -> None:
    """Each solution's cost on every distinct input, one profiler pass per solution; an input a
    solution fails on is marked ``rejected`` and measured no more."""
    from quicksilver.dpe.select import pe_profile_task
    from quicksilver.profiler import profile_solution

    first: dict[str, int] = {}
    for i, v in enumerate(variants):
        if inputs[i] is None or v.input_sha256 is None:
            continue
        if v.input_sha256 in first:
            v.status = "duplicate"
            v.detail = f"the same input as {variants[first[v.input_sha256]].label}"
            continue
        first[v.input_sha256] = i
    measure = MeasureConfig(meter=meter, min_rounds=1, max_rounds=1)
    for key, code in solutions.items():
        live = [i for i in first.values() if variants[i].status == "ok"]
        while live:
            ptask = pe_profile_task(
                f"{task}-worst-case",
                target.entry_point,
                [inputs[i] for i in live],  # type: ignore[misc]
                convert_offline=target.convert_offline,
                kind=target.kind,
            )
            res = profile_solution(ptask, code, meter=meter, sandbox=sandbox, measure=measure)
            if res.passed:
                for j, i in enumerate(live):
                    median = res.cases[j].median if j < len(res.cases) else None
                    if median is not None:
                        variants[i].costs[key] = float(median)
                break
            bad = res.failed_case
            if bad is None or not 0 <= bad < len(live):
                log.info("%s: worst-case search: solution %s failed: %s", task, key, res.error)
                break
            v = variants[live[bad]]
            v.status, v.detail = "rejected", f"solution {key}: {res.status}: {res.error}"[:300]
            live.pop(bad)
    for v in variants:  # a duplicate costs what the input it repeats costs
        if v.status == "duplicate" and v.input_sha256 in first:
            v.costs = dict(variants[first[v.input_sha256]].costs)


def _score(variants: list[Variant], base: Variant) -> None:
    for v in variants:
        if v is base or v.status not in ("ok", "duplicate"):
            continue
        # every solution measured on both: a variant one of them failed on has no ratio
        if base.costs and all(k in v.costs for k in base.costs):
            total = sum(base.costs.values())
            if total > 0:
                v.ratio = sum(v.costs[k] for k in base.costs) / total
    base.ratio = 1.0 if base.costs else None
    for v in [base, *variants]:
        if v.costs and min(v.costs.values()) > 0:
            v.spread = max(v.costs.values()) / min(v.costs.values())


def _eligible(v: Variant, base: Variant, section: WorstCaseSection) -> bool:
    """A variant that may win: measured on every solution, and (``keep_spread``) its solutions'
    costs at least as far apart as on the random input: an input on which every solution does
    the same work costs more but tells them apart less (fewer clusters)."""
    if v.pattern is None or v.ratio is None or v.status != "ok":
        return False
    if section.keep_spread and len(base.costs) > 1:
        return v.spread is not None and base.spread is not None and v.spread >= base.spread
    return True


def _target_of(pattern: dict[str, Any]) -> tuple[str, str]:
    for part in ("values", "shape", "quantities"):
        if pattern.get(part):
            return part, next(iter(pattern[part]))
    return "", ""


def _combined(
    variants: list[Variant], base: Variant, section: WorstCaseSection
) -> dict[str, Any] | None:
    """The best eligible variant of each argument or quantity that beat random by
    ``min_gain``, merged (None when fewer than two arguments have one)."""
    best: dict[tuple[str, str], Variant] = {}
    for v in variants:
        if not _eligible(v, base, section) or (v.ratio or 0.0) < section.min_gain:
            continue
        t = _target_of(v.pattern)
        if t[1] in {name for _, name in best} and t not in best:
            continue  # values and shape of one tree: keep one
        if t not in best or (best[t].ratio or 0) < v.ratio:
            best[t] = v
    if len(best) < 2:
        return None
    merged: dict[str, Any] = {"label": "+".join(v.label for v in best.values())}
    for v in best.values():
        assert v.pattern is not None
        for part in ("values", "shape", "quantities"):
            if v.pattern.get(part):
                merged.setdefault(part, {}).update(v.pattern[part])
    return merged


def _fit_scale(
    code: str,
    scale: int,
    reference: str,
    target: Target,
    section: WorstCaseSection,
    seed: int,
    memory_mb: int,
    sandbox: SandboxConfig | None,
) -> int:
    """The search scale: ``scale``, halved while the reference takes longer than
    ``section.reference_cpu_seconds`` (native CPU) on the random input, down to 16."""
    while scale > 16:
        gen = run_generator(
            code,
            seeds=[seed],
            entry="perf_input_gen",
            args=(scale,),
            cpu_seconds=section.cpu_seconds,
            memory_mb=memory_mb,
            sandbox=sandbox,
        )
        if gen.load_error is not None or not gen.outcomes[0].ok:
            return scale  # the search itself will say what is wrong
        ref = run_calls(
            reference,
            entry_point=target.entry_point,
            inputs=[list(gen.outcomes[0].value)],
            kind=target.kind,
            convert_offline=target.convert_offline,
            output_param=target.output_param,
            cpu_seconds=section.reference_cpu_seconds * 4,
            memory_mb=memory_mb,
            sandbox=sandbox,
        )
        out = ref.outcomes[0] if ref.load_error is None and ref.outcomes else None
        if out is not None and out.ok and out.cpu_seconds <= section.reference_cpu_seconds:
            return scale
        if out is not None and out.ok:  # the cost grows at least linearly: jump closer
            steps = max(1, int(math.log2(out.cpu_seconds / section.reference_cpu_seconds)))
            scale = max(16, scale >> steps)
        else:
            scale = max(16, scale // 4)
    return scale


def search_worst_case(
    code: str,
    *,
    index: int,
    solutions: dict[str, str],
    target: Target,
    section: WorstCaseSection,
    seed: int,
    memory_mb: int,
    sandbox: SandboxConfig | None = None,
    task: str = "",
) -> SearchResult:
    """The structured variant of ``code``'s input that costs ``solutions`` most (module doc).

    ``solutions``: key -> code, the reference first; at most ``section.solutions`` are used.
    Never raises for the code's sake: a problem is the result's ``reason`` (random stays).
    """
    keys = list(solutions)[: section.solutions]
    used = {k: solutions[k] for k in keys}
    scale = 2**section.scale_exp
    res = SearchResult(
        generator=index,
        seed=seed,
        scale=scale,
        meter=section.meter,
        solutions=keys,
        min_gain=section.min_gain,
        code=code,
    )
    name = task or "?"
    if not searchable(code):
        res.reason = "the generator offers no structured variants (not the offline synthesizer's)"
        return res
    scale = _fit_scale(code, scale, solutions[keys[0]], target, section, seed, memory_mb, sandbox)
    res.scale = scale
    if sandbox is not None:  # the meter's runs: a solution stuck on a variant stops early
        limits = sandbox.limits.model_copy(
            update={"cpu_seconds": min(sandbox.limits.cpu_seconds, section.solution_cpu_seconds)}
        )
        sandbox = sandbox.model_copy(update={"limits": limits})
    else:
        sandbox = SandboxConfig(limits=SandboxLimits(cpu_seconds=section.solution_cpu_seconds))
    variants, inputs, error = _draw(code, None, scale, seed, section, memory_mb, sandbox)
    if error is not None or not variants or inputs[0] is None:
        res.reason = error or "the random input could not be drawn"
        res.variants = variants
        return res
    _measure(variants, inputs, used, target, section.meter, sandbox, name)
    base = variants[0]
    _score(variants, base)
    if not base.costs:
        res.reason = "the random input could not be measured on any solution"
        res.variants = variants
        return res
    merged = _combined(variants, base, section) if section.combine else None
    if merged is not None:
        more, more_inputs, err = _draw(code, [merged], scale, seed, section, memory_mb, sandbox)
        if err is None and more and more_inputs[0] is not None:
            _measure(more, more_inputs, used, target, section.meter, sandbox, name)
            _score(more, base)
        variants += more
    res.variants = variants
    ranked = sorted(
        (v for v in variants if _eligible(v, base, section)),
        key=lambda v: (-(v.ratio or 0.0), v.label),
    )
    if ranked and (ranked[0].ratio or 0.0) >= section.min_gain:
        win = ranked[0]
        assert win.pattern is not None
        res.label, res.pattern, res.ratio = win.label, win.pattern, win.ratio
        res.code = with_pattern(code, win.label, win.pattern, win.ratio)
    else:
        top = ranked[0] if ranked else None
        res.ratio = 1.0
        res.reason = f"no variant beat the random input by {section.min_gain:g}x" + (
            f" (best: {top.label}, {top.ratio:.3g}x)" if top and top.ratio else ""
        )
    log.info(
        "%s: worst-case search (generator %d, scale %d, seed %d, %s, %d variant(s) on %d "
        "solution(s)): %s%s",
        name,
        index,
        scale,
        seed,
        section.meter,
        len(variants) - 1,
        len(keys),
        res.label,
        f" at {res.ratio:.3g}x random" if res.pattern is not None and res.ratio else "",
    )
    return res
