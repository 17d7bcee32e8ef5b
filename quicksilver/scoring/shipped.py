"""Shipped counts: the references' instruction counts a dataset carries, reused where this machine
counts alike.

A Mercury row built with the ``icount`` meter carries each reference's exact count
(``reference_runtimes``), its memory figures (``reference_peak_memory``,
``reference_memory_detail``) and the digest of what those counts depend on
(``count_fingerprint``, :mod:`quicksilver.count_fingerprint`). Every machine whose own digest is
the same counts those references alike, so counting them again is wasted work (a cold scoring
of the bundled eval split spent almost all of its time there). When the digests match,
:func:`offer_shipped` first re-counts a seeded sample of tasks here, every reference of each
(at least :data:`CONFIRM_MIN` references, and :data:`CONFIRM_SHARE` of them), in one zygote
per task in the row's order, as the build counts them. Every one agrees (:func:`agrees`: within
0.1%, above what a child's position in its zygote moves a count by), and the
rest are taken as shipped; any one that does not, and nothing shipped is used, every reference
is counted here, and the report says which differed. A digest that
differs is named part by part in the report (``interpreter.sha256``, ``qemu.version``, ...),
and the references are counted as before.

The dataset is not trusted more than that: a forged count outside the re-counted sample would
go unseen, which is why the sample is drawn from a fresh seed in every run (recorded in the
report; a fixed seed would tell a forger which counts are never checked), and why
``--no-shipped-counts`` counts everything.
"""

from __future__ import annotations

import json
import logging
import math
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from quicksilver.count_fingerprint import count_environment, differences
from quicksilver.profiler import Job, ProfileTask
from quicksilver.rows import TaskRow
from quicksilver.samples import Sample
from quicksilver.sandbox.isolation import SandboxUnavailable, resolve
from quicksilver.scoring.runs import ScoringRun, profile_keyed

log = logging.getLogger(__name__)

CONFIRM_MIN = 3
CONFIRM_SHARE = 0.05
# How far a re-count may be from a shipped count and still confirm it. Counts are exact for one
# arrangement of one build, but a child's count moves with its position in its zygote
# (docs/profiler.md): a few hundred instructions on the bench's small tasks, up to ~0.8% on a
# 168K-instruction loop, and on the bundled linked-list tasks up to 21,417 instructions (0.0044%,
# reverse-in-groups) and 0.0063% (merge-sorted-chains) between the build and a re-count, where
# node objects are hashed by address; a solution that runs for billions of instructions was also
# seen to count a few dozen more or less between two builds. 0.1% (or 5,000 instructions, about
# 1 us) lies above all of them and far below anything a score resolves; a forged count that
# matters does not fit in it.
SLACK_INSTRUCTIONS = 5_000
SLACK_SHARE = 1e-3


@dataclass
class ShippedCounts:
    """What scoring did with the counts a dataset shipped (the report's ``shipped_counts``)."""

    fingerprint: str = ""  # this machine's
    offered: int = 0  # references whose counts the rows ship with a matching fingerprint
    used: int = 0  # taken as shipped (not counted here)
    seed: int = 0
    recounted: int = 0  # references re-counted here (every one of the sampled tasks)
    confirmed: list[str] = field(default_factory=list)  # re-counted here and equal
    mismatches: list[str] = field(default_factory=list)
    reason: str | None = None  # why shipped counts were (partly) not used

    def to_dict(self) -> dict[str, Any]:
        return {
            "fingerprint": self.fingerprint,
            "offered": self.offered,
            "used": self.used,
            "seed": self.seed,
            "recounted": self.recounted,
            "confirmed": self.confirmed,
            "mismatches": self.mismatches,
            "reason": self.reason,
        }


def _by_hash(entries: Any) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for entry in entries or []:
        if isinstance(entry, dict) and "hash" in entry:
            out[int(entry["hash"])] = entry
    return out


def _shipped_summary(
    runtime: Mapping[str, Any],
    memory: Mapping[str, Any],
    detail: Mapping[str, Any],
    isolation: str,
) -> dict[str, Any]:
    """A reference's shipped figures in the form scoring reads a reference run
    (:func:`~quicksilver.scoring.runs.run_summary`)."""
    return {
        "status": "passed",
        "runtime": float(runtime["runtime"]),
        "flags": list(runtime.get("flags") or []),
        "error": None,
        "runtime_ci": None,
        "peak_memory_bytes": memory.get("peak_memory_bytes"),
        "memory_baseline_bytes": detail.get("memory_baseline_bytes"),
        "tmu": detail.get("tmu"),
        "tmu_samples": detail.get("tmu_samples"),
        "meter": "icount",
        "unit": "instructions",
        "isolation": isolation,  # the fingerprint covers it: the build's mode was this one
    }


def _row_environment(extra: Mapping[str, Any]) -> dict[str, Any]:
    try:
        env = json.loads(extra.get("count_environment") or "{}")
    except (TypeError, ValueError):
        return {}
    compared = env.get("compared") if isinstance(env, dict) else None
    return compared if isinstance(compared, dict) else {}


Candidate = tuple[str, str, ProfileTask, str, dict[str, Any]]
"""(cache key, task#hash, task, code, shipped summary) of one reference."""


def _candidates(
    rows: Mapping[str, tuple[TaskRow, list[Sample]]],
    tasks: Mapping[str, ProfileTask],
    run: ScoringRun,
    report: ShippedCounts,
) -> dict[str, list[Candidate]]:
    """Per task, its references in the row's order, when the row ships a count for every one
    under this machine's fingerprint."""
    try:
        mode = resolve(run.sandbox).mode
    except SandboxUnavailable:
        return {}  # nothing runs here at all: scoring says so when it profiles a sample
    ours = count_environment(mode)
    report.fingerprint = ours["digest"]
    out: dict[str, list[Candidate]] = {}
    unlike: dict[str, list[str]] = {}
    for key, (rec, _) in rows.items():
        extra = rec.model_extra or {}
        theirs = extra.get("count_fingerprint")
        if not theirs or extra.get("runtime_meter") != "icount":
            continue
        if theirs != ours["digest"]:
            parts = differences(ours["compared"], _row_environment(extra)) or ["count_fingerprint"]
            unlike.setdefault(", ".join(parts), []).append(key)
            continue
        runtimes = _by_hash(extra.get("reference_runtimes"))
        memory = _by_hash(extra.get("reference_peak_memory"))
        detail = _by_hash(extra.get("reference_memory_detail"))
        refs: list[Candidate] = []
        for sol in rec.solutions:
            h = int(sol.hash)
            if h not in runtimes:
                break
            ck = run.cache.key(sol.solution, tasks[key], run.meter)
            try:
                summary = _shipped_summary(runtimes[h], memory.get(h, {}), detail.get(h, {}), mode)
            except (KeyError, TypeError, ValueError) as exc:
                # a row that ships an unreadable count: its task is counted here, the rest go on
                log.warning(
                    "%s: reference_runtimes of solution %s unreadable (%r): counted here",
                    key,
                    sol.hash,
                    exc,
                )
                refs = []
                break
            refs.append((ck, f"{key}#{sol.hash}", tasks[key], sol.solution, summary))
        else:
            if refs:
                out[key] = refs
    if unlike:
        report.reason = "; ".join(
            f"{len(keys)} task(s) counted here: their count environment differs from this "
            f"machine's in {parts}"
            for parts, keys in sorted(unlike.items())
        )
    return out


def agrees(counted: float, shipped: float) -> bool:
    """Whether a re-count confirms a shipped count: within :data:`SLACK_INSTRUCTIONS`, or
    :data:`SLACK_SHARE` of the count when that is more."""
    return abs(counted - shipped) <= max(SLACK_INSTRUCTIONS, SLACK_SHARE * abs(shipped))


def _recount(refs: dict[str, list[Candidate]], run: ScoringRun) -> dict[str, list[str]]:
    """Count the references of ``refs`` here (a task's references in one zygote, in the row's
    order, as the build counts a task that is not heavy) and return per task the ones that do
    not agree with what was shipped (``task#hash: shipped X, counted Y``)."""
    jobs: list[Job] = []
    for key, task_refs in refs.items():
        for ck, _name, task, code, _summary in task_refs:
            jobs.append(Job(task, code, f"{key}\0{ck}", 0.0))  # weight 0: never split
    counted = profile_keyed(jobs, run.meter, run.sandbox, run.measure, run.workers)
    differ: dict[str, list[str]] = {}
    for key, task_refs in refs.items():
        for ck, name, _task, _code, summary in task_refs:
            res = counted[f"{key}\0{ck}"]
            if res.passed and res.runtime is not None and agrees(res.runtime, summary["runtime"]):
                continue
            got = f"{res.runtime:.0f}" if res.passed and res.runtime is not None else res.status
            differ.setdefault(key, []).append(
                f"{name}: shipped {summary['runtime']:.0f}, counted {got}"
            )
    return differ


def _confirm_sample(refs: dict[str, list[Candidate]], seed: int) -> list[str]:
    """Tasks drawn with ``seed`` until their references number at least :data:`CONFIRM_MIN`
    and :data:`CONFIRM_SHARE` of all shipped ones."""
    total = sum(len(r) for r in refs.values())
    want = min(total, max(CONFIRM_MIN, math.ceil(CONFIRM_SHARE * total)))
    order = sorted(refs)
    random.Random(seed).shuffle(order)
    chosen: list[str] = []
    for key in order:
        if sum(len(refs[k]) for k in chosen) >= want:
            break
        chosen.append(key)
    return sorted(chosen)


def offer_shipped(
    rows: Mapping[str, tuple[TaskRow, list[Sample]]],
    tasks: Mapping[str, ProfileTask],
    run: ScoringRun,
    *,
    use: bool = True,
    seed: int | None = None,
) -> ShippedCounts | None:
    """Offer the Mercury rows' shipped counts to ``run.cache`` after confirming a seeded sample
    of tasks here (every reference of a sampled task re-counted, in the build's arrangement);
    None when no row ships counts (or the meter is not icount)."""
    if run.meter != "icount" or not any(
        (rec.model_extra or {}).get("count_fingerprint") for rec, _ in rows.values()
    ):
        return None
    # A fresh seed every run (recorded): a seed known in advance would tell a dataset's author
    # which counts nobody checks. The score does not depend on it when the counts are honest.
    seed = secrets.randbelow(2**31) if seed is None else seed
    report = ShippedCounts(seed=seed)
    if not use or not run.cache.enabled:
        flag = "--no-shipped-counts" if not use else "--recollect"
        report.reason = f"not used ({flag}): every reference counted here"
        return report
    refs = _candidates(rows, tasks, run, report)
    report.offered = sum(len(r) for r in refs.values())
    if not refs:
        return report
    sample = {key: refs[key] for key in _confirm_sample(refs, seed)}
    report.recounted = sum(len(r) for r in sample.values())
    differ = _recount(sample, run)
    for key, task_refs in sample.items():
        if key not in differ:
            report.confirmed += [name for _ck, name, _t, _c, _s in task_refs]
    if differ:
        report.mismatches = [line for key in sorted(differ) for line in differ[key]]
        why = (
            f"{len(report.mismatches)} of {report.recounted} re-counted references differ from "
            f"the shipped counts ({report.mismatches[0]}): every reference counted here"
        )
        report.reason = why if report.reason is None else f"{why}; {report.reason}"
        log.warning("shipped counts not used: %s", why)
        return report
    for task_refs in refs.values():
        for ck, _name, _task, _code, summary in task_refs:
            run.cache.offer(ck, run.meter, summary)
    report.used = sum(len(r) for k, r in refs.items() if k not in sample)
    log.info(
        "shipped counts: %d reference(s) taken as shipped, %d re-counted here and equal "
        "(fingerprint %s, seed %d)",
        report.used,
        len(report.confirmed),
        report.fingerprint,
        seed,
    )
    return report
