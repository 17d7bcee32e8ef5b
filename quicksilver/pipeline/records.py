"""One record type: a task on its way from its snapshot to its published row.

Every stage of every build reads and writes :class:`TaskRecord`\\ s: one per task, carrying the
task, its solutions, and what each stage learned about it, in a field named for what it holds and
documented with the stage that fills it. A stage returns the records it keeps (with its field
filled in and the solutions it dropped removed); what it drops goes to its rejects file with a
reason (:meth:`quicksilver.pipeline.stage.Context.drop`). To follow one task, read its line in
each stage's ``records.jsonl`` (``<shard>.jsonl`` for the sharded stages): the same record,
growing (a field a stage passed on unchanged is written as a reference to the file that holds it:
:mod:`quicksilver.pipeline.refs`; read records with ``read_records``, which puts it back).

========================  ==================  ==================================================
field                     filled by           what it holds
========================  ==================  ==================================================
``task``                  load                the question as scraped, statement, starter code
``solutions``             load                hashed, normalised Python 3 solutions; dedup marks
                                              near-duplicates, candidates (DPE) adds some, every
                                              stage removes the ones it drops
``generator``             generators          the test-input generator and who wrote it
``tests``                 testcases           the test inputs; every solution's answers on them
                                              (``Solution.answers``)
``verdict``               uniqueness          the expected outputs and how they were decided
``profile``               profile (Mercury)   the meter; each solution's ``runtime``
``split``                 splits (Mercury)    ``train`` or ``eval``
``perf_generators``       sas (DPE)           ``perf_input_gen(scale)`` generators
``pe_input``              sampling (DPE)      the performance-exercising input, the solutions'
                                              answers there and the candidate answer
``pe_profile``            pe_profile (DPE)    the meter; each solution's ``cost``; the vote
                                              that accepted the answer on the input
``selected``              select (DPE)        clusters, references, scores; ``Solution.cluster``
========================  ==================  ==================================================

Records are plain data (pydantic models): validated when read, written as JSON lines with unset
fields left out, identified by content (task slug, solution hash), never by position.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """Plain data, validated when read. :meth:`row` is what goes into a file."""

    model_config = ConfigDict(extra="forbid")

    def row(self) -> dict[str, Any]:
        """The record as JSON-ready data, fields that are not set (None) left out."""
        return self.model_dump(exclude_none=True)


def solution_hash(code: str) -> int:
    """Mercury's ``hash`` field: a signed int64 from the sha256 of the normalised code."""
    return int.from_bytes(hashlib.sha256(code.encode()).digest()[:8], "big", signed=True)


def json_digest(value: Any) -> str:
    """sha256 of a value's canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(
        json.dumps(value, sort_keys=True, default=str, separators=(",", ":")).encode()
    ).hexdigest()


# --- per solution --------------------------------------------------------------------------------


class CaseAnswer(Record):
    """One solution's answer on one test input (testcases)."""

    status: str  # ok | error | timeout | memory | skipped
    value: Any = None  # the answer (None unless ok)
    error: str | None = None
    cpu: float = 0.0  # CPU seconds of the call, natively


class Runtime(Record):
    """One solution's measured cost over its task's test cases (profile, Mercury)."""

    runtime: float  # in the meter's unit
    ci_low: float
    ci_high: float
    rounds: int
    converged: bool = True
    flags: list[str] = []
    isolation: str | None = None
    # bytes above the post-load baseline, read by the host: the largest, and per test case
    peak_memory_bytes: int | None = None
    case_peak_memory_bytes: list[int | None] = []
    # what scoring reads of a reference besides its count (NMU: the baseline; NTMU: the TMU),
    # published so that shipped counts replace a whole reference run (scoring/shipped.py)
    memory_baseline_bytes: int | None = None
    tmu: float | None = None
    tmu_samples: int | None = None


class Cost(Record):
    """One solution's measured cost on the performance-exercising input (pe_profile, DPE):
    :func:`quicksilver.dpe.select.figures` and where it ran."""

    cost: float | None
    mean: float | None = None
    cv: float | None = None
    cv_classic: float | None = None
    rounds: int = 0
    converged: bool = True
    flags: list[str] = []
    isolation: str | None = None
    peak_memory_bytes: int | None = None  # on the pe input, bytes above the post-load baseline


class Solution(Record):
    """One solution of a task: normalised Python 3, identified by ``hash``."""

    slug: str
    hash: int
    code: str
    position: int = 0  # where it was in its source (snapshot order; sampled ones follow)
    source: str | None = None  # bundled | leetcode | model | llm | ...
    model: str | None = None
    url: str | None = None
    runtime_reported: str | None = None  # as a judge reported it, when scraped
    # load: import lines added so that the code runs where only Mercury's names are injected
    # (quicksilver/selfcontained.py); ``code`` includes them
    imports_added: list[str] = []
    lang: str = "python3"
    near_group: int | None = None  # dedup: the hash of its near-duplicate group's first member
    near_detail: str | None = None  # dedup: why it is in that group
    answers: list[CaseAnswer] | None = None  # testcases: one per test input (uniqueness uses it)
    native_seconds: float | None = None  # uniqueness: its CPU over the test cases, natively
    runtime: Runtime | None = None  # profile (Mercury)
    cost: Cost | None = None  # pe_profile (DPE)
    cluster: int | None = None  # select (DPE): its performance cluster, 0 = slowest


# --- per task ------------------------------------------------------------------------------------


class Task(Record):
    """The question and what later stages need of it (load)."""

    slug: str
    id: str | None = None  # LeetCode's frontend id
    source: str = ""  # where the snapshot came from
    snapshot_path: str = ""
    snapshot_sha256: str = ""
    question: dict[str, Any] = {}  # the question as scraped (LeetCode's field names)
    meta: dict[str, Any] = {}  # metaData parsed: the method's name, parameters and types
    difficulty: str | None = None
    statement: str = ""  # plain text
    prompt: str = ""  # the Python 3 starter code
    examples: list[list[Any]] = []  # the statement's example inputs (argument lists)
    example_error: str | None = None  # why the examples could not be read
    known_tests: list[dict[str, Any]] = []  # [{"input", "expected"}]: the statement's answers
    entry_point: str | None = None
    # function-style tasks (HumanEval, MBPP): a plain function, not a ``class Solution`` method;
    # ``meta`` is then inferred from the task's example calls (quicksilver/sources/functions.py)
    kind: Literal["class", "function"] = "class"
    signature_error: str | None = None  # why no signature could be inferred (function-style)
    constraints: list[str] = []  # inferred bounds for generated inputs (function-style)
    release_date: str | None = None  # YYYY-MM-DD; None: undated (never guessed)
    release_date_source: str | None = None  # how the date is known (snapshot's release)


class Generator(Record):
    """The task's test-input generator (generators)."""

    generator_code: str
    generator_path: str  # offline | llm
    generator_model: str | None = None
    notes: list[str] = []
    attempts: list[dict[str, Any]] = []
    offline_report: str | None = None  # llm path: what the offline synthesizer said


class CaseInput(Record):
    """One test input (testcases)."""

    input: list[Any]
    kind: str  # example | generated | edge (the generator's generate_edge_cases())
    seed: int | None = None  # the generator's seed (None for an example or an edge case)


class Tests(Record):
    """The task's test inputs (testcases); the solutions' answers are on the solutions."""

    seed: int  # the task's seed, derived from base_seed and the slug
    base_seed: int
    cases: list[CaseInput]
    call_limits: dict[str, Any] = {}  # the per-call CPU limits and the rule that set them
    budget: dict[str, Any] = {}  # the test set's CPU budget per solution, its cost, the rule

    @property
    def n_generated(self) -> int:
        """Inputs from the generator: random ones and its edge cases."""
        return sum(c.kind in ("generated", "edge") for c in self.cases)

    @property
    def n_edge(self) -> int:
        return sum(c.kind == "edge" for c in self.cases)

    @property
    def n_examples(self) -> int:
        return sum(c.kind == "example" for c in self.cases)


class Verdict(Record):
    """The expected outputs and how they were decided (uniqueness)."""

    any_order: bool
    classification: str  # all-agree | equal-up-to-order | minority-wrong | ...
    decision: dict[str, Any] = {}  # the numbers behind it (voters, disputed inputs, rules)
    expected: list[Any]  # one per test input, in ``tests.cases`` order
    # a task with several valid answers: the validated checker that judges an answer instead of
    # equality with ``expected`` (Mercury's evaluate_offline source; None: equality)
    evaluate_offline: str | None = None


class Profile(Record):
    """How the solutions' runtimes were measured (profile, Mercury)."""

    meter: str
    unit: str
    machine_id: str
    instruction_rate: float | None = None  # instructions per CPU second, for instruction meters
    # icount: what the counts depend on (quicksilver/count_fingerprint.py), None for other meters
    count_environment: dict[str, Any] | None = None


class PerfGenerators(Record):
    """``perf_input_gen(scale)`` generators (sas, DPE): :meth:`quicksilver.dpe.sas.SaSResult.
    to_dict` without the slug."""

    generators: list[dict[str, Any]]
    rejected: list[dict[str, Any]] = []
    reason: str | None = None
    needs_llm: bool = False


class PEInput(Record):
    """The performance-exercising input and how it was chosen (sampling, DPE)."""

    pe_input: list[Any]  # a list of argument lists
    generator: int
    generator_path: str
    generator_model: str | None = None
    generator_code: str
    generators_tried: int
    scale: int
    input_sha256: str
    input_bytes: int
    reference_hash: int
    reference_cost: float
    stop: str
    finish_costs: dict[str, float] = {}  # solution hash -> CPU seconds on the input
    finish_rule: str = ""
    tried: list[dict[str, Any]] = []
    traces: list[dict[str, Any]] = []
    # the offline worst-case search for the chosen generator (quicksilver/dpe/worstcase.py):
    # seed, scale, meter, every variant's costs and ratio, the pattern chosen; None: not searched
    worst_case: dict[str, Any] | None = None
    # every solution's answer on the input as it ran there to finish (solution hash -> digest,
    # quicksilver/dpe/answers.py), and the candidate answer, one per call of ``pe_input`` (the
    # answer most of them gave; pe_profile judges every solution against it), with its support
    answers: dict[str, str] = {}
    expected: list[Any] | None = None
    expected_support: int = 0


class PEProfile(Record):
    """How the solutions' costs were measured (pe_profile, DPE), and how the accepted answer on
    the input was decided (``answer_vote``: :meth:`quicksilver.dpe.answers.AnswerVote.to_dict`)."""

    meter: str
    unit: str
    machine_id: str
    answer_vote: dict[str, Any] | None = None


class Selected(Record):
    """EvalPerf's selection of the task: clusters, references and scores (select, DPE)."""

    reference_hashes: list[int]
    reference_costs: list[float]
    scores: list[float]
    cluster_sizes: list[int]
    bias: float
    w: float
    p99_cv: float
    instruction_rate: float | None = None
    instruction_rate_source: str | None = None


class TaskRecord(Record):
    """One task and everything the stages learned about it (see the module docstring)."""

    task: Task
    solutions: list[Solution] = []
    generator: Generator | None = None
    tests: Tests | None = None
    verdict: Verdict | None = None
    profile: Profile | None = None
    split: str | None = None
    perf_generators: PerfGenerators | None = None
    pe_input: PEInput | None = None
    pe_profile: PEProfile | None = None
    selected: Selected | None = None

    @property
    def slug(self) -> str:
        return self.task.slug

    def with_solutions(self, solutions: list[Solution], **fields: Any) -> TaskRecord:
        """A copy with these solutions and fields set (the record itself is left alone)."""
        return self.model_copy(update={"solutions": solutions, **fields})
