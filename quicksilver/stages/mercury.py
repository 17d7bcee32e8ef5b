"""The Mercury build's stage drivers: read a stage's inputs from files, run the core, write its
outputs, rejects and completion manifest under ``<out_dir>/stages/<stage>/``.

The Prefect tasks in ``tasks/`` are thin wrappers over these methods, and the flow in
``flows/build_mercury.py`` composes them; everything here also runs without Prefect.

Each stage (or shard) has a cache key: the stage's logic version, the package version, the config
sections it reads and the digests of its input files. A stage whose manifest carries the same key
is complete and is not redone; Prefect's task cache uses the same key (see ``tasks/``).
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

from quicksilver import __version__
from quicksilver.fsutil import WriteError, is_storage_error, write_text_atomic
from quicksilver.lifecycle import Interrupted
from quicksilver.machine import machine_info
from quicksilver.pipeline import keys
from quicksilver.sandbox.session import ShuttingDown, shutting_down
from quicksilver.stages.base import (
    StageCounts,
    StageDir,
    file_digest,
    iter_shards,
    json_digest,
    read_jsonl,
    write_jsonl,
)

log = logging.getLogger(__name__)

# Bump a stage's version when its logic changes: cached results of older logic are not reused.
STAGE_VERSIONS = {
    "load": "1",
    "dedup": "1",
    "filters": "1",
    "generators": "1",
    "testcases": "1",
    "uniqueness": "1",
    "profile": "1",
    "splits": "1",
    "publish": "1",
}
# The modules each stage's logic lives in: the key covers their source and everything of the
# project they import (quicksilver/pipeline/keys.py), so editing a helper redoes exactly the
# stages whose logic reaches it, even when nobody remembered to bump a version above.
STAGE_LOGIC = {
    "load": ["quicksilver.stages.load"],
    "dedup": ["quicksilver.stages.dedup"],
    "filters": ["quicksilver.stages.filters"],
    "generators": ["quicksilver.stages.synthesis"],
    "testcases": ["quicksilver.stages.testcases"],
    "uniqueness": ["quicksilver.stages.uniqueness"],
    "profile": ["quicksilver.stages.profile"],
    "splits": ["quicksilver.stages.splits"],
    "publish": ["quicksilver.stages.rows", "quicksilver.publishing.writer"],
}
SHARDED = ("testcases", "uniqueness", "profile")


def code_digest(stage: str) -> str:
    """sha256 over the source of a Mercury stage's logic and what it imports (STAGE_LOGIC)."""
    return keys.code_digest(STAGE_LOGIC[stage])


STAGES = tuple(STAGE_VERSIONS)


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


class MercuryBuild:
    STAGES: tuple[str, ...] = STAGES
    SHARDED: tuple[str, ...] = SHARDED
    STAGE_VERSIONS: dict[str, str] = STAGE_VERSIONS
    TITLE = "Mercury build"

    def __init__(self, cfg: Any) -> None:
        self.cfg = cfg
        self.root = Path(cfg.out_dir)

    # -- layout ---------------------------------------------------------------------------------

    def dir(self, stage: str) -> StageDir:
        return StageDir(self.root, stage)

    def code_digest(self, stage: str) -> str:
        return code_digest(stage)

    def _sections(self, stage: str) -> Any:
        c = self.cfg
        sandbox = lambda: c.sandbox.model_dump(mode="json")  # noqa: E731
        return {
            "load": lambda: {"snapshots": [str(p) for p in c.snapshots], "only": c.only},
            "dedup": lambda: c.dedup.model_dump(mode="json"),
            "filters": lambda: c.filters.model_dump(mode="json"),
            "generators": lambda: {**c.synthesis.model_dump(mode="json"), "sandbox": sandbox()},
            "testcases": lambda: {
                "cases": c.testcases.model_dump(mode="json"),
                "sandbox": sandbox(),
            },
            "uniqueness": lambda: {
                **c.uniqueness.model_dump(mode="json"),
                "min_solutions": c.filters.min_solutions,
            },
            "profile": lambda: {
                **c.profile.model_dump(mode="json"),
                "min_solutions": c.filters.min_solutions,
            },
            "splits": lambda: c.splits.model_dump(mode="json"),
            "publish": lambda: {"name": c.name, "all": c.digest_view()},
        }[stage]()

    def inputs(self, stage: str, part: str = "") -> list[Path]:
        d = self.dir
        if stage == "load":
            return sorted(p for s in self.cfg.snapshots for p in Path(s).glob("*.json"))
        if stage == "splits":
            return [d("profile").file(f"{p}.jsonl") for p in self.shard_names()]
        if stage == "publish":
            return [d("splits").file("splits.json")] + [
                d("profile").file(f"{p}{suffix}")
                for p in self.shard_names()
                for suffix in (".jsonl", ".solutions.jsonl")
            ]
        return {
            "dedup": [d("load").file("solutions.jsonl")],
            "filters": [d("load").file("tasks.jsonl"), d("dedup").file("solutions.jsonl")],
            "generators": [d("filters").file("tasks.jsonl"), d("filters").file("solutions.jsonl")],
            "testcases": [
                d("generators").file("tasks.jsonl"),
                d("generators").file("solutions.jsonl"),
                d("generators").file("generators.jsonl"),
            ],
            "uniqueness": [
                d("generators").file("tasks.jsonl"),
                d("generators").file("solutions.jsonl"),
                d("testcases").file(f"{part}.jsonl"),
            ],
            "profile": [
                d("generators").file("tasks.jsonl"),
                d("uniqueness").file(f"{part}.solutions.jsonl"),
                d("uniqueness").file(f"{part}.jsonl"),
            ],
        }.get(stage, [])

    def key(self, stage: str, part: str = "", slugs: list[str] | None = None) -> str:
        return json_digest(
            {
                "stage": stage,
                "version": self.STAGE_VERSIONS[stage],
                "code": self.code_digest(stage),
                "quicksilver": __version__,
                "config": self._sections(stage),
                "inputs": file_digest(*self.inputs(stage, part)),
                "part": part,
                "slugs": slugs,
            }
        )

    def is_complete(self, stage: str, part: str = "", slugs: list[str] | None = None) -> bool:
        return self.dir(stage).complete(self.key(stage, part, slugs), part)

    # -- shards ---------------------------------------------------------------------------------

    def shards(self) -> list[tuple[str, list[str]]]:
        """(name, slugs) per shard of the expensive stages, from the generators stage output."""
        slugs = sorted(t["slug"] for t in read_jsonl(self.dir("generators").file("tasks.jsonl")))
        return [
            (f"shard-{i:04d}", part)
            for i, part in enumerate(iter_shards(slugs, self.cfg.runner.shard_size))
        ]

    def shard_names(self) -> list[str]:
        return [name for name, _ in self.shards()]

    def shard_work(self, part: str) -> float:
        """The CPU seconds a shard's solutions spent on its test cases (the test-case stage's
        record): an estimate of what measuring them costs, so the scheduler can start the
        heaviest shards first. 0 when the stage has not written the shard."""
        path = self.dir("testcases").file(f"{part}.jsonl")
        if not path.exists():
            return 0.0
        return sum(
            float(a.get("cpu") or 0.0)
            for rec in read_jsonl(path)
            for answers in rec.get("answers", {}).values()
            for a in answers
        )

    # -- running --------------------------------------------------------------------------------

    def _run(self, stage: str, body: Any, part: str = "", slugs: list[str] | None = None) -> dict:
        sd = self.dir(stage)
        key = self.key(stage, part, slugs)
        label = f"{stage}/{part}" if part else stage
        info = sd.manifest(part)
        if info is not None and info.get("key") == key:
            log.info("%s: complete with the same inputs and settings, reused", label)
            return _summary(stage, part, key, info["counts"], info.get("seconds", 0.0), True)
        if shutting_down():
            raise Interrupted(f"{label}: not started, the build is stopping")
        start = time.monotonic()
        try:
            sd.path.mkdir(parents=True, exist_ok=True)
            try:
                counts: StageCounts = body(sd)
            except ShuttingDown as exc:  # a sandbox refused or killed by the stop
                raise Interrupted(f"{label}: interrupted; a rerun redoes it") from exc
            seconds = round(time.monotonic() - start, 3)
            if shutting_down():
                # sandboxes were killed under it: what it wrote is not trusted (no manifest)
                raise Interrupted(f"{label}: interrupted; a rerun redoes it")
            sd.finish(key, counts, part, seconds=seconds)
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
        return _summary(stage, part, key, counts.to_dict(), seconds, False)

    def run_load(self) -> dict:
        from quicksilver.stages.load import load_stage

        def body(sd: StageDir) -> StageCounts:
            out = load_stage(list(self.cfg.snapshots), self.cfg.only)
            write_jsonl(sd.file("tasks.jsonl"), out["tasks"])
            write_jsonl(sd.file("solutions.jsonl"), out["solutions"])
            write_jsonl(sd.file("rejects.jsonl"), out["rejects"])
            return out["counts"]

        return self._run("load", body)

    def run_dedup(self) -> dict:
        from quicksilver.stages.dedup import DedupParams, deduplicate, defer_near_duplicates

        def body(sd: StageDir) -> StageCounts:
            rows = read_jsonl(self.inputs("dedup")[0])
            knobs = self.cfg.dedup.model_dump()
            defer = knobs.pop("near_duplicates") == "after-answers"
            params = DedupParams(**knobs)
            result = deduplicate(rows, params)
            kept, removed = result.kept, result.removed
            if defer:
                kept, removed = defer_near_duplicates(rows, result)
            counts = StageCounts(
                "dedup",
                tasks_in=len({r["slug"] for r in rows}),
                solutions_in=len(rows),
                tasks_out=len({r["slug"] for r in kept}),
                solutions_out=len(kept),
            )
            for r in removed:
                counts.drops[f"{r['kind']}-duplicate"] += 1
            counts.notes.append(
                "LSH bands x rows = {bands} x {rows} for threshold {threshold}".format(
                    **result.params
                )
            )
            if defer:
                marked = sum("near_group" in r for r in kept)
                counts.notes.append(
                    f"{marked} solution(s) in near-duplicate groups, kept until their answers are "
                    "known (the uniqueness stage removes near-duplicates among passing solutions)"
                )
            write_jsonl(sd.file("solutions.jsonl"), kept)
            write_jsonl(
                sd.file("rejects.jsonl"),
                # the stage's reason category; its own sentence (naming the twin) is the detail
                [{**r, "reason": f"{r['kind']}-duplicate", "detail": r["reason"]} for r in removed],
            )
            write_text_atomic(sd.file("params.json"), json.dumps(result.params, indent=1) + "\n")
            return counts

        return self._run("dedup", body)

    def run_filters(self) -> dict:
        from quicksilver.stages.filters import filter_stage

        def body(sd: StageDir) -> StageCounts:
            tasks = read_jsonl(self.dir("load").file("tasks.jsonl"))
            sols = read_jsonl(self.dir("dedup").file("solutions.jsonl"))
            out = filter_stage(tasks, sols, min_solutions_=self.cfg.filters.min_solutions)
            write_jsonl(sd.file("tasks.jsonl"), out["tasks"])
            write_jsonl(sd.file("solutions.jsonl"), out["solutions"])
            write_jsonl(sd.file("rejects.jsonl"), out["rejects"])
            return out["counts"]

        return self._run("filters", body)

    def run_generators(self) -> dict:
        from quicksilver.stages.synthesis import synthesis_stage

        def body(sd: StageDir) -> StageCounts:
            tasks = read_jsonl(self.dir("filters").file("tasks.jsonl"))
            sols = read_jsonl(self.dir("filters").file("solutions.jsonl"))
            out = synthesis_stage(
                tasks,
                sols,
                self.cfg.synthesis,
                sandbox=self.cfg.sandbox,
                seed=self.cfg.testcases.seed,
            )
            write_jsonl(sd.file("generators.jsonl"), out["generators"])
            write_jsonl(sd.file("tasks.jsonl"), out["tasks"])
            write_jsonl(sd.file("solutions.jsonl"), out["solutions"])
            write_jsonl(sd.file("rejects.jsonl"), out["rejects"])
            return out["counts"]

        return self._run("generators", body)

    def _select(self, name: str, slugs: list[str]) -> list[dict[str, Any]]:
        wanted = set(slugs)
        return [r for r in read_jsonl(self.dir("generators").file(name)) if r["slug"] in wanted]

    def run_testcases(self, part: str, slugs: list[str]) -> dict:
        from quicksilver.stages.testcases import testcases_shard

        def body(sd: StageDir) -> StageCounts:
            out = testcases_shard(
                self._select("tasks.jsonl", slugs),
                self._select("solutions.jsonl", slugs),
                self._select("generators.jsonl", slugs),
                self.cfg.testcases,
                sandbox=self.cfg.sandbox,
            )
            write_jsonl(sd.file(f"{part}.jsonl"), out["records"])
            write_jsonl(sd.file(f"{part}.rejects.jsonl"), out["rejects"])
            return out["counts"]

        return self._run("testcases", body, part, slugs)

    def run_uniqueness(self, part: str, slugs: list[str]) -> dict:
        from quicksilver.stages.uniqueness import uniqueness_shard

        def body(sd: StageDir) -> StageCounts:
            out = uniqueness_shard(
                self._select("tasks.jsonl", slugs),
                self._select("solutions.jsonl", slugs),
                read_jsonl(self.dir("testcases").file(f"{part}.jsonl")),
                tol=self.cfg.uniqueness.double_rel_tol,
                min_solutions_=self.cfg.filters.min_solutions,
                margin=self.cfg.uniqueness.plurality_margin,
                min_support=self.cfg.uniqueness.plurality_min_support,
            )
            write_jsonl(sd.file(f"{part}.jsonl"), out["records"])
            write_jsonl(sd.file(f"{part}.solutions.jsonl"), out["solutions"])
            write_jsonl(sd.file(f"{part}.rejects.jsonl"), out["rejects"])
            return out["counts"]

        return self._run("uniqueness", body, part, slugs)

    def run_profile(self, part: str, slugs: list[str]) -> dict:
        from quicksilver.stages.profile import profile_shard

        def body(sd: StageDir) -> StageCounts:
            out = profile_shard(
                self._select("tasks.jsonl", slugs),
                read_jsonl(self.dir("uniqueness").file(f"{part}.solutions.jsonl")),
                read_jsonl(self.dir("uniqueness").file(f"{part}.jsonl")),
                self.cfg.profile,
                min_solutions_=self.cfg.filters.min_solutions,
            )
            write_jsonl(sd.file(f"{part}.jsonl"), out["records"])
            write_jsonl(sd.file(f"{part}.solutions.jsonl"), out["solutions"])
            write_jsonl(sd.file(f"{part}.rejects.jsonl"), out["rejects"])
            return out["counts"]

        return self._run("profile", body, part, slugs)

    def _profiled(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        records, sols = [], []
        for name in self.shard_names():
            records.extend(read_jsonl(self.dir("profile").file(f"{name}.jsonl")))
            sols.extend(read_jsonl(self.dir("profile").file(f"{name}.solutions.jsonl")))
        return records, sols

    def run_splits(self) -> dict:
        from quicksilver.stages.splits import split_tasks

        def body(sd: StageDir) -> StageCounts:
            records, sols = self._profiled()
            tasks = {t["slug"]: t for t in read_jsonl(self.dir("generators").file("tasks.jsonl"))}
            rows = [
                {"slug": r["slug"], "difficulty": tasks[r["slug"]]["difficulty"]} for r in records
            ]
            splits, notes = split_tasks(
                rows, eval_size=self.cfg.splits.eval_size, seed=self.cfg.splits.seed
            )
            write_text_atomic(
                sd.file("splits.json"),
                json.dumps(
                    {"splits": splits, "notes": notes, "seed": self.cfg.splits.seed}, indent=1
                )
                + "\n",
            )
            n = len(records)
            return StageCounts("splits", n, n, len(sols), len(sols), notes=notes)

        return self._run("splits", body)

    def card_context(
        self,
        funnel: list[dict[str, Any]],
        meter: str,
        unit: str,
        machine: dict[str, Any],
        *,
        seeds: dict[str, Any],
        notes: list[str],
    ) -> Any:
        """The dataset card's context: this build's name, config, funnel, machine and seeds."""
        from quicksilver.publishing.card import CardContext

        return CardContext(
            name=self.cfg.name,
            funnel=funnel,
            parameters=self.cfg.digest_view(),
            meter=meter,
            unit=unit,
            machine=machine,
            seeds={"test_cases": self.cfg.testcases.seed, **seeds, "dedup": self.cfg.dedup.seed},
            notes=notes,
            built_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            quicksilver_version=__version__,
        )

    def publish_dataset(
        self,
        records: list[dict[str, Any]],
        solutions: list[dict[str, Any]],
        tasks: dict[str, dict[str, Any]],
        generators: dict[str, dict[str, Any]],
        split_info: dict[str, Any],
        funnel: list[dict[str, Any]],
        *,
        machine: dict[str, Any],
        out_dir: Path,
    ) -> tuple[StageCounts, list[dict[str, Any]]]:
        """Rows from the profile records, then the valid ones written to ``out_dir`` (see
        :func:`~quicksilver.publishing.writer.publish_valid`): the stage's counts and rejects.

        A task whose row cannot be made (``row-error``) or does not fit the schema
        (``invalid-row``) is set aside with its solutions; the others are published. The preflight
        runs this on an example (:meth:`check_publish`), so a mismatch between the rows and the
        schema or the card shows before the build, not after it.
        """
        from quicksilver.publishing.writer import publish_valid, row_rejects
        from quicksilver.stages.rows import mercury_row

        config_sha = json_digest(self.cfg.digest_view())
        by_slug: dict[str, list[dict[str, Any]]] = {}
        for s in solutions:
            by_slug.setdefault(s["slug"], []).append(s)
        counts = StageCounts("publish", tasks_in=len(records), solutions_in=len(solutions))
        rejects: list[dict[str, Any]] = []
        rows: dict[str, dict[str, Any]] = {}
        for r in records:
            slug = r["slug"]
            try:
                rows[slug] = mercury_row(
                    tasks[slug],
                    generators[slug],
                    r,
                    by_slug[slug],
                    machine=machine,
                    version=__version__,
                    config_sha256=config_sha,
                )
            except Exception as exc:  # one bad record must not cost the whole dataset
                detail = f"{slug}: no row could be made: {type(exc).__name__}: {exc}"
                log.warning("publish: %s", detail)
                counts.notes.append(f"{slug} left out: {type(exc).__name__}: {exc}")
                lost = [
                    {"hash": s["hash"], "solution": s.get("code")} for s in by_slug.get(slug, [])
                ]
                rejects += row_rejects(slug, lost, "row-error", detail)
        splits = {
            name: [rows[s] for s in slugs if s in rows]
            for name, slugs in split_info["splits"].items()
        }
        meter = records[0]["meter"] if records else self.cfg.profile.measure.meter
        unit = records[0]["unit"] if records else ""
        card = self.card_context(
            funnel,
            meter,
            unit,
            machine,
            seeds={"splits": self.cfg.splits.seed},
            notes=[*split_info.get("notes", []), *counts.notes],
        )
        published = publish_valid(splits, out_dir, card)
        rejects += published.rejects
        counts.notes += published.notes
        for r in rejects:
            if "hash" not in r:
                counts.drops[r["reason"]] += 1
        out = [row for part in published.splits.values() for row in part]
        counts.tasks_out = len(out)
        counts.solutions_out = sum(len(row["solutions"]) for row in out)
        return counts, rejects

    def run_publish(self, funnel: list[dict[str, Any]]) -> dict:
        def body(sd: StageDir) -> StageCounts:
            records, sols = self._profiled()
            tasks = {t["slug"]: t for t in read_jsonl(self.dir("generators").file("tasks.jsonl"))}
            gens = {
                g["slug"]: g for g in read_jsonl(self.dir("generators").file("generators.jsonl"))
            }
            split_info = json.loads(self.dir("splits").file("splits.json").read_text())
            counts, rejects = self.publish_dataset(
                records,
                sols,
                tasks,
                gens,
                split_info,
                funnel,
                machine=machine_info(),
                out_dir=self.root,
            )
            write_jsonl(sd.file("rejects.jsonl"), rejects)
            return counts

        return self._run("publish", body)

    def _publish_example(self, out_dir: Path) -> tuple[StageCounts, list[dict[str, Any]]]:
        """:meth:`publish_dataset` of the example task (quicksilver/stages/example.py), in the
        split this build's splits stage would put it, measured with this build's meter."""
        from quicksilver.meters import METERS
        from quicksilver.stages import example

        meter = self.cfg.profile.measure.meter
        # what split_tasks makes of one Easy task (eval draws Easy first), without its notes
        split = "eval" if self.cfg.splits.eval_size else "train"
        return self.publish_dataset(
            [example.profile_record(meter, METERS[meter].unit)],
            example.solutions(),
            {example.SLUG: example.task()},
            {example.SLUG: example.generator()},
            {"splits": {split: [example.SLUG]}, "notes": []},
            example.funnel(self.STAGES),
            machine=machine_info(),
            out_dir=out_dir,
        )

    def check_publish(self, out_dir: Path) -> None:
        """Run the publish stage on the example task into ``out_dir`` (a folder of its own), then
        read the dataset back as ``quicksilver publish`` does (every row validated against the
        published features, the card's front matter parsed) and as ``quicksilver score`` does.
        Raises the first problem; the preflight calls this before the first stage."""
        from quicksilver.publishing.hub import load_published
        from quicksilver.records import load_records

        counts, rejects = self._publish_example(out_dir)
        if rejects:
            raise ValueError(f"the example row is set aside: {rejects[0]['detail']}")
        if counts.tasks_out != 1:
            raise ValueError(f"the example task was not published ({'; '.join(counts.notes)})")
        load_published(out_dir)
        loaded = load_records(out_dir)
        if len(loaded.records) != 1:
            why = "; ".join(f"{r.source}: {r.reason}" for r in loaded.rejects)
            raise ValueError(f"the published example does not load for scoring: {why}")

    # -- report ---------------------------------------------------------------------------------

    def funnel(self) -> list[dict[str, Any]]:
        """Counts in and out of every stage (shards merged), in pipeline order.

        Each row is the stage's :class:`StageCounts` (``drops``: per reason, in the stage's own
        unit) plus what its rejects files say per reason (:func:`~quicksilver.funnel.
        tally_rejects`): ``drop_tasks``, the tasks dropped, and ``drop_solutions``, the solutions
        dropped, those lost with a dropped task included. Only finished stages and shards count.
        """
        from quicksilver.funnel import RejectTally, tally_rejects_file

        out = []
        shard_names = self.shard_names()
        for stage in self.STAGES:
            sd = self.dir(stage)
            parts = shard_names if stage in self.SHARDED else [""]
            found = [(p, i) for p, i in ((p, sd.manifest(p)) for p in parts) if i is not None]
            if not found:
                continue
            part_counts = [(p, StageCounts.from_dict(i["counts"])) for p, i in found]
            counts = StageCounts.merge(stage, (c for _, c in part_counts))
            seconds = sum(i.get("seconds", 0.0) for _, i in found)
            tally = RejectTally()
            for part, c in part_counts:
                name = f"{part}.rejects.jsonl" if part else "rejects.jsonl"
                tally.update(tally_rejects_file(sd.file(name), c.tasks_in - c.tasks_out))
            out.append(
                {
                    **counts.to_dict(),
                    "drop_tasks": dict(sorted((+tally.tasks).items())),
                    "drop_solutions": dict(sorted((+tally.solutions).items())),
                    "seconds": round(seconds, 3),
                }
            )
        return out
