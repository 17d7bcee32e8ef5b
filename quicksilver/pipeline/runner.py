"""The runner: a build's stages run from their declarations, and "is this done?" in one place.

:class:`Runner` binds a :class:`~quicksilver.pipeline.build.Build` to a config and derives, from
each :class:`~quicksilver.pipeline.stage.Stage`:

- **wiring**: a stage reads the records of the stage before it in the build's list: the same
  shard when both are sharded, every shard (in order) when only the earlier one is, its shard's
  tasks when only it is. The shards are the tasks of the last stage before the first sharded one,
  by slug, ``runner.shard_size`` each;
- **keys**: the stage's name and version, the package version, the config values it reads, the
  source of its logic and of every project module that logic imports
  (:mod:`quicksilver.pipeline.keys`), the digests of its input files (a shard of the first
  sharded stage: of its own tasks' lines of the previous stage's file), and its shard;
- **completion**: a stage (or shard) is done when its manifest carries its key as it is now
  (:meth:`Runner.done`); Prefect's cache, on top in tasks/, only echoes this;
- **counts and rejects**: tasks and solutions in (what it read) and out (what it returned), the
  drops its logic made through :meth:`Context.drop`, written to its rejects file, and the funnel
  over all stages (:meth:`Runner.funnel`).

Everything here runs without Prefect.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from quicksilver import __version__
from quicksilver.fsutil import WriteError, is_storage_error
from quicksilver.lifecycle import Interrupted
from quicksilver.pipeline import keys
from quicksilver.pipeline.build import Build
from quicksilver.pipeline.files import (
    StageDir,
    file_digest,
    iter_shards,
    read_index,
    read_jsonl,
    read_jsonl_rows,
    read_lines,
    write_jsonl,
)
from quicksilver.pipeline.records import Solution, TaskRecord, json_digest
from quicksilver.pipeline.refs import (
    REFERABLE,
    Origin,
    StageFileError,
    origins,
    resolve,
    swaps,
)
from quicksilver.pipeline.stage import Context, Stage, StageCounts, missing_fills
from quicksilver.sandbox.session import ShuttingDown, shutting_down

log = logging.getLogger(__name__)


def _plain(value: Any) -> Any:
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def read_records(path: Path) -> list[TaskRecord]:
    """A stage file's records, every reference to an earlier stage's file put back
    (:mod:`quicksilver.pipeline.refs`)."""
    rows = read_jsonl(path)
    return [TaskRecord.model_validate(row) for row in resolve(rows, [path] * len(rows))]


def write_records(
    path: Path, records: list[TaskRecord], held: dict[str, dict[str, Origin]] | None = None
) -> Path:
    """The records, a line each, and their index by task slug (:func:`write_jsonl`). ``held``:
    per task slug, where its input's fields are held (:func:`~quicksilver.pipeline.refs.
    origins`): a field returned unchanged is written as a reference to its holder."""
    swap = swaps(held or {})
    return write_jsonl(
        path,
        (r.row() for r in records),
        index_by=_slug,
        spans=REFERABLE,
        swap=lambda row: swap.get(_slug(row), {}),
    )


def _slug(row: dict[str, Any]) -> str:
    return str(row["task"]["slug"])


_SHARD_FILE = re.compile(r"(?:_SUCCESS\.)?(shard-\d+)(?:\.rejects)?\.(?:jsonl|json|index\.json)")
"""A file of one shard in a stage's folder: its records, rejects, index or manifest."""


def _stamp(path: Path) -> tuple[Any, ...]:
    try:
        st = path.stat()
    except OSError:
        return (str(path), None, None)
    return (str(path), st.st_mtime_ns, st.st_size)


def _file_slugs(path: Path) -> list[str]:
    """The task slugs of a records file: from its index, without reading every record."""
    if not path.exists():
        return []
    index = read_index(path)
    return list(index) if index is not None else [_slug(r) for r in read_jsonl(path)]


def pack_shards(work: Mapping[str, float], size: int) -> list[list[str]]:
    """``work`` (task slug -> the work expected of it) in as many shards as ``size`` tasks each
    would make, packed so the heaviest shard is as light as it can be: each task, heaviest first,
    goes to the shard with the least work so far, the fewest tasks among equals (longest processing
    time first: at most 4/3 of the best packing's heaviest shard). A task heavier than a shard's
    fair share is a shard of its own. Each shard's slugs sorted; the shards in the order they were
    opened (the heaviest first); ties broken by slug, so the packing is the same on every run."""
    slugs = sorted(work, key=lambda x: (-work[x], x))
    count = max(1, math.ceil(len(slugs) / max(1, size))) if slugs else 0
    shards: list[list[str]] = [[] for _ in range(count)]
    loads = [0.0] * count
    for slug in slugs:
        i = min(range(count), key=lambda k: (loads[k], len(shards[k]), k))
        shards[i].append(slug)
        loads[i] += max(0.0, work[slug])
    return [sorted(s) for s in shards if s]


class Runner:
    """A build bound to a config: its stages run, keyed, counted and reused (module docstring)."""

    def __init__(self, build: Build, cfg: Any) -> None:
        self.build = build
        self.cfg = cfg
        self.root = Path(cfg.out_dir)
        # per first stage of a run of sharded stages: (the files' stamps, its shards)
        self._shards: dict[str, tuple[tuple[Any, ...], list[tuple[str, list[str]]]]] = {}
        self._work: dict[str, dict[str, float]] = {}  # per packed run: its shards' packed work

    @property
    def title(self) -> str:
        return self.build.title

    def dir(self, stage: str) -> StageDir:
        return StageDir(self.root, stage)

    # -- wiring ---------------------------------------------------------------------------------

    def groups(self, stages: Sequence[Stage] | None = None) -> list[list[Stage]]:
        """The sharded stages (of ``stages``, by default the build's), in runs that share one
        layout of shards: a run starts at a sharded stage after a whole one, and at a stage that
        ``packs`` its shards anew (:func:`pack_shards`); every later stage of the run reads the
        same shard of the stage before it."""
        wanted = {s.name for s in (stages if stages is not None else self.build.stages)}
        out: list[list[Stage]] = []
        for stage in self.build.stages:
            if not stage.sharded:
                continue
            if self._starts_run(stage):
                out.append([])
            if stage.name in wanted:
                out[-1].append(stage)
        return [g for g in out if g]

    def _starts_run(self, stage: Stage) -> bool:
        """Whether ``stage`` opens a run of sharded stages (:meth:`groups`): the stage before
        it is whole, or it packs its shards anew."""
        prev = self.build.previous(stage)
        return prev is None or not prev.sharded or stage.packs is not None

    def _group_head(self, stage: Stage) -> Stage:
        """The first stage of the run of sharded stages ``stage`` is in (:meth:`groups`)."""
        head = stage
        while not self._starts_run(head):
            prev = self.build.previous(head)
            assert prev is not None  # a run's first stage has one before it
            head = prev
        return head

    def _same_shards(self, a: Stage, b: Stage) -> bool:
        return a.sharded and b.sharded and self._group_head(a) is self._group_head(b)

    def shards(self, stage: Stage | str | None = None) -> list[tuple[str, list[str]]]:
        """(name, slugs) per shard of ``stage`` (by default the first sharded stage): the tasks
        of the stage before its run of sharded stages (:meth:`groups`), by slug,
        ``runner.shard_size`` each, or, for a stage that ``packs``, as many shards packed by the
        work it expects of each task (:func:`pack_shards`). Empty while the stage before has no
        records yet. Read again only when the files that make them changed: keys ask often."""
        if isinstance(stage, str):
            stage = self.build.stage(stage)
        if stage is None:
            stage = next((s for s in self.build.stages if s.sharded), None)
            if stage is None:
                return []
        head = self._group_head(stage)
        source = self.build.previous(head)
        if source is None:
            return []
        paths = (
            [self.dir(source.name).records(p) for p in self.shard_names(source)]
            if source.sharded
            else [self.dir(source.name).records()]
        )
        stamp = tuple(_stamp(p) for p in paths)
        cached = self._shards.get(head.name)
        if cached is None or cached[0] != stamp:
            size = self.cfg.runner.shard_size
            if head.packs is None:
                slugs = sorted(s for p in paths for s in _file_slugs(p))
                layout = list(iter_shards(slugs, size))
            else:
                work = {
                    _slug(row): head.packs(
                        [Solution.model_validate(x) for x in row.get("solutions") or []]
                    )
                    for p in paths
                    if p.exists()
                    for row in read_jsonl(p)
                }
                layout = pack_shards(work, size)
                self._work[head.name] = {
                    f"shard-{i:04d}": sum(work[x] for x in p) for i, p in enumerate(layout)
                }
            parts = [(f"shard-{i:04d}", p) for i, p in enumerate(layout)]
            self._shards[head.name] = (stamp, parts)
            cached = self._shards[head.name]
        return [(name, list(slugs)) for name, slugs in cached[1]]

    def shard_names(self, stage: Stage | str | None = None) -> list[str]:
        return [name for name, _ in self.shards(stage)]

    def slugs(self, part: str, stage: Stage | str | None = None) -> list[str] | None:
        if not part:
            return None
        for name, slugs in self.shards(stage):
            if name == part:
                return slugs
        raise KeyError(f"no shard {part!r}")

    def prune_shards(self, stage: Stage | str) -> list[Path]:
        """Remove the files of ``stage``'s shards that its shards as they are now do not name
        (a layout made when the stage before held other tasks, or other work: a packed stage's
        shards move when its input changes), so that nothing reads a shard of another layout
        as its own (the report's shard times, a rerun's count of shards). Returns them."""
        stage = self.build.stage(stage) if isinstance(stage, str) else stage
        names = set(self.shard_names(stage))
        folder = self.dir(stage.name).path
        gone: list[Path] = []
        if not folder.is_dir():
            return gone
        for path in sorted(folder.iterdir()):
            m = _SHARD_FILE.fullmatch(path.name)
            if m is not None and m.group(1) not in names and path.is_file():
                path.unlink()
                gone.append(path)
        if gone:
            log.info("%s: removed %d file(s) of shards no longer made", stage.name, len(gone))
        return gone

    def _record_files(self, stage: Stage, part: str = "") -> list[Path]:
        prev = self.build.previous(stage)
        if prev is None:
            return []
        if self._same_shards(prev, stage):
            return [self.dir(prev.name).records(part)]
        if prev.sharded:
            return [self.dir(prev.name).records(p) for p in self.shard_names(prev)]
        return [self.dir(prev.name).records()]

    def input_files(self, stage: Stage, part: str = "") -> list[Path]:
        """The files ``stage`` (or its shard ``part``) reads: the previous stage's records, and
        the files it declares (a source stage's snapshots)."""
        declared = sorted(stage.inputs(self.cfg)) if stage.inputs is not None else []
        return self._record_files(stage, part) + declared

    def read_input(self, stage: Stage, part: str = "") -> list[TaskRecord]:
        """The records ``stage`` (or its shard ``part``) reads, in order, references put back
        (:mod:`quicksilver.pipeline.refs`). A shard of the first sharded stage reads only its
        tasks' lines of the previous stage's one file (by the file's index), so that every
        shard does not read every task."""
        return self._read_input(stage, part)[0]

    def _read_input(
        self, stage: Stage, part: str = ""
    ) -> tuple[list[TaskRecord], dict[str, dict[str, Origin]]]:
        """:meth:`read_input`, and where each record's fields are held (:func:`origins`): what
        the stage's own file refers to for a field it returns unchanged."""
        files = self._record_files(stage, part)
        prev = self.build.previous(stage)
        if prev is None:
            return [], {}
        # the shard of each file read: the holder a reference to its full values names
        same = self._same_shards(prev, stage)
        parts = [""] if not prev.sharded else [part] if same else self.shard_names(prev)
        rows: list[dict[str, Any]] = []
        where: list[Path] = []
        held: dict[str, dict[str, Origin]] = {}
        for path, file_part in zip(files, parts, strict=True):
            if stage.sharded and not same:
                wanted = set(self.slugs(part, stage) or [])
                index = read_index(path)
                if index is not None:
                    got = read_jsonl_rows(path, index, wanted)
                else:
                    got = [row for row in read_jsonl(path) if _slug(row) in wanted]
            else:
                got = read_jsonl(path)
            held.update(origins(got, prev.name, file_part))
            rows += got
            where += [path] * len(got)
        return [TaskRecord.model_validate(row) for row in resolve(rows, where)], held

    def input_digest(self, stage: Stage, part: str = "") -> str:
        """The digest of what ``stage`` (or its shard ``part``) reads: its input files whole,
        but for a shard of the first sharded stage only its own tasks' lines of the previous
        stage's one file (what :meth:`read_input` reads: a shard is keyed by its tasks, not by
        every task of the build), found by the file's index or, without one, by reading it."""
        prev = self.build.previous(stage)
        if not (stage.sharded and prev is not None and not self._same_shards(prev, stage)):
            return file_digest(*self.input_files(stage, part))
        records = self._record_files(stage, part)
        declared = sorted(stage.inputs(self.cfg)) if stage.inputs is not None else []
        wanted = set(self.slugs(part, stage) or [])
        h = hashlib.sha256()
        for i, path in enumerate(records):
            index = read_index(path)
            if index is not None:
                lines = read_lines(path, index, wanted)
            elif path.exists():
                with path.open("rb") as fh:
                    lines = [ln for ln in fh if ln.strip() and _slug(json.loads(ln)) in wanted]
            else:
                lines = []
            h.update((b"\2" if i else b"") + path.name.encode() + b"\0")
            for line in lines:
                h.update(line)
        h.update(b"\1" + file_digest(*declared).encode())
        return h.hexdigest()

    def shard_work(self, part: str, stage: Stage | str | None = None) -> float:
        """The work a shard of ``stage``'s run of sharded stages (:meth:`groups`; by default the
        first) is expected to take: for a stage that ``packs``, what it packed the shard by;
        else what the run's outputs so far say (the stages that declare ``weighs``; 0 before
        they ran). The scheduler starts the heaviest first."""
        if isinstance(stage, str):
            stage = self.build.stage(stage)
        first = stage if stage is not None else next(iter(self.build.sharded), None)
        if first is None:
            return 0.0
        head = self._group_head(first)
        if head.packs is not None:
            self.shards(head)
            return self._work.get(head.name, {}).get(part, 0.0)
        total = 0.0
        for s in self.build.sharded:
            path = self.dir(s.name).records(part)
            if s.weighs is not None and self._same_shards(s, head) and path.exists():
                try:
                    total += s.weighs(read_records(path))
                except StageFileError as exc:  # a file left from an earlier run: redone anyway
                    log.debug("%s/%s: not weighed: %s", s.name, part, exc)
        return total

    # -- keys and completion --------------------------------------------------------------------

    def key(self, name: str, part: str = "") -> str:
        stage = self.build.stage(name)
        return json_digest(
            {
                "stage": name,
                "version": stage.version,
                "code": keys.code_digest(stage.code),
                "quicksilver": __version__,
                "config": {k: _plain(v) for k, v in stage.settings(self.cfg).items()},
                "inputs": self.input_digest(stage, part),
                "part": part,
                "slugs": self.slugs(part, stage),
                # what it reads through ctx.funnel(): the counts of the stages before it
                "funnel": (
                    [{k: v for k, v in row.items() if k != "seconds"} for row in self.funnel(name)]
                    if stage.funnel
                    else None
                ),
            }
        )

    def completion(self, name: str, part: str = "") -> tuple[str, dict[str, Any] | None]:
        """The stage's (or shard's) key as it is now, and its manifest when that says it finished
        with this key (else None): the one place "is this done?" is answered."""
        key = self.key(name, part)
        info = self.dir(name).manifest(part)
        return key, info if info is not None and info.get("key") == key else None

    def done(self, name: str, part: str = "") -> bool:
        """Whether the stage (or shard) is done (:meth:`completion`), whoever asks."""
        return self.completion(name, part)[1] is not None

    # -- running --------------------------------------------------------------------------------

    def run(self, name: str, part: str = "") -> dict[str, Any]:
        """Run a stage (or one shard of it) unless it is done; returns a small summary."""
        stage = self.build.stage(name)
        if stage.sharded != bool(part):
            raise ValueError(f"{name}: {'a shard is needed' if stage.sharded else 'not sharded'}")
        sd = self.dir(name)
        key, info = self.completion(name, part)
        label = f"{name}/{part}" if part else name
        if info is not None:
            log.info("%s: complete with the same inputs and settings, reused", label)
            return _summary(name, part, key, info["counts"], info.get("seconds", 0.0), True)
        if shutting_down():
            raise Interrupted(f"{label}: not started, the build is stopping")
        start = time.monotonic()
        try:
            sd.path.mkdir(parents=True, exist_ok=True)
            records, held = self._read_input(stage, part)
            try:
                done = apply(
                    stage,
                    records,
                    source=self.build.previous(stage) is None,
                    part=part,
                    root=self.root,
                    folder=sd.path,
                    funnel=lambda: self.funnel(name),
                    **stage.settings(self.cfg),
                )
            except ShuttingDown as exc:  # a sandbox refused or killed by the stop
                raise Interrupted(f"{label}: interrupted; a rerun redoes it") from exc
            out, counts = done.records, done.counts
            write_records(sd.records(part), out, held)
            write_jsonl(sd.rejects(part), done.rejects)
            seconds = round(time.monotonic() - start, 3)
            if shutting_down():
                # sandboxes were killed under it: what it wrote is not trusted (no manifest)
                raise Interrupted(f"{label}: interrupted; a rerun redoes it")
            sd.finish(key, counts.to_dict(), part, seconds=seconds)
        except OSError as exc:
            if not is_storage_error(exc):
                raise
            # a full disk, a read-only folder: one line that names the path
            where = exc.filename if isinstance(exc.filename, str | Path) else self.root
            raise WriteError.from_os_error(where, exc) from exc
        log.info(
            "%s: tasks %d -> %d, solutions %d -> %d in %.1f s",
            label,
            counts.tasks_in,
            counts.tasks_out,
            counts.solutions_in,
            counts.solutions_out,
            seconds,
        )
        return _summary(name, part, key, counts.to_dict(), seconds, False)

    # -- the funnel -----------------------------------------------------------------------------

    def funnel(self, before: str | None = None) -> list[dict[str, Any]]:
        """Counts in and out of every stage (shards merged), in the build's order: each row is
        the stage's :class:`StageCounts` as its manifests say (``drops`` per reason in the
        stage's own unit; ``drop_tasks``, ``drop_solutions``, ``drop_inputs`` per kind) and its
        seconds. Only finished stages and shards count. ``before``: only the stages before that
        one (what a stage reads through :meth:`Context.funnel`)."""
        out = []
        stages = self.build.stages
        if before is not None:
            stages = stages[: self.build.stage_names.index(before)]
        for stage in stages:
            sd = self.dir(stage.name)
            parts = self.shard_names(stage) if stage.sharded else [""]
            found = [i for i in (sd.manifest(p) for p in parts) if i is not None]
            if not found:
                continue
            counts = StageCounts.merge(
                stage.name, (StageCounts.from_dict(i["counts"]) for i in found)
            )
            seconds = sum(i.get("seconds", 0.0) for i in found)
            out.append({**counts.to_dict(), "seconds": round(seconds, 3)})
        return out

    # -- the publish dry run (the preflight) ----------------------------------------------------

    def check_publish(self, out_dir: Path) -> None:
        """Run the build's last stage (publish) on the made-up example task (``Build.example``)
        into ``out_dir`` (a folder of its own), then read the dataset back as ``quicksilver
        publish`` does (every row validated against the published features, the card's front
        matter parsed) and as ``quicksilver score`` does. Raises the first problem; the preflight
        calls this before the first stage."""
        from quicksilver.publishing.hub import load_published
        from quicksilver.rows import load_records

        last = self.build.stages[-1]
        done = apply(
            last,
            [self.build.example(self.cfg)],
            root=Path(out_dir),
            funnel=lambda: example_funnel(self.build.stage_names),
            **last.settings(self.cfg),
        )
        if done.rejects:
            raise ValueError(f"the example row is set aside: {done.rejects[0]['detail']}")
        if len(done.records) != 1:
            why = "; ".join(done.counts.notes)
            raise ValueError(f"the example task was not published ({why})")
        load_published(Path(out_dir))
        loaded = load_records(Path(out_dir))
        if len(loaded.records) != 1:
            why = "; ".join(f"{r.source}: {r.reason}" for r in loaded.rejects)
            raise ValueError(f"the published example does not load for scoring: {why}")


def example_funnel(stages: tuple[str, ...]) -> list[dict[str, Any]]:
    """A made-up funnel row per stage, with drops of every kind the card shows (a task with its
    solutions, a solution on its own, an input): the publish dry run's card renders them all."""
    rows = []
    for stage in stages:
        counts = StageCounts(stage, 3, 1, 9, 2, notes=[f"{stage}: an example note"])
        counts.drops.update({"example-task": 1, "example-solution": 3, "example-input": 2})
        counts.drop_tasks.update({"example-task": 1})
        counts.drop_solutions.update({"example-task": 4, "example-solution": 3})
        counts.drop_inputs.update({"example-input": 2})
        rows.append({**counts.to_dict(), "seconds": 1.0})
    return rows


@dataclass
class Outcome:
    """What a stage did to some records: the records it kept, its rejects rows, its counts."""

    records: list[TaskRecord]
    rejects: list[dict[str, Any]]
    counts: StageCounts


def apply(
    stage: Stage,
    records: list[TaskRecord],
    *,
    source: bool = False,
    part: str = "",
    root: Path | None = None,
    folder: Path | None = None,
    funnel: Callable[[], list[dict[str, Any]]] | None = None,
    **settings: Any,
) -> Outcome:
    """Run a stage's logic on records, no files and no executor (as datatrove calls a block on
    a list of documents): the records it keeps, its rejects and counts. ``settings`` are the
    config values it reads (:meth:`Stage.settings`); ``source``: it reads files, not records
    (its counts in are what it kept and dropped). The runner calls this for every stage run."""
    ctx = Context(
        stage=stage.name,
        part=part,
        root=root,
        folder=folder,
        writes=stage.writes,
        funnel=funnel or (lambda: []),
    )
    out = stage.logic(ctx, records, **settings)
    missing = missing_fills(stage, out)
    if missing is not None:  # our bug, not the data's: the run fails here, at its cause
        raise RuntimeError(missing)
    return Outcome(out, ctx.rejects, _counts(stage.name, records, out, ctx, source=source))


def _counts(
    stage: str, records: list[TaskRecord], out: list[TaskRecord], ctx: Context, *, source: bool
) -> StageCounts:
    """In: what the stage read (a source stage, which reads files: what it returned and
    dropped); out: what it returned; drops and notes: what its logic said."""
    counts = StageCounts(
        stage,
        drops=ctx.drops,
        notes=list(ctx.notes),
        drop_tasks=ctx.kinds["task"],
        drop_solutions=ctx.kinds["solution"],
        drop_inputs=ctx.kinds["input"],
    )
    counts.tasks_out = len(out)
    counts.solutions_out = sum(len(r.solutions) for r in out)
    if source:
        counts.tasks_in = counts.tasks_out + ctx.tasks_dropped
        counts.solutions_in = counts.solutions_out + ctx.solutions_dropped
    else:
        counts.tasks_in = len(records)
        counts.solutions_in = sum(len(r.solutions) for r in records)
    return counts


def _summary(
    stage: str, part: str, key: str, counts: dict[str, Any], seconds: float, reused: bool
) -> dict[str, Any]:
    """What a stage run returns (small: Prefect persists it as the task's result)."""
    return {
        "stage": stage,
        "part": part,
        "key": key,
        "counts": counts,
        "seconds": seconds,
        "reused": reused,
    }
