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
import time
from collections.abc import Callable
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
from quicksilver.pipeline.records import TaskRecord, json_digest
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


class Runner:
    """A build bound to a config: its stages run, keyed, counted and reused (module docstring)."""

    def __init__(self, build: Build, cfg: Any) -> None:
        self.build = build
        self.cfg = cfg
        self.root = Path(cfg.out_dir)
        self._shards: tuple[tuple[Any, ...], list[tuple[str, list[str]]]] | None = None

    @property
    def title(self) -> str:
        return self.build.title

    def dir(self, stage: str) -> StageDir:
        return StageDir(self.root, stage)

    # -- wiring ---------------------------------------------------------------------------------

    def _shard_source(self) -> Stage:
        """The stage whose tasks make the shards: the last before the first sharded stage."""
        stages = self.build.stages
        first = next((i for i, s in enumerate(stages) if s.sharded), len(stages))
        return stages[max(0, first - 1)]

    def shards(self) -> list[tuple[str, list[str]]]:
        """(name, slugs) per shard of the sharded stages (read again only when the file that
        makes them changed: keys ask for them often)."""
        path = self.dir(self._shard_source().name).records()
        try:
            st = path.stat()
            stamp: tuple[Any, ...] = (str(path), st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = (str(path), None, None)
        if self._shards is None or self._shards[0] != stamp:
            index = read_index(path)  # the slugs without reading every record
            slugs = sorted(index if index is not None else (_slug(r) for r in read_jsonl(path)))
            size = self.cfg.runner.shard_size
            parts = [(f"shard-{i:04d}", p) for i, p in enumerate(iter_shards(slugs, size))]
            self._shards = (stamp, parts)
        return [(name, list(slugs)) for name, slugs in self._shards[1]]

    def shard_names(self) -> list[str]:
        return [name for name, _ in self.shards()]

    def slugs(self, part: str) -> list[str] | None:
        if not part:
            return None
        for name, slugs in self.shards():
            if name == part:
                return slugs
        raise KeyError(f"no shard {part!r}")

    def _record_files(self, stage: Stage, part: str = "") -> list[Path]:
        prev = self.build.previous(stage)
        if prev is None:
            return []
        if prev.sharded and stage.sharded:
            return [self.dir(prev.name).records(part)]
        if prev.sharded:
            return [self.dir(prev.name).records(p) for p in self.shard_names()]
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
        parts = [""] if not prev.sharded else [part] if stage.sharded else self.shard_names()
        rows: list[dict[str, Any]] = []
        where: list[Path] = []
        held: dict[str, dict[str, Origin]] = {}
        for path, file_part in zip(files, parts, strict=True):
            if stage.sharded and not prev.sharded:
                wanted = set(self.slugs(part) or [])
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
        files = self.input_files(stage, part)
        prev = self.build.previous(stage)
        if not (stage.sharded and prev is not None and not prev.sharded):
            return file_digest(*files)
        records, declared = files[0], files[1:]
        wanted = set(self.slugs(part) or [])
        index = read_index(records)
        if index is not None:
            lines = read_lines(records, index, wanted)
        elif records.exists():
            with records.open("rb") as fh:
                lines = [ln for ln in fh if ln.strip() and _slug(json.loads(ln)) in wanted]
        else:
            lines = []
        h = hashlib.sha256(records.name.encode() + b"\0")
        for line in lines:
            h.update(line)
        h.update(b"\1" + file_digest(*declared).encode())
        return h.hexdigest()

    def shard_work(self, part: str) -> float:
        """The work a shard's outputs so far say its later stages will take (the stages that
        declare ``weighs``; 0 before they ran): the scheduler starts the heaviest first."""
        total = 0.0
        for stage in self.build.sharded:
            path = self.dir(stage.name).records(part)
            if stage.weighs is not None and path.exists():
                try:
                    total += stage.weighs(read_records(path))
                except StageFileError as exc:  # a file left from an earlier run: redone anyway
                    log.debug("%s/%s: not weighed: %s", stage.name, part, exc)
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
                "slugs": self.slugs(part),
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
        shard_names = self.shard_names()
        stages = self.build.stages
        if before is not None:
            stages = stages[: self.build.stage_names.index(before)]
        for stage in stages:
            sd = self.dir(stage.name)
            parts = shard_names if stage.sharded else [""]
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
