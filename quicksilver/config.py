"""The one typed configuration: the sandbox, the meters, and the builds (configs/*.yaml).

Every limit, threshold, size and seed lives here with its default and unit, so that runs record
the numbers they used and nothing is a magic number inline. Values come from YAML (configs/*.yaml),
the CLI, or code, and are validated on construction: a bad value is a clear error (a
:class:`ConfigError` naming the file and the key, for a build config).

A build's config has only the sections its stages read: :class:`BuildConfig` for the Mercury build,
:class:`DPEBuildConfig` for the DPE build (quicksilver/builds.py lists their stages, and a test
checks that each section is read by some stage of its build).
"""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path
from typing import Any, Literal, Self, TypeVar

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_serializer,
    model_validator,
)

MeterName = Literal["icount", "cpu", "instructions"]


BASE_URL_ENV = ("QUICKSILVER_LLM_BASE_URL", "OPENAI_BASE_URL")
MODEL_ENV = "QUICKSILVER_LLM_MODEL"
NOT_CONFIGURED = (
    "no LLM endpoint configured (set QUICKSILVER_LLM_BASE_URL or OPENAI_BASE_URL, and "
    "QUICKSILVER_LLM_MODEL, or synthesis.llm.base_url and synthesis.llm.model in the config)"
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SandboxLimits(_Strict):
    """Resource limits for one sandboxed solution process."""

    memory_mb: int = Field(2048, ge=16, description="address-space limit (RLIMIT_AS)")
    cpu_seconds: float = Field(
        30.0, gt=0, description="CPU time for one pass over all test cases (the verdict run)"
    )
    wall_seconds: float | None = Field(
        None, gt=0, description="wall time for one pass; default 2 x cpu_seconds + 5"
    )
    processes: int = Field(
        1, ge=1, description="RLIMIT_NPROC for the sandbox user; 1 forbids fork and threads"
    )
    file_size_mb: int = Field(16, ge=0, description="largest file the solution may write")
    open_files: int = Field(64, ge=16, description="RLIMIT_NOFILE")
    output_bytes: int = Field(
        64 * 1024, ge=0, description="stdout/stderr kept per solution; the rest is counted"
    )
    output_kill_bytes: int | None = Field(
        16 * 1024 * 1024,
        ge=0,
        description="the solution is killed (status error, 'output limit') once it has written "
        "more than this to stdout and stderr together, kept or not; None: never",
    )
    recursion_limit: int | None = Field(
        None, ge=100, description="sys.setrecursionlimit in the sandbox; None keeps Python's"
    )

    @property
    def wall(self) -> float:
        return self.wall_seconds if self.wall_seconds is not None else 2 * self.cpu_seconds + 5


class SandboxConfig(_Strict):
    """How solutions are isolated."""

    isolation: Literal["auto", "bwrap", "weak"] = Field(
        "auto", description="auto uses bubblewrap and refuses to run without it unless allow_weak"
    )
    allow_weak: bool = Field(
        False, description="permit the weak mode (rlimits and a scrubbed env, no namespaces)"
    )
    sandbox_uid: int = Field(
        61_234, ge=1, description="unprivileged uid/gid the solution runs as when started by root"
    )
    limits: SandboxLimits = SandboxLimits()


class MeasureConfig(_Strict):
    """How cost is measured (see docs/profiler.md).

    Every pass over a task's cases runs in a fresh child of the task's zygote, so passes share no
    state. A deterministic meter (``icount``) needs one pass; the others repeat passes (rounds),
    interleaved over the solutions of a task, until the estimate is tight enough (the
    ``fastest_k`` fastest passes agree within ``target_rel_ci``, or the median's CI95 is that
    narrow), or ``max_rounds``, or the CPU budget.
    """

    meter: MeterName = Field(
        "icount", description="icount (deterministic, default) | cpu (seconds) | instructions"
    )
    estimator: Literal["fastest", "median"] = Field(
        "fastest",
        description="a time meter's cost from its passes: fastest = the mean of the "
        "`fastest_k` fastest passes, once they agree (interference only adds time); median = the "
        "median with its CI95 (stats.py)",
    )
    fastest_k: int = Field(3, ge=1, description="estimator fastest: passes that must agree")
    min_rounds: int = Field(8, ge=1, description="passes per solution before stopping early")
    max_rounds: int = Field(64, ge=1, description="passes per solution at most")
    target_rel_ci: float = Field(
        0.02,
        gt=0,
        description="stop when the half-width of the fastest passes' band (estimator fastest) "
        "or of the median's CI95 (median) <= this share of the estimate",
    )
    budget_seconds: float = Field(
        20.0,
        gt=0,
        description="CPU spent on repeated passes of one solution beyond min_rounds, at most",
    )
    charge_tolerance: float = Field(
        1.5,
        ge=1,
        description="cpu meter: a serialisation may cost this many times its calibration (the "
        "cheapest of 3 trusted serialisations of the same values)",
    )
    charge_slack_ms: float = Field(
        0.1, ge=0, description="cpu meter: ...plus this much, before the excess is charged"
    )
    idle_slack_ms: float = Field(
        0.1, ge=0, description="cpu meter: CPU a blocked harness may use between two commands"
    )
    modes_ratio: float = Field(
        3.0,
        gt=1,
        description="time meter: a profile whose median pass costs more than this many times its "
        "fastest pass is split into modes (a cheap path in some passes only): flagged `modes` "
        "and scored by its median pass. The machine alone spreads honest passes by up to ~1.9x "
        '(docs/profiler.md, "The mode check")',
    )
    modes_peer_factor: float | None = Field(
        2.0,
        gt=1,
        description="time meter: ...or more than this many times the median spread of the task's "
        "other solutions, measured in the same rounds, when that is lower (honest solutions: up "
        "to ~1.4x their peers'); None: `modes_ratio` only",
    )
    modes_floor_ms: float = Field(
        0.3,
        ge=0,
        description="time meter: ...and only when the median pass is more than this above the "
        "fastest (a sub-millisecond solution's passes spread by the noise of the empty calls "
        "subtracted from them)",
    )
    workers: int | None = Field(
        None, ge=1, description="tasks profiled in parallel; default one per core"
    )
    native_first: bool = Field(
        False,
        description="icount: judge each solution natively first (same sandbox, same CPU limit, "
        "no emulator); one that fails there gets that verdict without being counted, in native "
        "time instead of up to slowdown x the limit under the emulator. The counted pass is "
        "judged again and may take at most native_margin x its native CPU time (docs/profiler.md, "
        "'Native first'). On for `quicksilver score` and `quicksilver run` (samples nobody has "
        "run yet); off in the builds, whose solutions the testcases stage has run natively",
    )
    native_margin: float = Field(
        4.0,
        ge=1,
        description="icount with native_first: the counted pass's CPU limit is this many times "
        "the native pass's CPU, in native seconds (the emulator's own slowdown is on top), at "
        "least native_floor_seconds and at most the sandbox's limit",
    )
    native_floor_seconds: float = Field(
        1.0, gt=0, description="icount with native_first: the counted pass's CPU limit, at least"
    )
    split_above_seconds: float | None = Field(
        None,
        gt=0,
        description="deterministic meter: a task whose solutions are expected to cost more than "
        "this many native CPU seconds together (Job.weight) is profiled one zygote per solution, "
        "in parallel; None: one zygote per task. The cpu meter always measures a task's "
        "solutions together (paired)",
    )

    @model_validator(mode="after")
    def _rounds(self) -> MeasureConfig:
        if self.min_rounds > self.max_rounds:
            raise ValueError(f"min_rounds ({self.min_rounds}) > max_rounds ({self.max_rounds})")
        return self

    @property
    def deterministic(self) -> bool:
        """The meter gives the same reading for the same work: one pass is the measurement."""
        return self.meter == "icount"


# --- the builds -------------------------------------------------------------------------------


class ConfigError(ValueError):
    """A configuration file that cannot be used, with the file and the key named."""


class LLMConfig(BaseModel):
    """An endpoint and how to ask it (``synthesis.llm``, ``sas.llm``, ``candidates.llm``).

    ``temperature``, ``n``, ``max_attempts``, ``validation_*`` and ``prompt_template`` are the
    generator synthesizer's (docs/llm-generators.md); SaS and candidate sampling take their own
    ``n`` and ``temperature`` from their sections and use the endpoint, key, timeout, retries and
    prompts folder from here.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str | None = Field(
        None, description="OpenAI-compatible endpoint, e.g. http://host:8000/v1; default from env"
    )
    model: str | None = Field(None, description="model name; default $QUICKSILVER_LLM_MODEL")
    api_key_env: str = Field(
        "OPENAI_API_KEY", min_length=1, description="NAME of the environment variable with the key"
    )
    temperature: float = Field(0.2, ge=0, le=2)
    n: int = Field(1, ge=1, description="answers per request")
    max_attempts: int = Field(4, ge=1, description="answers tried per task before giving up")
    request_timeout_s: float = Field(60.0, gt=0, description="per HTTP request")
    max_retries: int = Field(
        3, ge=0, description="HTTP retries on 429/5xx/connection errors (by the openai client)"
    )
    validation_seeds: int = Field(5, ge=1, description="seeds a generator is run on to validate")
    validation_cpu_seconds: float = Field(5.0, gt=0, description="CPU limit per validation call")
    prompt_template: str = Field("mercury_generator.j2", min_length=1)
    prompts_dir: Path | None = Field(
        None, description="a folder of prompt templates; None: the package's (quicksilver/prompts)"
    )

    def resolved(self) -> LLMConfig:
        """base_url and model filled from the environment where unset."""
        base_url = self.base_url or next(
            (os.environ[v] for v in BASE_URL_ENV if os.environ.get(v)), None
        )
        model = self.model or os.environ.get(MODEL_ENV) or None
        return self.model_copy(update={"base_url": base_url, "model": model})

    @property
    def configured(self) -> bool:
        return bool(self.base_url) and bool(self.model)


class _WithLLM(_Strict):
    """A section with an ``llm`` endpoint (:class:`LLMConfig`): typed when the config is read (a
    misspelt key is an error then), recorded as written (the keys given, not every default)."""

    @field_serializer("llm", check_fields=False)
    def _llm_as_written(self, llm: LLMConfig) -> dict[str, Any]:
        return llm.model_dump(mode="json", exclude_unset=True)


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


class SynthesisSection(_WithLLM):
    mode: Literal["offline", "llm", "auto"] = Field(
        "offline",
        description="offline: constraint-driven synthesizer; llm: the endpoint; auto: offline, "
        "then the LLM for tasks the offline synthesizer reports (when an endpoint is configured)",
    )
    size_cap: int = Field(1000, ge=1, description="largest collection size a generator draws")
    llm: LLMConfig = Field(
        default_factory=lambda: LLMConfig(), description="the endpoint (see docs/llm-generators.md)"
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
    judge_seconds: float = Field(
        30.0,
        gt=0,
        description="the judge's budget per solution for the whole test set: the Mercury "
        "authors' evaluator gives each solution 30 s (docs/mercury-build.md, 'The test set's "
        "budget')",
    )
    test_set_cpu_seconds: float = Field(
        10.0,
        gt=0,
        description="the test set is sized so that every kept solution runs all of it within "
        "this many seconds of CPU here (at most judge_seconds; a third of it by default, room "
        "for a slower machine and the evaluator's own overhead): generated inputs are left "
        "out, the examples, edge cases and the largest input that fits stay",
    )

    @property
    def call_floor(self) -> float:
        """The floor in force: never above the ceiling (``solution_cpu_seconds``)."""
        return min(self.call_floor_seconds, self.solution_cpu_seconds)

    @model_validator(mode="after")
    def _budget_within_the_judges(self) -> CasesSection:
        if self.test_set_cpu_seconds > self.judge_seconds:
            raise ValueError(
                f"test_set_cpu_seconds ({self.test_set_cpu_seconds:g}) is above judge_seconds "
                f"({self.judge_seconds:g}): a kept solution could fail the judge's budget"
            )
        return self


class CheckerSection(_WithLLM):
    """The checker of a task with several valid answers (docs/uniqueness.md): written by the LLM
    endpoint when one is configured, validated in the sandbox against every solution's answers."""

    llm: LLMConfig = Field(
        default_factory=lambda: LLMConfig(),
        description="the endpoint; unset (and no QUICKSILVER_LLM_* in the environment): a task "
        "with several valid answers is dropped as multiple-valid-answers",
    )
    cache_dir: Path = Field(Path("data/cache/llm"), description="LLM answers, keyed by request")
    prompt_template: str = Field("answer_checker.j2", min_length=1)
    max_attempts: int = Field(3, ge=1, description="checkers asked for per task at most")
    cpu_seconds: float = Field(2.0, gt=0, description="CPU limit per checker call (validation)")
    max_trials: int = Field(
        400, ge=1, description="answers a checker is validated on per task, at most"
    )


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
    invariant_min_inputs: int = Field(
        3,
        ge=1,
        description="a property every credible answer has (a palindrome, sorted, ...) counts as "
        "part of the statement when seen on at least this many inputs where it could fail",
    )
    alternative_margin: float = Field(
        4.0,
        ge=1,
        description="when answers are chosen from an argument, the vote rules out an answer that "
        "shares what every valid answer shares (a possible other valid answer) only when the "
        "chosen answer has at least this many times its support; otherwise both stay and the "
        "task needs a checker (docs/uniqueness.md)",
    )
    checker: CheckerSection = CheckerSection()


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
    eval_size: int | None = Field(
        256,
        ge=0,
        description="eval tasks, a third per difficulty (Mercury's eval had 256); null (only "
        "with eval_after): every task of the date window, unbalanced",
    )
    seed: int = Field(0, description="seed of the eval selection")
    eval_after: date | None = Field(
        None,
        description="hold out a date window: eval is drawn only from tasks released strictly "
        "after this date (YYYY-MM-DD); undated tasks never go to such an eval",
    )

    @model_validator(mode="after")
    def _window(self) -> Self:
        if self.eval_size is None and self.eval_after is None:
            raise ValueError("eval_size may be null only with eval_after (the whole window)")
        return self


class ViewsSection(_Strict):
    """The training views written from the train split (docs/publishing.md, "Training views"):
    ``sft`` (each task's fastest solution) and ``dpo`` (faster / slower pairs)."""

    sft: bool = Field(True, description="write the sft configuration")
    dpo: bool = Field(True, description="write the dpo configuration")
    dpo_pairs_per_task: int = Field(
        3, ge=1, description="pairs per task at most, the largest runtime gaps first (Mercury)"
    )
    dpo_min_gap: float = Field(
        0.2,
        ge=0,
        lt=1,
        description="smallest relative gap 1 - chosen/rejected runtime for a pair (0.2: the "
        "chosen solution costs at most 80% of the rejected one)",
    )
    dpo_disjoint_ci: bool = Field(
        True,
        description="a pair also needs the chosen runtime's CI95 entirely below the rejected "
        "one's, so that a gap is not measurement noise",
    )


class RunnerSection(_Strict):
    kind: Literal["thread", "process", "dask"] = Field(
        "thread",
        description="Prefect task runner for the sharded stages: thread, process, or dask (a "
        "local cluster of `workers` processes, or the scheduler at `address`)",
    )
    workers: int | None = Field(
        None,
        ge=1,
        description="parallel shards (default: cores; with dask at an address: the cluster's "
        "threads)",
    )
    shard_size: int = Field(4, ge=1, description="tasks per shard of the expensive stages")
    address: str | None = Field(
        None, description="dask: the scheduler to use (tcp://host:8786); default: a local cluster"
    )


class RetrySection(_Strict):
    """Retries of infrastructure faults only (quicksilver/faults.py): a sandbox that could not
    start, a lost Dask worker. A solution's own failure (a timeout, a wrong answer, a crash) is
    its verdict and is never retried; LLM and LeetCode endpoints retry their 429 / 5xx answers
    themselves (``synthesis.llm.max_retries``, the scraper's client)."""

    attempts: int = Field(
        2,
        ge=0,
        description="times a stage or shard run that failed on an infrastructure fault is run "
        "again (0: never); with a local Dask cluster also the times a task whose worker died is "
        "given to another worker",
    )
    backoff_seconds: float = Field(
        5.0, ge=0, description="wait before the first retry, doubled before each further one"
    )

    def delays(self) -> list[float]:
        """The wait before each retry, in seconds."""
        return [self.backoff_seconds * 2**i for i in range(self.attempts)]


class FunctionsSection(_Strict):
    """Function-style tasks (HumanEval, MBPP): no LeetCode metaData, no Constraints section.
    Their types and the bounds of generated inputs come from their own example calls
    (quicksilver/sources/functions.py)."""

    max_length: int = Field(
        100_000,
        ge=1,
        description="longest list or string a generated input may hold (the examples set the "
        "shortest, and the values' ranges); Mercury's test inputs stay within synthesis.size_cap, "
        "DPE's performance inputs grow up to this",
    )


class BuildConfigBase(_Strict):
    """What every build's config has: its name, the questions it builds from, its output."""

    name: str = Field("quicksilver", description="dataset name (card, default repo)")
    snapshots: list[Path] = Field(
        default_factory=lambda: [Path("data/snapshot/bundled")],
        min_length=1,
        description="snapshot folders to build from",
    )
    only: list[str] | None = Field(None, description="build only these task slugs")
    out_dir: Path = Path("data/build")
    functions: FunctionsSection = FunctionsSection()

    @model_validator(mode="after")
    def _paths(self) -> Self:
        if len(set(self.snapshots)) != len(self.snapshots):
            raise ValueError("snapshots lists a folder twice")
        return self

    def resolve(self, base: Path) -> Self:
        """Relative paths resolved against ``base`` (the repository root)."""

        def fix(p: Path) -> Path:
            return p if p.is_absolute() else (base / p)

        update: dict[str, Any] = {
            "snapshots": [fix(p) for p in self.snapshots],
            "out_dir": fix(self.out_dir),
        }
        synthesis = getattr(self, "synthesis", None)
        if isinstance(synthesis, SynthesisSection):
            update["synthesis"] = synthesis.model_copy(
                update={"cache_dir": fix(synthesis.cache_dir)}
            )
        uniqueness = getattr(self, "uniqueness", None)
        if isinstance(uniqueness, UniquenessSection):
            checker = uniqueness.checker
            update["uniqueness"] = uniqueness.model_copy(
                update={"checker": checker.model_copy(update={"cache_dir": fix(checker.cache_dir)})}
            )
        return self.model_copy(update=update)

    def digest_view(self) -> dict[str, Any]:
        """The settings as plain data (recorded in the card and in cache keys)."""
        return self.model_dump(mode="json")


class BuildConfig(BuildConfigBase):
    """The Mercury build (flows/build_mercury.py, docs/mercury-build.md)."""

    name: str = Field("quicksilver-mercury", description="dataset name (card, default repo)")
    out_dir: Path = Path("data/build/mercury")
    dedup: DedupSection = DedupSection()
    filters: FilterSection = FilterSection()
    synthesis: SynthesisSection = SynthesisSection()
    testcases: CasesSection = CasesSection()
    uniqueness: UniquenessSection = UniquenessSection()
    profile: ProfileSection = ProfileSection()
    splits: SplitSection = SplitSection()
    views: ViewsSection = ViewsSection()
    runner: RunnerSection = RunnerSection()
    retries: RetrySection = RetrySection()

    @property
    def sandbox(self) -> SandboxConfig:
        """The sandbox the correctness stages (generators, testcases, checkers) run code in: the
        Mercury build runs them in its profiling sandbox (``profile.sandbox``), one for both."""
        return self.profile.sandbox


# --- the DPE / EvalPerf build (flows/build_dpe.py, docs/dpe-build.md) -------------------------


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
    cache_dir: Path = Field(Path("data/cache/llm"), description="LLM answers, keyed by request")


class SaSSection(_WithLLM):
    mode: Literal["offline", "llm", "auto"] = Field(
        "auto",
        description="offline: the constraint-driven perf synthesizer; llm: the endpoint only; "
        "auto: the endpoint when configured, else offline",
    )
    n: int = Field(16, ge=1, description="generators sampled per task (the paper's 16)")
    temperature: float = Field(0.8, ge=0, le=2)
    llm: LLMConfig = Field(default_factory=lambda: LLMConfig(), description="the endpoint")
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


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:8]:
        loc = ".".join(str(p) for p in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)  # a whole-config error names its key
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


_C = TypeVar("_C", bound=BuildConfigBase)


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
        key = key.strip()
        if not sep or not re.fullmatch(r"[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*", key):
            raise ConfigError(f"override {item!r}: expected dotted.key=value")
        if not raw.strip():
            raise ConfigError(
                f"override {item!r}: no value (write {key}=null to clear it); a value the shell "
                "or a CLI cut off is refused rather than read as null"
            )
        try:
            value = yaml.safe_load(raw)
        except yaml.YAMLError as exc:
            problem = str(getattr(exc, "problem", None) or exc).strip()
            raise ConfigError(
                f"override {item!r}: the value is not valid YAML ({problem}); quote lists and "
                "strings for the shell: --set 'only=[two-sum, add-digits]'"
            ) from exc
        _set_path(data, key.strip(), value)
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"{where}: {_describe(exc)}") from exc
