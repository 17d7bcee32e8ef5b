"""The build's one typed configuration (configs/*.yaml), validated into :class:`BuildConfig`.

Every limit, threshold, size and seed a build uses lives here with its default and unit; the
published card records the values used. A bad value is a :class:`ConfigError` naming the file and
the key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from quicksilver.config import MeasureConfig, SandboxConfig, SandboxLimits


class ConfigError(ValueError):
    """A configuration file that cannot be used, with the file and the key named."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DedupSection(_Strict):
    threshold: float = Field(0.95, gt=0, lt=1, description="Jaccard similarity of near-duplicates")
    num_perm: int = Field(128, ge=16, le=1024, description="MinHash permutations")
    ngram: int = Field(5, ge=1, le=20, description="token shingle size")
    fp_weight: float = Field(0.5, ge=0, le=1, description="false-positive weight for bands x rows")
    fn_weight: float = Field(0.5, ge=0, le=1, description="false-negative weight for bands x rows")
    seed: int = Field(1, description="MinHash permutation seed")
    canonical: bool = Field(True, description="tokenise parsed code (no comments, docstrings)")
    rename_locals: bool = Field(True, description="local names to placeholders before shingling")
    near_duplicates: Literal["after-answers", "before-tests"] = Field(
        "after-answers",
        description="after-answers: near-duplicates are kept through the test cases and removed "
        "by the uniqueness stage, only among solutions that pass (no two solutions whose "
        "answers differ are merged); before-tests: removed here, the first listed kept",
    )


class FilterSection(_Strict):
    min_solutions: int = Field(2, ge=1, description="fewest solutions a task may keep")


class SynthesisSection(_Strict):
    mode: Literal["offline", "llm", "auto"] = Field(
        "offline",
        description="offline: constraint-driven synthesizer; llm: the endpoint; auto: offline, "
        "then the LLM for tasks the offline synthesizer reports (when an endpoint is configured)",
    )
    size_cap: int = Field(1000, ge=1, description="largest collection size a generator draws")
    llm: dict[str, Any] = Field(
        default_factory=dict, description="LLMConfig fields (see docs/llm-generators.md)"
    )
    cache_dir: Path = Field(Path("data/cache/llm"), description="LLM answers, keyed by request")


class CasesSection(_Strict):
    n: int = Field(32, ge=1, description="generated inputs per task (plus the examples)")
    seed: int = Field(20_260_501, description="base seed; each task's seed derives from it")
    include_examples: bool = Field(True, description="add the statement's example inputs")
    include_edge_cases: bool = Field(
        True,
        description="add the generator's generate_edge_cases() when it defines one (the offline "
        "synthesizer's do: smallest sizes, one above them, values at either end of their range)",
    )
    generator_cpu_seconds: float = Field(10.0, gt=0, description="per generated input")
    solution_cpu_seconds: float = Field(
        10.0, gt=0, description="per solution call, at most (the ceiling of the per-call limit)"
    )
    call_floor_seconds: float = Field(
        1.0,
        gt=0,
        description="per-call CPU limit, at least (capped at solution_cpu_seconds); every "
        "solution first runs with this limit",
    )
    call_limit_factor: float = Field(
        10.0,
        ge=1,
        description="per-call CPU limit of an input: this x the median solution's time on it, "
        "between call_floor_seconds and solution_cpu_seconds (as online judges scale limits)",
    )
    max_timeout_share: float = Field(
        0.25,
        ge=0,
        le=1,
        description="a solution that timed out (or ran out of memory) on more than this share "
        "of the inputs is stopped at once and dropped as too slow",
    )
    peers_finish_share: float = Field(
        0.5,
        gt=0,
        le=1,
        description="a solution that does not finish an input which at least this share of the "
        "solutions (and two or more) finish is dropped as slower-than-peers; an input fewer "
        "finish is discarded instead",
    )
    min_cases: int = Field(8, ge=1, description="a task with fewer usable inputs is dropped")
    memory_mb: int = Field(2048, ge=64, description="memory for generators and solutions")

    @property
    def call_floor(self) -> float:
        """The floor in force: never above the ceiling (``solution_cpu_seconds``)."""
        return min(self.call_floor_seconds, self.solution_cpu_seconds)


class UniquenessSection(_Strict):
    double_rel_tol: float = Field(
        1e-5, ge=0, description="answers of type double agree within this relative tolerance"
    )
    plurality_margin: float = Field(
        2.0,
        ge=1,
        description="without a strict majority, the leading answer on an input wins when it has "
        "at least this many times the support of the next answer",
    )
    plurality_min_support: int = Field(
        2, ge=1, description="... and at least this many solutions give it"
    )


class ProfileSection(_Strict):
    measure: MeasureConfig = MeasureConfig(
        min_rounds=3,
        max_rounds=12,
        target_rel_ci=0.05,
        budget_seconds=10.0,
        split_above_seconds=5.0,
    )  # rounds apply to the cpu / instructions meters; icount (the default) needs one pass
    sandbox: SandboxConfig = SandboxConfig(limits=SandboxLimits(cpu_seconds=120.0))
    remeasure_flagged: int = Field(
        0,
        ge=0,
        description="profiles flagged as not converged (budget, max-rounds) are measured again "
        "this many times, with twice the budget each time; the last measurement is kept",
    )


class SplitSection(_Strict):
    eval_size: int = Field(256, ge=0, description="Mercury's eval split had 256 tasks")
    seed: int = Field(0, description="seed of the eval selection")


class RunnerSection(_Strict):
    kind: Literal["thread", "process", "dask", "ray"] = Field(
        "thread", description="Prefect task runner for the sharded stages"
    )
    workers: int | None = Field(None, ge=1, description="parallel shards (default: cores)")
    shard_size: int = Field(4, ge=1, description="tasks per shard of the expensive stages")
    address: str | None = Field(None, description="dask scheduler / ray cluster address")


class BuildConfig(_Strict):
    name: str = Field("quicksilver-mercury", description="dataset name (card, default repo)")
    snapshots: list[Path] = Field(
        default_factory=lambda: [Path("data/snapshot/bundled")],
        min_length=1,
        description="snapshot folders to build from",
    )
    only: list[str] | None = Field(None, description="build only these task slugs")
    out_dir: Path = Path("data/build/mercury")
    dedup: DedupSection = DedupSection()
    filters: FilterSection = FilterSection()
    synthesis: SynthesisSection = SynthesisSection()
    testcases: CasesSection = CasesSection()
    uniqueness: UniquenessSection = UniquenessSection()
    profile: ProfileSection = ProfileSection()
    splits: SplitSection = SplitSection()
    runner: RunnerSection = RunnerSection()

    @model_validator(mode="after")
    def _paths(self) -> BuildConfig:
        if len(set(self.snapshots)) != len(self.snapshots):
            raise ValueError("snapshots lists a folder twice")
        return self

    def resolve(self, base: Path) -> BuildConfig:
        """Relative paths resolved against ``base`` (the repository root)."""

        def fix(p: Path) -> Path:
            return p if p.is_absolute() else (base / p)

        synth = self.synthesis.model_copy(update={"cache_dir": fix(self.synthesis.cache_dir)})
        return self.model_copy(
            update={
                "snapshots": [fix(p) for p in self.snapshots],
                "out_dir": fix(self.out_dir),
                "synthesis": synth,
            }
        )

    def digest_view(self) -> dict[str, Any]:
        """The settings as plain data (recorded in the card and in cache keys)."""
        return self.model_dump(mode="json")


# --- the DPE / EvalPerf build (flows/build_dpe.py, docs/dpe-build.md) -------------------------


class SampleFile(_Strict):
    path: Path = Field(description="a samples file (JSONL or Mercury JSON)")
    model: str = Field(min_length=1, description="the model that wrote the samples (recorded)")


class CandidatesSection(_Strict):
    """Solutions beyond the snapshots': an LLM's samples and model sample files."""

    llm: dict[str, Any] = Field(
        default_factory=dict,
        description="LLMConfig fields for sampling solutions; unset endpoint: none are sampled",
    )
    n: int = Field(8, ge=0, description="solutions sampled per task when an endpoint is set")
    temperature: float = Field(0.8, ge=0, le=2, description="the paper sampled at 0.8")
    sample_files: list[SampleFile] = Field(
        default_factory=list,
        description="model sample files [{path, model}] (JSONL / Mercury JSON, see samples.py)",
    )
    cache_dir: Path = Field(Path("data/cache/llm"), description="LLM answers, keyed by request")


class SaSSection(_Strict):
    mode: Literal["offline", "llm", "auto"] = Field(
        "auto",
        description="offline: the constraint-driven perf synthesizer; llm: the endpoint only; "
        "auto: the endpoint when configured, else offline",
    )
    n: int = Field(16, ge=1, description="generators sampled per task (the paper's 16)")
    temperature: float = Field(0.8, ge=0, le=2)
    llm: dict[str, Any] = Field(default_factory=dict, description="LLMConfig fields")
    cache_dir: Path = Field(Path("data/cache/llm"), description="LLM answers, keyed by request")


class SamplingSection(_Strict):
    """Exponential input sampling and the choice of the performance-exercising input."""

    time_wall_seconds: float = Field(20.0, gt=0, description="CPU per step (generator, reference)")
    memory_mb: int = Field(16_384, ge=64, description="memory wall (the sandbox's RLIMIT_AS)")
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


class DPEBuildConfig(BuildConfig):
    """A DPE build: the Mercury build's correctness stages plus the DPE sections."""

    name: str = Field("quicksilver-dpe", description="dataset name (card, default repo)")
    out_dir: Path = Path("data/build/dpe")
    candidates: CandidatesSection = CandidatesSection()
    sas: SaSSection = SaSSection()
    sampling: SamplingSection = SamplingSection()
    pe_profile: PEProfileSection = PEProfileSection()
    selection: SelectionSection = SelectionSection()
    card_notes: list[str] = Field(
        default_factory=list, description="sentences the dataset card must carry (deviations)"
    )


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:8]:
        loc = ".".join(str(p) for p in err["loc"]) or "(top level)"
        parts.append(f"{loc}: {err['msg']}")
    return "; ".join(parts)


def _set_path(data: dict[str, Any], dotted: str, value: Any) -> None:
    keys = dotted.split(".")
    cur = data
    for k in keys[:-1]:
        nxt = cur.setdefault(k, {})
        if not isinstance(nxt, dict):
            raise ConfigError(f"override {dotted}: {k} is not a section")
        cur = nxt
    cur[keys[-1]] = value


_C = TypeVar("_C", bound=BuildConfig)


def load_build_config(
    path: str | Path | None = None,
    overrides: list[str] | None = None,
    cls: type[_C] = BuildConfig,  # type: ignore[assignment]
) -> _C:
    """Read and validate a YAML config; ``overrides`` are ``dotted.key=yaml-value`` strings."""
    data: dict[str, Any] = {}
    where = str(path) if path else "<defaults>"
    if path is not None:
        try:
            loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"{where}: cannot read: {exc}") from exc
        except yaml.YAMLError as exc:
            raise ConfigError(f"{where}: not valid YAML: {exc}") from exc
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"{where}: the top level must be a mapping")
        data = loaded
    for item in overrides or []:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"override {item!r}: expected dotted.key=value")
        _set_path(data, key.strip(), yaml.safe_load(raw))
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"{where}: {_describe(exc)}") from exc
