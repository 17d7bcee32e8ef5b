"""Can a build run here? One check before the first stage, one clear line when it cannot.

:func:`check_build_ready` runs every check of :data:`BUILD_CHECKS` in order and raises
:class:`NotReady` with the first problem found, as one line. Nothing is written before or by the
checks in the build's folders (the output folder's check creates and removes a temporary file;
the publish check writes its example dataset to a temporary folder of its own and removes it), so
a build that stops here leaves no stage folder behind.

Every check that could fail after the long stages runs here too, before them: the snapshots hold
a question (and the ``only`` slugs are among them), the output folder takes files, and the publish
stage itself runs on an example task (:meth:`Runner.check_publish`): rows made by the build's
own code and validated against the published features, the card rendered from the build's
configuration and its template, the dataset written and read back as ``quicksilver publish`` and
``quicksilver score`` read it. Settings that cannot fail but may surprise (an ``eval_size`` as
large as the snapshots) are logged as a warning. A build never pushes to the Hub, so there are no
Hub settings to check: ``quicksilver publish`` checks its own before any request.

A check is a function ``(cfg) -> str | None``: the problem in words, or None when all is well.
To add one (a meter's readiness, say), write such a function and append it to BUILD_CHECKS; the
flows and their command line pick it up.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from quicksilver.config import BuildConfigBase, MeasureConfig, SandboxConfig
from quicksilver.fsutil import WriteError, check_writable_dir, is_storage_error
from quicksilver.pipeline.stage import NEEDS_SOLUTIONS

log = logging.getLogger(__name__)
T = TypeVar("T")


class NotReady(RuntimeError):
    """This machine or this configuration cannot run the build; the message is one line."""


Check = Callable[[BuildConfigBase], str | None]


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _sections_of(cfg: BaseModel, kind: type[T], prefix: str = "") -> list[tuple[str, T]]:
    """Every ``kind`` the config holds, with its dotted key, in the config's order."""
    found: list[tuple[str, T]] = []
    for name in type(cfg).model_fields:
        value = getattr(cfg, name)
        key = f"{prefix}{name}"
        if isinstance(value, kind):
            found.append((key, value))
        elif isinstance(value, BaseModel):
            found += _sections_of(value, kind, f"{key}.")
    return found


def _sandbox_configs(cfg: BuildConfigBase) -> list[tuple[str, SandboxConfig]]:
    """The sandbox settings the build runs untrusted code with (config key, settings)."""
    return _sections_of(cfg, SandboxConfig)


def sandbox_check(cfg: BuildConfigBase) -> str | None:
    """Untrusted code can run: the isolation the config asks for works (a real trial run)."""
    from quicksilver.sandbox import isolation

    for key, sandbox in _sandbox_configs(cfg):
        try:
            chosen = isolation.resolve(sandbox)
        except isolation.SandboxUnavailable as exc:
            if sandbox.isolation in ("auto", "bwrap"):
                ok, detail = isolation.probe_bwrap()
                if not ok:  # the probe's own words: what is missing and how to get it
                    return f"cannot run untrusted code here: {_one_line(detail)}"
            return f"cannot run untrusted code here ({key}): {_one_line(str(exc))}"
        log.info("sandbox for %s: %s (%s)", key, chosen.mode, chosen.detail)
    return None


def _question_files(cfg: BuildConfigBase) -> list[Path]:
    from quicksilver.sources.snapshot import iter_snapshot_paths

    return [p for folder in cfg.snapshots for p in iter_snapshot_paths(folder)]


def _slugs_in(files: list[Path], wanted: list[str]) -> set[str]:
    """Which of ``wanted`` the question files hold. Files are named after their slug
    (docs/snapshot-format.md); only when a name is not found that way are the files read."""
    found = set(wanted) & {p.stem for p in files}
    if found == set(wanted):
        return found
    for path in files:
        try:
            slug = json.loads(path.read_text(encoding="utf-8"))["question"]["titleSlug"]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # the load stage sets a malformed file aside with its reason
        if slug in wanted:
            found.add(slug)
    return found


def snapshots_check(cfg: BuildConfigBase) -> str | None:
    """Every snapshot folder exists and is a folder, together they hold a question file, and
    ``only``, when given, names at least one of their questions (a build of none of them would
    run every stage to publish nothing). A name of ``only`` that is not there is a warning."""
    for folder in cfg.snapshots:
        path = Path(folder)
        if not path.exists():
            return f"snapshot folder {path} does not exist (snapshots in the config)"
        if not path.is_dir():
            return f"snapshot folder {path} is not a folder (snapshots in the config)"
    files = _question_files(cfg)
    if not files:
        where = ", ".join(str(p) for p in cfg.snapshots)
        return f"no question file (*.json) in the snapshot folder(s) {where} (snapshots)"
    if cfg.only is not None:
        if not cfg.only:
            return "only is an empty list: no task would be built (leave it out to build all)"
        found = _slugs_in(files, cfg.only)
        missing = [s for s in cfg.only if s not in found]
        if not found:
            listed = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
            return f"none of the {len(missing)} slug(s) in only is in the snapshots: {listed}"
        if missing:
            log.warning("only: %s not in the snapshots; built without them", ", ".join(missing))
    return None


def _solutions_per_question(files: list[Path], only: list[str] | None) -> dict[str, int]:
    """Python 3 solutions per question of the snapshot files (unreadable files left out: the load
    stage sets them aside with their reason)."""
    out: dict[str, int] = {}
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            slug = str(data["question"]["titleSlug"])
            sols = data.get("solutions") or []
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if only is not None and slug not in only:
            continue
        out[slug] = sum(isinstance(s, dict) and s.get("lang", "python3") == "python3" for s in sols)
    return out


def solutions_check(cfg: BuildConfigBase) -> str | None:
    """A DPE build clusters solutions by cost, so a task needs several (``filters.min_solutions``
    and ``selection.min_solutions``). When no question of the snapshots has enough and nothing
    adds solutions (no LLM endpoint, no sample file), the build stops here, saying so, rather than
    run every stage to publish nothing: HumanEval alone, one canonical solution per task, is that
    case. Where only some questions lack solutions, a warning says how many."""
    candidates = getattr(cfg, "candidates", None)
    selection = getattr(cfg, "selection", None)
    if candidates is None or selection is None:  # not a DPE build
        return None
    need = max(cfg.filters.min_solutions, selection.min_solutions)  # type: ignore[attr-defined]
    counts = _solutions_per_question(_question_files(cfg), cfg.only)
    if not counts:
        return None  # snapshots_check says what is wrong
    short = sorted(s for s, n in counts.items() if n < need)
    adds = candidates.sample_files or (candidates.llm.resolved().configured and candidates.n > 0)
    if len(short) == len(counts) and not adds:
        most = max(counts.values())
        return (
            f"every one of the {len(counts)} question(s) has fewer than {need} solutions (at most "
            f"{most}; filters.min_solutions / selection.min_solutions), and nothing adds any: the "
            f"DPE build needs several solutions per task to cluster them by cost; {NEEDS_SOLUTIONS}"
        )
    if short:
        log.warning(
            "%d of %d question(s) have fewer than %d solutions in the snapshots (%s%s)%s",
            len(short),
            len(counts),
            need,
            ", ".join(short[:5]),
            ", ..." if len(short) > 5 else "",
            "; the candidates stage may add some"
            if adds
            else f": they will be dropped; {NEEDS_SOLUTIONS}",
            # checked before any flow run exists: not for a Prefect API log handler (the stage
            # that drops them says so in the run)
            extra={"send_to_api": False},
        )
    return None


def output_check(cfg: BuildConfigBase) -> str | None:
    """The output folder (or, when it does not exist yet, its nearest parent) takes files."""
    try:
        check_writable_dir(cfg.out_dir, create=True, probe_bytes=4096)
    except WriteError as exc:
        return f"output folder {cfg.out_dir}: cannot write: {exc.reason}"
    return None


def _meters(cfg: BuildConfigBase) -> list[tuple[str, str]]:
    """The meters the build measures with (config key, meter name)."""
    return [(f"{key}.meter", m.meter) for key, m in _sections_of(cfg, MeasureConfig)]


def meter_check(cfg: BuildConfigBase) -> str | None:
    """Every meter the config names works here (icount: qemu-user, gcc for its plugin)."""
    from quicksilver.meters import METERS

    for key, name in dict.fromkeys(_meters(cfg)):
        status = METERS[name].probe()
        if not status.available:
            return f"the {name} meter ({key}) cannot run here: {_one_line(status.detail)}"
    return None


def splits_check(cfg: BuildConfigBase) -> str | None:
    """Nothing to stop for: the splits stage leaves an empty split out of the dataset (with a
    note) instead of failing. When ``splits.eval_size`` is at least the number of questions, the
    build is told now that train may come out empty."""
    splits = getattr(cfg, "splits", None)
    if splits is None:  # a build without a splits stage (DPE)
        return None
    files = _question_files(cfg)
    questions = len(_slugs_in(files, cfg.only)) if cfg.only is not None else len(files)
    if questions and splits.eval_size is not None and splits.eval_size >= questions:
        log.warning(
            "splits.eval_size %d is at least the %d question(s) to build: train gets only what "
            "eval's per-difficulty quotas leave, maybe nothing (an empty split is left out of "
            "the dataset, with a note)",
            splits.eval_size,
            questions,
        )
    return None


_LONGEST = 400


def publish_check(cfg: BuildConfigBase) -> str | None:
    """The publish stage works: it runs on an example task into a temporary folder and its
    dataset is read back (see :meth:`~quicksilver.pipeline.runner.Runner.check_publish`)."""
    import tempfile

    from quicksilver.builds import build_for
    from quicksilver.pipeline.runner import Runner

    build = Runner(build_for(cfg), cfg)
    try:
        scratch = tempfile.TemporaryDirectory(prefix="quicksilver-preflight-")
    except OSError as exc:
        log.warning("publish check skipped: no temporary folder for its example: %s", exc)
        return None
    with _quiet(), scratch as tmp:
        try:
            build.check_publish(Path(tmp) / "dataset")
        except Exception as exc:  # any failure here would have come after the whole build
            if is_storage_error(exc):  # the temporary folder's disk, not the build's
                log.warning("publish check skipped: its temporary folder cannot take it: %s", exc)
                return None
            log.debug("the publish check failed", exc_info=True)
            text = _one_line(f"{type(exc).__name__}: {exc}")
            if len(text) > _LONGEST:
                text = text[: _LONGEST - 3] + "..."
            return f"the publish stage would fail after the build: {text}"
    return None


_CHATTY = ("quicksilver.publishing", "quicksilver.rows")


@contextmanager
def _quiet() -> Iterator[None]:
    """No progress bars from ``datasets`` and no log lines about the example while it is written
    and read: they would read as the build's own, and a problem is the check's one line. The
    settings are restored after."""
    import datasets

    was = datasets.is_progress_bar_enabled()
    levels = {name: logging.getLogger(name).level for name in _CHATTY}
    datasets.disable_progress_bars()
    for name in _CHATTY:
        logging.getLogger(name).setLevel(logging.ERROR)
    try:
        yield
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)
        if was:
            datasets.enable_progress_bars()


BUILD_CHECKS: list[Check] = [
    sandbox_check,
    meter_check,
    snapshots_check,
    output_check,  # before solutions_check, whose warning is moot when the build cannot write
    solutions_check,
    splits_check,
    publish_check,
]
"""What a build needs, checked in this order; append new checks here."""


def check_build_ready(cfg: BuildConfigBase, checks: list[Check] | None = None) -> None:
    """Raise :class:`NotReady` (one line) unless the build can run; writes nothing."""
    for check in BUILD_CHECKS if checks is None else checks:
        problem = check(cfg)
        if problem:
            raise NotReady(_one_line(problem))
