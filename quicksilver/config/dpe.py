"""The DPE / EvalPerf build's own sections and its config (flows/build_dpe.py,
docs/dpe-build.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import (
    Field,
    model_validator,
)

from quicksilver.config.endpoint import LLMConfig, _WithLLM
from quicksilver.config.measure import (
    MeasureConfig,
    MeterName,
    SandboxConfig,
    SandboxLimits,
    _Strict,
)
from quicksilver.config.sections import (
    BuildConfigBase,
    CasesSection,
    DedupSection,
    FilterSection,
    RetrySection,
    RunnerSection,
    SynthesisSection,
    UniquenessSection,
)


class SampleFile(_Strict):
    path: Path = Field(description="a samples file (JSONL or Mercury JSON)")
    model: str = Field(min_length=1, description="the model that wrote the samples (recorded)")


class CandidatesSection(_WithLLM):
    """Solutions beyond the snapshots': an LLM's samples and model sample files."""

    llm: LLMConfig = Field(
        default_factory=lambda: LLMConfig(),
        description="the endpoint for sampling solutions; unset endpoint: none are sampled",
    )
    n: int = Field(8, ge=0, description="solutions sampled per task when an endpoint is set")
    temperature: float = Field(0.8, ge=0, le=2, description="the paper sampled at 0.8")
    sample_files: list[SampleFile] = Field(
        default_factory=list,
        description="model sample files [{path, model}] (JSONL / Mercury JSON, see samples.py)",
    )
    max_tokens: int = Field(2048, ge=1, description="the longest answer asked for, in tokens")
    prompt_template: str = Field(
        "dpe_solution.j2", min_length=1, description="the template in prompts/ (its prompts_dir)"
    )
    cache_dir: Path = Field(Path("data/cache/llm"), description="LLM answers, keyed by request")


class SaSSection(_WithLLM):
    """Synthesizing a Synthesizer: how each task's scale-controllable input generator is made
    (docs/sas.md). The endpoint's own ``n``, ``temperature`` and ``prompt_template`` are Mercury's
    generator settings; SaS uses this section's."""

    mode: Literal["offline", "llm", "auto"] = Field(
        "auto",
        description="offline: the constraint-driven perf synthesizer; llm: the endpoint only; "
        "auto: the endpoint when configured, else offline",
    )
    n: int = Field(16, ge=1, description="generators sampled per task (the paper's 16)")
    temperature: float = Field(0.8, ge=0, le=2, description="the paper's sampling temperature")
    llm: LLMConfig = Field(default_factory=lambda: LLMConfig(), description="the endpoint")
    max_tokens: int = Field(2048, ge=1, description="the longest answer asked for, in tokens")
    prompt_template: str = Field(
        "sas.j2", min_length=1, description="the template in prompts/ (its prompts_dir)"
    )
    cache_dir: Path = Field(Path("data/cache/llm"), description="LLM answers, keyed by request")


class WorstCaseSection(_Strict):
    """The offline worst-case input search before exponential sampling (docs/sas.md): structured
    variants of the offline generator's input at a small scale, costed on the reference
    solutions, the dearest scaled up by the doubling. Applies to offline generators only (an LLM
    generator's author already aimed at the worst case)."""

    enabled: bool = Field(
        True,
        description="search structured variants before sampling: on the bundled corpus it "
        "selected 33 tasks against max-size random's 27, with more clusters on the tasks both "
        "selected (docs/performance.md, bench/worstcase.py)",
    )
    scale_exp: int = Field(
        11, ge=1, le=20, description="the variants are drawn and costed at scale 2**scale_exp"
    )
    solutions: int = Field(
        8, ge=1, description="valid solutions (the reference first) the variants are costed on"
    )
    rule: Literal["separation", "cost"] = Field(
        "separation",
        description="separation: rank variants by selection's own figures at the search scale "
        "(the fastest solution above the too-cheap floor, then more clusters, then a cost gain); "
        "cost: by the solutions' total cost alone",
    )
    meter: MeterName = Field(
        "icount", description="the meter the variants are costed with (icount: exact counts)"
    )
    min_gain: float = Field(
        1.2,
        ge=1.0,
        description="a cost gain counts when a variant costs the solutions at least this many "
        "times the random input's total (with rule: separation, only between variants that "
        "separate the solutions equally well)",
    )
    combine: bool = Field(
        True, description="also try the best variant of each argument together, in one input"
    )
    keep_spread: bool = Field(
        True,
        description="a variant wins only if the costed solutions' slowest / fastest cost ratio "
        "on it is at least the random input's: an input on which every solution does the same "
        "work costs more but separates them less (fewer clusters)",
    )
    cpu_seconds: float = Field(
        20.0, gt=0, description="CPU limit for drawing all the variants in the sandbox"
    )
    reference_cpu_seconds: float = Field(
        0.05,
        gt=0,
        description="the search scale is halved while the reference takes longer than this "
        "(native CPU) on the random input: a cubic solution is costed at a smaller scale",
    )
    solution_cpu_seconds: float = Field(
        2.0,
        gt=0,
        description="native CPU limit for one solution on all the variants (the meter's run "
        "is scaled from it); a variant a solution does not finish is left out",
    )


class SamplingSection(_Strict):
    """Exponential input sampling and the choice of the performance-exercising input."""

    time_wall_seconds: float = Field(20.0, gt=0, description="CPU per step (generator, reference)")
    memory_mb: int = Field(
        16_384,
        ge=64,
        description="memory wall: the reference's peak memory during its call, measured by the "
        "host (docs/profiler.md, Memory); generators keep it as their RLIMIT_AS",
    )
    address_space_mb: int | None = Field(
        None,
        ge=64,
        description="the reference's address-space limit (RLIMIT_AS), a backstop behind the "
        "measured wall; default twice memory_mb",
    )
    min_scale_exp: int = Field(1, ge=0, le=62, description="first scale is 2**min_scale_exp")
    max_scale_exp: int = Field(26, ge=0, le=62, description="last scale is 2**max_scale_exp")
    max_input_bytes: int = Field(64 * 2**20, ge=1, description="JSON size of one input, at most")
    seed: int = Field(20_260_501, description="random.seed before every generator call")
    finish_cpu_seconds: float = Field(
        20.0, gt=0, description="every valid solution must finish the chosen input within this"
    )
    max_candidates: int | None = Field(
        None, ge=1, description="candidate inputs tried, most expensive first (None: all)"
    )
    count_near_limit: bool = Field(
        True,
        description="a solution whose CPU time on a candidate is within 3x of finish_cpu_seconds "
        "is decided by its instruction count (icount) against finish_cpu_seconds x this machine's "
        "measured instruction rate, so that rebuilds choose the same input",
    )
    worst_case: WorstCaseSection = WorstCaseSection()

    @property
    def reference_address_space_mb(self) -> int:
        """Address space is not memory: CPython and glibc reserve more than they touch, so the
        backstop sits above the measured wall, which is what stops the doubling."""
        return self.address_space_mb or 2 * self.memory_mb

    @model_validator(mode="after")
    def _exps(self) -> SamplingSection:
        if self.min_scale_exp > self.max_scale_exp:
            raise ValueError("min_scale_exp > max_scale_exp")
        return self


class PEProfileSection(_Strict):
    """Profiling every valid solution on the performance-exercising input."""

    measure: MeasureConfig = MeasureConfig(
        min_rounds=7,
        max_rounds=12,
        target_rel_ci=0.02,
        budget_seconds=20.0,
        split_above_seconds=5.0,
    )  # rounds apply to the cpu / instructions meters; icount (the default) needs one pass
    warmup_rounds: int = Field(
        0,
        ge=0,
        description="first rounds not counted (every pass runs in a fresh process from the same "
        "state, so none is needed; kept for comparisons with in-process loops)",
    )
    sandbox: SandboxConfig = SandboxConfig(limits=SandboxLimits(cpu_seconds=120.0))


class SelectionSection(_Strict):
    """EvalPerf's task selection and clustering (thresholds in the meter's unit or instructions)."""

    min_solutions: int = Field(10, ge=1, description="profiled solutions a task needs (paper: 10)")
    min_cost_instructions: float = Field(
        10_000.0, ge=0, description="the fastest solution must cost more than this"
    )
    max_p99_cv: float = Field(
        0.05, gt=0, description="P99 over solutions of the coefficient of variation, at most"
    )
    cv_estimator: Literal["robust", "classic"] = Field(
        "robust",
        description="robust: 1.4826 * MAD / median over rounds; classic: stdev / mean",
    )
    min_clusters: int = Field(4, ge=1, description="performance clusters a task needs")
    bias: float = Field(0.2, ge=0, description="the clustering's bias (one setting everywhere)")
    instruction_rate: float | None = Field(
        None,
        gt=0,
        description="instructions per CPU second: converts w and min_cost to CPU time for the "
        "cpu meter; None: measured on this machine against icount (quicksilver.calibration)",
    )


_NOT_IN_DPE = {
    "profile": "the DPE build has no profile stage; the sandbox its correctness stages run "
    "code in is the section sandbox (it was profile.sandbox), and its profiling is pe_profile",
    "splits": "the DPE build has no splits stage (its dataset is one split, test)",
}


class DPEBuildConfig(BuildConfigBase):
    """The DPE / EvalPerf build: the Mercury build's correctness stages (dedup .. uniqueness, in
    ``sandbox``) plus its own (flows/build_dpe.py, docs/dpe-build.md)."""

    name: str = Field("quicksilver-dpe", description="dataset name (card, default repo)")
    out_dir: Path = Path("data/build/dpe")
    dedup: DedupSection = DedupSection()
    filters: FilterSection = FilterSection()
    synthesis: SynthesisSection = SynthesisSection()
    testcases: CasesSection = CasesSection()
    uniqueness: UniquenessSection = UniquenessSection()
    sandbox: SandboxConfig = Field(
        SandboxConfig(limits=SandboxLimits(cpu_seconds=120.0)),
        description="the sandbox the correctness stages (generators, testcases, uniqueness "
        "checkers) run code in",
    )
    runner: RunnerSection = RunnerSection()
    retries: RetrySection = RetrySection()
    candidates: CandidatesSection = CandidatesSection()
    sas: SaSSection = SaSSection()
    sampling: SamplingSection = SamplingSection()
    pe_profile: PEProfileSection = PEProfileSection()
    selection: SelectionSection = SelectionSection()
    card_notes: list[str] = Field(
        default_factory=list, description="sentences the dataset card must carry (deviations)"
    )

    @model_validator(mode="before")
    @classmethod
    def _old_sections(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key, why in _NOT_IN_DPE.items():
                if key in data:
                    raise ValueError(f"{key}: {why}")
        return data
