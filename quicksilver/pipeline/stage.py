"""One stage contract: a stage declares its name, the config it reads and its logic in one place.

A :class:`Stage` is data::

    FILTERS = Stage(
        "filters",
        logic=filters,                       # (ctx, records, **settings) -> records kept
        reads=("filters.min_solutions",),    # config paths: passed as keyword arguments
    )

Its logic receives the :class:`~quicksilver.pipeline.records.TaskRecord`\\ s of the stage before it
in the build and returns the records it keeps; every drop goes through one call,
:meth:`Context.drop` (the record, a reason, a detail), and every note through
:meth:`Context.note`. The runner (:mod:`quicksilver.pipeline.runner`) derives the rest from the
declaration: where the records come from and go (the previous stage in the build's list; per shard
for ``sharded`` stages), the cache key (the config values ``reads`` names, the source of everything
the logic imports, the input files), the completion manifest, the counts in and out, and the
rejects file.

Filters say why, as datatrove's do: a filter returns :data:`KEEP` or :class:`Drop` (reason,
detail), and :func:`keep_or_drop` applies filters to records with :meth:`Context.drop`.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from quicksilver.pipeline.records import Solution, TaskRecord

log = logging.getLogger(__name__)

Logic = Callable[..., list[TaskRecord]]
"""``logic(ctx, records, **settings) -> records kept``; ``settings`` are the config values the
stage ``reads``, by the last part of their path."""


@dataclass(frozen=True)
class Stage:
    """A stage of a build (see the module docstring).

    ``name``: its folder under ``<out_dir>/stages/`` and its row in the funnel. ``logic``: what it
    does. ``reads``: the config paths it reads (``"testcases"``, ``"filters.min_solutions"``;
    ``""`` the whole config), passed to ``logic`` by their last part (``config`` for ``""``) and
    part of its key. ``sharded``: run per shard of tasks. ``version``: bump it to refuse results of
    older logic even when no source file changed. ``inputs``: files a source stage reads (the
    snapshots), part of its key. ``writes``: files besides its records and rejects it writes into
    its folder (:meth:`Context.path`). ``weighs``: the work its output says the later
    stages of a shard will take (the scheduler starts ``heavy`` stages of the heaviest shards
    first). ``packs``: the stage's shards are formed anew, not those of the stage before it: as
    many as ``runner.shard_size`` tasks each would make, packed by the work this gives for each
    task's solutions as the stage before left them (the profile stage: their CPU on the test set,
    natively), so no shard is a long pole (quicksilver/pipeline/runner.py, ``pack_shards``).
    ``alone``: with this config, run shard after shard once every other sharded stage is
    done, nothing beside it (a cpu meter measuring must not share the machine). ``funnel``: its
    logic reads the funnel of the stages before it (:meth:`Context.funnel`: publish's card), so
    their counts are part of its key.

    ``needs`` and ``fills``: the record fields it reads that an earlier stage sets, and the ones
    it sets on every record it keeps: a field of :class:`TaskRecord` (``"tests"``) or of each of
    its solutions (``"solutions.answers"``). A build whose order leaves a need unfilled is refused
    when it is declared (:class:`~quicksilver.pipeline.build.Build`, at import), and a stage that
    returns a record without a field it fills fails its run with the field and the task named
    (:func:`missing_fills`), so a wrong order or a broken stage stops at its cause, not in a later
    stage's shard.

    ``check``: called with the build's config when the build starts (:meth:`Build.check_settings`),
    before any stage runs; raises ``ValueError`` for a setting the config's types accept and the
    stage cannot run with (dedup: a threshold whose LSH needs one band), so the mistake is said at
    once rather than after the stages before it ran.
    """

    name: str
    logic: Logic
    reads: tuple[str, ...] = ()
    sharded: bool = False
    version: str = "1"
    inputs: Callable[[Any], list[Path]] | None = None
    writes: tuple[str, ...] = ()
    weighs: Callable[[list[TaskRecord]], float] | None = None
    heavy: bool = False
    packs: Callable[[list[Solution]], float] | None = None
    alone: Callable[[Any], bool] | None = None
    funnel: bool = False
    needs: tuple[str, ...] = ()
    fills: tuple[str, ...] = ()
    check: Callable[[Any], None] | None = None

    def __post_init__(self) -> None:
        for name in (*self.needs, *self.fills):
            owner, _, field_name = name.rpartition(".")
            fields = {"": TaskRecord.model_fields, "solutions": Solution.model_fields}.get(owner)
            if fields is None or field_name not in fields:
                raise ValueError(
                    f"stage {self.name}: {name!r} is not a field of a task record "
                    "('tests') or of its solutions ('solutions.answers')"
                )

    @property
    def code(self) -> tuple[str, ...]:
        """The modules whose source (and imports) the key covers: the logic's own module (and,
        through the key, what it imports)."""
        return (self.logic.__module__,)

    def settings(self, config: Any) -> dict[str, Any]:
        """The config values this stage reads, by keyword."""
        out: dict[str, Any] = {}
        for path in self.reads:
            value = config
            for part in path.split(".") if path else ():
                value = getattr(value, part)
            out[path.rsplit(".", 1)[-1] if path else "config"] = value
        return out


def missing_fills(stage: Stage, records: Sequence[TaskRecord]) -> str | None:
    """What ``records`` (a stage's output) lack of the fields ``stage`` fills: one line naming
    the field and the first tasks without it, or None."""
    for name in stage.fills:
        owner, _, field_name = name.rpartition(".")
        if owner:
            lacking = [
                r.slug for r in records if any(getattr(s, field_name) is None for s in r.solutions)
            ]
        else:
            lacking = [r.slug for r in records if getattr(r, field_name) is None]
        if lacking:
            shown = ", ".join(lacking[:3]) + (
                f" and {len(lacking) - 3} more" if len(lacking) > 3 else ""
            )
            return (
                f"stage {stage.name} fills {name}, and returned {len(lacking)} record(s) "
                f"without it: {shown}"
            )
    return None


# --- counting -----------------------------------------------------------------------------------


KINDS = ("task", "solution", "input")
"""What a drop sets aside, written in its rejects row's ``dropped`` field and counted per reason in
its stage's manifest (``drop_tasks``, ``drop_solutions``, ``drop_inputs``)."""


@dataclass
class StageCounts:
    """Tasks and solutions in and out of a stage (or shard), and drops per reason: ``drops``
    counts each reason in the unit the stage dropped (one per :meth:`Context.drop`), and
    ``drop_tasks``, ``drop_solutions`` and ``drop_inputs`` count what those drops set aside per
    kind (a dropped task's solutions under its reason; a solution listed twice in one stage
    once, for the first reason)."""

    stage: str
    tasks_in: int = 0
    tasks_out: int = 0
    solutions_in: int = 0
    solutions_out: int = 0
    drops: Counter[str] = field(default_factory=Counter)  # reason -> records dropped
    notes: list[str] = field(default_factory=list)
    drop_tasks: Counter[str] = field(default_factory=Counter)  # reason -> tasks
    drop_solutions: Counter[str] = field(default_factory=Counter)  # reason -> solutions
    drop_inputs: Counter[str] = field(default_factory=Counter)  # reason -> inputs

    def to_dict(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "tasks_in": self.tasks_in,
            "tasks_out": self.tasks_out,
            "solutions_in": self.solutions_in,
            "solutions_out": self.solutions_out,
            "drops": dict(sorted(self.drops.items())),
            "drop_tasks": dict(sorted((+self.drop_tasks).items())),
            "drop_solutions": dict(sorted((+self.drop_solutions).items())),
            "drop_inputs": dict(sorted((+self.drop_inputs).items())),
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> StageCounts:
        return cls(
            stage=d["stage"],
            tasks_in=d["tasks_in"],
            tasks_out=d["tasks_out"],
            solutions_in=d["solutions_in"],
            solutions_out=d["solutions_out"],
            drops=Counter(d.get("drops", {})),
            notes=list(d.get("notes", [])),
            drop_tasks=Counter(d.get("drop_tasks", {})),
            drop_solutions=Counter(d.get("drop_solutions", {})),
            drop_inputs=Counter(d.get("drop_inputs", {})),
        )

    @classmethod
    def merge(cls, stage: str, parts: Iterable[StageCounts]) -> StageCounts:
        out = cls(stage)
        for p in parts:
            out.tasks_in += p.tasks_in
            out.tasks_out += p.tasks_out
            out.solutions_in += p.solutions_in
            out.solutions_out += p.solutions_out
            out.drops.update(p.drops)
            out.drop_tasks.update(p.drop_tasks)
            out.drop_solutions.update(p.drop_solutions)
            out.drop_inputs.update(p.drop_inputs)
            out.notes.extend(p.notes)
        return out


# --- the context a stage's logic runs in ------------------------------------------------------


@dataclass
class Context:
    """What a stage's logic may do besides returning records: drop with a reason, note, write
    its declared files, read the funnel so far (publish). The runner makes one per run."""

    stage: str
    part: str = ""  # the shard, for a sharded stage
    root: Path | None = None  # the build's out_dir (publish writes the dataset there)
    folder: Path | None = None  # the stage's folder
    writes: tuple[str, ...] = ()
    funnel: Callable[[], list[dict[str, Any]]] = lambda: []
    rejects: list[dict[str, Any]] = field(default_factory=list)
    drops: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    tasks_dropped: int = 0
    solutions_dropped: int = 0
    kinds: dict[str, Counter[str]] = field(default_factory=lambda: {k: Counter() for k in KINDS})
    _solutions_seen: set[tuple[Any, ...]] = field(default_factory=set)

    def drop(
        self,
        record: TaskRecord | Solution | Mapping[str, Any],
        reason: str,
        detail: str,
        *,
        lost: Sequence[Solution] | None = None,
        dropped: str | None = None,
        **extra: Any,
    ) -> None:
        """Set ``record`` aside with why: counted under ``reason`` (one for the record) and written
        to the stage's rejects file with ``reason``, ``detail``, ``extra`` and what it is
        (``dropped``: ``task``, ``solution`` or ``input``), counted per kind too.

        - a :class:`TaskRecord`: the task (one rejects row: its slug and ``extra``), and the
          solutions it takes with it, one row each (``lost``; default all of its solutions);
        - a :class:`Solution`: that solution (its row, code included);
        - anything else (a test input, a sample): written as given; ``dropped`` says what it is.
        """
        self.drops[reason] += 1
        why = {"reason": reason, "detail": detail}
        if isinstance(record, TaskRecord):
            self.tasks_dropped += 1
            self.kinds["task"][reason] += 1
            self.rejects.append({"slug": record.slug, **extra, **why, "dropped": "task"})
            gone = record.solutions if lost is None else lost
            self.solutions_dropped += len(gone)
            for s in gone:
                self._count_solution(s.slug, s.hash, reason)
            self.rejects += [{**s.row(), **why, "dropped": "solution"} for s in gone]
        elif isinstance(record, Solution):
            self.solutions_dropped += 1
            self._count_solution(record.slug, record.hash, reason)
            self.rejects.append({**record.row(), **extra, **why, "dropped": "solution"})
        else:
            if dropped not in KINDS:
                raise ValueError(f"{reason}: say what the record is (dropped=one of {KINDS})")
            if dropped == "solution":
                self._count_solution(record.get("slug"), record.get("code"), reason)
            else:
                self.kinds[dropped][reason] += 1
            self.rejects.append({**record, **extra, **why, "dropped": dropped})

    def _count_solution(self, slug: Any, ident: Any, reason: str) -> None:
        """One solution, counted once in a stage (the testcases stage lists a solution that does
        not load, then again with its task): for the first reason. ``ident``: its hash (its code
        before it has one; None: a sample that could not be read, always counted)."""
        if ident is not None:
            if (slug, ident) in self._solutions_seen:
                return
            self._solutions_seen.add((slug, ident))
        self.kinds["solution"][reason] += 1

    def note(self, text: str) -> None:
        """A sentence for the funnel, the card and the run's log."""
        self.notes.append(text)

    def path(self, name: str) -> Path:
        """A file the stage declared in ``writes``, in its folder."""
        if name not in self.writes or self.folder is None:
            raise ValueError(f"{self.stage}: {name} is not among the files it declares")
        return self.folder / name


# --- filters ------------------------------------------------------------------------------------


class Drop(NamedTuple):
    """A filter's verdict: drop the record, for this reason (a category) and detail (a sentence
    naming the task)."""

    reason: str
    detail: str


class Keep:
    """A filter's verdict: keep the record (the one instance is :data:`KEEP`)."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP = Keep()

Filter = Callable[[TaskRecord], "Drop | Keep"]


def keep_or_drop(ctx: Context, records: Iterable[TaskRecord], *filters: Filter) -> list[TaskRecord]:
    """The records every filter keeps; each other one dropped (with its solutions) for the first
    filter's reason."""
    kept = []
    for record in records:
        for f in filters:
            verdict = f(record)
            if isinstance(verdict, Drop):
                ctx.drop(record, verdict.reason, verdict.detail)
                break
        else:
            kept.append(record)
    return kept


NEEDS_SOLUTIONS = (
    "attach model samples to the snapshot (quicksilver snapshot attach-samples DIR --samples "
    "S.jsonl --model NAME), list sample files in candidates.sample_files, or set an LLM endpoint "
    "(candidates.llm) to sample solutions"
)
"""Where more solutions come from (the DPE build's preflight and the filters stage's note)."""


def enough_solutions(minimum: int, *, when: str) -> Filter:
    """A filter: at least ``minimum`` solutions (``when`` says after which stage)."""

    def check(record: TaskRecord) -> Drop | Keep:
        n = len(record.solutions)
        if n < minimum:
            return Drop(
                "min-solutions", f"{record.slug}: {n} solution(s) {when}, fewer than {minimum}"
            )
        return KEEP

    return check
