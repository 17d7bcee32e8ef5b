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
3. ranks the variants by what EvalPerf's selection will ask of the chosen input
   (:func:`rank_key`, ``rule: separation``): first that the fastest solution costs more than
   selection's floor (an input on which the best solution does next to nothing makes the task
   "too cheap": a rotation by a multiple of the length, an invalid tree that a check leaves at
   the root), then the number of performance clusters the costed solutions form on it (the same
   adaptive clustering), then a cost gain of at least ``min_gain`` over the random input that
   does not narrow the solutions' spread. The figures are taken at the search scale, on up to
   ``solutions`` valid solutions. ``rule: cost`` ranks by the solutions' total cost alone (the
   first version: on the bundled corpus it raised the chosen inputs' cost but not the tasks
   selected or the clusters, docs/performance.md). With ``combine``, the best variant of each
   argument that beat random are merged into one pattern and measured too;
4. keeps the best pattern if it beats the random input on that ranking; the generator to sample
   is then the original code with ``_PERF_PATTERN = <pattern>`` appended, and the usual doubling
   scales it up. Otherwise the random generator is sampled as before.

Everything the search did (seed, scale, meter, each variant's costs and ratio, the winner) is in
:class:`SearchResult` and goes into the sampling record and the published row.
"""

from __future__ import annotations

import logging
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from quicksilver.clustering import W_INSTRUCTIONS, adaptive_clusters
from quicksilver.config import (
    MeasureConfig,
    MeterName,
    SandboxConfig,
    SandboxLimits,
    SelectionSection,
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
    cheapest: float | None = None  # the cheapest solution's cost on this input
    clusters: int | None = None  # the selection's adaptive clusters of the costs (separation)

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
    why: str | None = None  # why the chosen pattern won (rank_key's deciding step, its numbers)
    rule: str = "separation"  # separation | cost (WorstCaseSection.rule)
    code: str = ""  # the generator to sample (the original with _PERF_PATTERN appended)
    fallback: str | None = None  # set by the caller when the pattern could not be sampled

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        del out["code"]
        out["variants"] = [v.to_dict() for v in self.variants]
        return out


def _figures(v: Variant, prefix: str = ",") -> str:
    if v.clusters is None:
        return ""
    return f"{prefix} {v.clusters} cluster(s), fastest {v.cheapest:.3g}"


def _why(v: Variant, base: Variant, section: WorstCaseSection, sep: Separation | None) -> str:
    """Which of :func:`rank_key`'s steps the winner won on, with its numbers."""
    mine, theirs = rank_key(v, base, section, sep), rank_key(base, base, section, sep)
    if sep is not None and mine[0] != theirs[0]:
        return (
            f"its fastest solution costs {v.cheapest:.3g} (random: {base.cheapest:.3g}; "
            f"selection's floor {sep.min_cost:.3g})"
        )
    if sep is not None and mine[1] != theirs[1]:
        return f"{v.clusters} clusters against random's {base.clusters}"
    return f"{v.ratio:.3g}x the random input's cost" + (
        f" with as many clusters ({v.clusters})" if v.clusters is not None else ""
    )


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
    from quicksilver.dpe.select import pe_cost_task
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
            ptask = pe_cost_task(
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


@dataclass(frozen=True)
class Separation:
    """The DPE selection's own figures, in the search meter's unit, applied at the search scale:
    the clustering (``w``, ``bias``) and the floor the fastest solution must exceed
    (``min_cost``). With them the search ranks variants by what selection will ask of the
    chosen input (:func:`rank_key`), not by cost alone."""

    w: float
    bias: float
    min_cost: float


def separation_for(
    selection: SelectionSection, meter: MeterName, instruction_rate: float | None = None
) -> Separation | None:
    """Selection's figures in ``meter``'s unit (a time meter needs the instruction rate: the
    section's, else ``instruction_rate``, measured on this machine by the caller; None without
    one, and the search ranks by cost)."""
    from quicksilver.clustering import w_for_unit

    unit = "instructions" if meter in ("icount", "instructions") else "s"
    rate = selection.instruction_rate or instruction_rate
    if unit == "s" and rate is None:
        log.warning(
            "worst-case search: no instruction rate for the %s meter; ranking by cost", meter
        )
        return None
    w = w_for_unit(unit, instruction_rate=rate)
    return Separation(
        w=w, bias=selection.bias, min_cost=selection.min_cost_instructions * w / W_INSTRUCTIONS
    )


def _score(variants: list[Variant], base: Variant, separation: Separation | None = None) -> None:
    """Each variant's figures against the random input ``base``: the ratio of the solutions'
    total costs and (with ``separation``) the cheapest cost and the clusters, only for a variant
    measured on every solution ``base`` was; the spread for any measured variant."""
    total = sum(base.costs.values())
    base.ratio = 1.0 if base.costs else None
    for v in [base, *variants]:
        if v.costs and min(v.costs.values()) > 0:
            v.spread = max(v.costs.values()) / min(v.costs.values())
        if not base.costs or v.status not in ("ok", "duplicate"):
            continue
        if not all(k in v.costs for k in base.costs):
            continue  # a variant one of them failed on has no ratio
        costs = [v.costs[k] for k in base.costs]
        if v is not base and total > 0:
            v.ratio = sum(costs) / total
        if separation is not None:
            v.cheapest = min(costs)
            if v.cheapest > 0:
                clustering = adaptive_clusters(costs, w=separation.w, bias=separation.bias)
                v.clusters = len(clustering.clusters)


def rank_key(
    v: Variant, base: Variant, section: WorstCaseSection, separation: Separation | None
) -> tuple[Any, ...]:
    """How well ``v`` serves selection; higher is better, and a variant replaces the random
    input only when its key is higher than the random input's (:func:`beats`).

    With ``separation`` (``rule: separation``), in order:

    1. the fastest solution costs more than selection's floor (a task whose fastest solution
       does next to nothing is dropped as too cheap, whatever else the input does);
    2. more performance clusters among the costed solutions (selection keeps a task with enough
       of them, and DPS is finer with more);
    3. a cost gain of at least ``min_gain`` over random, without narrowing the solutions'
       spread (``keep_spread``): among inputs that separate equally, the dearer;
    4. the gain itself (orders the variants; never decides against random).

    Without it (``rule: cost``) only 3 and 4: the total cost, as before.
    """
    ratio = v.ratio or 0.0
    gain = ratio >= section.min_gain and v is not base
    if gain and section.keep_spread and len(base.costs) > 1:
        gain = v.spread is not None and base.spread is not None and v.spread >= base.spread
    if separation is None:
        return (gain, ratio)
    cheap_ok = v.cheapest is not None and v.cheapest > separation.min_cost
    return (cheap_ok, v.clusters or 0, gain, ratio)


def beats(v: Variant, base: Variant, section: WorstCaseSection, sep: Separation | None) -> bool:
    """Whether ``v`` should replace the random input (its key is higher, the gain aside)."""
    return rank_key(v, base, section, sep)[:-1] > rank_key(base, base, section, sep)[:-1]


def _eligible(v: Variant) -> bool:
    """A variant that may win: a pattern measured on every solution the random input was."""
    return v.pattern is not None and v.ratio is not None and v.status == "ok"


def _target_of(pattern: dict[str, Any]) -> tuple[str, str]:
    for part in ("values", "shape", "quantities"):
        if pattern.get(part):
            return part, next(iter(pattern[part]))
    return "", ""


def _combined(
    variants: list[Variant], base: Variant, section: WorstCaseSection, sep: Separation | None
) -> dict[str, Any] | None:
    """The best eligible variant of each argument or quantity that beat random
    (:func:`beats`), merged (None when fewer than two arguments have one)."""
    best: dict[tuple[str, str], Variant] = {}
    for v in variants:
        if not _eligible(v) or not beats(v, base, section, sep):
            continue
        assert v.pattern is not None
        t = _target_of(v.pattern)
        if t[1] in {name for _, name in best} and t not in best:
            continue  # values and shape of one tree: keep one
        if t not in best or rank_key(best[t], base, section, sep) < rank_key(v, base, section, sep):
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
    separation: Separation | None = None,
) -> SearchResult:
    """The structured variant of ``code``'s input that serves selection best (module doc).

    ``solutions``: key -> code, the reference first; at most ``section.solutions`` are used.
    ``separation``: selection's figures in the search meter's unit, for ``rule: separation``
    (None, or ``rule: cost``: the dearest variant).
    Never raises for the code's sake: a problem is the result's ``reason`` (random stays).
    """
    if section.rule == "cost":
        separation = None
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
        rule=section.rule if separation is not None else "cost",
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
    _score(variants, base, separation)
    if not base.costs:
        res.reason = "the random input could not be measured on any solution"
        res.variants = variants
        return res
    merged = _combined(variants, base, section, separation) if section.combine else None
    if merged is not None:
        more, more_inputs, err = _draw(code, [merged], scale, seed, section, memory_mb, sandbox)
        if err is None and more and more_inputs[0] is not None:
            _measure(more, more_inputs, used, target, section.meter, sandbox, name)
            _score(more, base, separation)
        variants += more
    res.variants = variants
    ranked = sorted(
        (v for v in variants if _eligible(v)),
        key=lambda v: rank_key(v, base, section, separation),
        reverse=True,
    )
    if ranked and beats(ranked[0], base, section, separation):
        win = ranked[0]
        assert win.pattern is not None
        res.label, res.pattern, res.ratio = win.label, win.pattern, win.ratio
        res.code = with_pattern(code, win.label, win.pattern, win.ratio)
        res.why = _why(win, base, section, separation)
    else:
        top = ranked[0] if ranked else None
        res.ratio = 1.0
        res.reason = (
            "no variant served selection better than the random input"
            + (
                f" (best: {top.label}, {top.ratio:.3g}x{_figures(top)})"
                if top and top.ratio
                else ""
            )
            + _figures(base, " random:")
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
