"""The sections both builds read, and the Mercury build's config (flows/build_mercury.py,
docs/mercury-build.md)."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import (
    Field,
    model_validator,
)

from quicksilver.config.endpoint import LLMConfig, _WithLLM
from quicksilver.config.measure import MeasureConfig, SandboxConfig, SandboxLimits, _Strict


class DedupSection(_Strict):
    """The dedup stage's knobs (the exact step has none; quicksilver/stages/dedup.py).

    Defaults, measured on the bundled corpus and on synthetic mutants (docs/dedup.md): in the
    canonical form with locals renamed, every annotated reformatted / commented / renamed copy
    is *identical* to its original (Jaccard 1.0), while genuinely different solutions that
    differ by a single token (``bisect_right`` for ``bisect_left``) still reach 0.86 on 5-gram
    shingles. Jaccard cannot tell a harmless edit from a one-token change of meaning, and in an
    efficiency benchmark one token can change the complexity class, so the threshold is high:
    0.95 merges what canonicalisation makes (nearly) identical and little else.
    """

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

    @model_validator(mode="after")
    def _weights(self) -> Self:
        if self.fp_weight + self.fn_weight <= 0:
            raise ValueError("fp_weight and fn_weight must not both be 0")
        return self


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
        10.0,
        gt=0,
        description="per solution call, at most: the ceiling, the limit a call gets on its "
        "final run (an input that needs more than test_set_cpu_seconds cannot stay in the test "
        "set anyway)",
    )
    call_floor_seconds: float = Field(
        1.0,
        gt=0,
        description="per-call CPU limit of the screening pass every solution runs first "
        "(capped at solution_cpu_seconds); what it does not finish runs again with the ceiling",
    )
    call_limit_factor: float = Field(
        10.0,
        ge=1,
        description="in the screening pass, an input that most solutions finished within "
        "call_floor_seconds / this is one a solution that times out on it is stopped at (its "
        "final run, with the ceiling, decides)",
    )
    max_timeout_share: float = Field(
        0.25,
        ge=0,
        le=1,
        description="a solution that did not finish (timed out at the ceiling, or ran out of "
        "memory) more than this share of the inputs is stopped at once and dropped as too slow",
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
    shard_size: int = Field(
        4,
        ge=1,
        description="tasks per shard of the expensive stages (a stage that packs its shards by "
        "their work, Mercury's profile, has as many shards, of unequal sizes)",
    )
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
    until: str | None = Field(
        None,
        description="stop after this stage (a stage of the build, by name): the stages after it "
        "are not run and nothing is published; null: the whole build",
    )
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
