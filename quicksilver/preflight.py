"""Can a build run here? One check before the first stage, one clear line when it cannot.

:func:`check_build_ready` runs every check of :data:`BUILD_CHECKS` in order and raises
:class:`NotReady` with the first problem found, as one line. Nothing is written before or by the
checks (the output folder's check creates and removes a temporary file), so a build that stops
here leaves no stage folder behind.

A check is a function ``(cfg) -> str | None``: the problem in words, or None when all is well.
To add one (a meter's readiness, say), write such a function and append it to BUILD_CHECKS; the
flows and their command line pick it up.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from quicksilver.config import SandboxConfig
from quicksilver.fsutil import WriteError, check_writable_dir
from quicksilver.stages.config import BuildConfig

log = logging.getLogger(__name__)


class NotReady(RuntimeError):
    """This machine or this configuration cannot run the build; the message is one line."""


Check = Callable[[BuildConfig], str | None]


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _sandbox_configs(cfg: BuildConfig) -> list[tuple[str, SandboxConfig]]:
    """The sandbox settings the build runs untrusted code with (config key, settings)."""
    found = [("profile.sandbox", cfg.profile.sandbox)]
    pe_profile = getattr(cfg, "pe_profile", None)  # the DPE build's profiling sandbox
    if pe_profile is not None:
        found.append(("pe_profile.sandbox", pe_profile.sandbox))
    return found


def sandbox_check(cfg: BuildConfig) -> str | None:
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


def snapshots_check(cfg: BuildConfig) -> str | None:
    """Every snapshot folder exists and is a folder."""
    for folder in cfg.snapshots:
        path = Path(folder)
        if not path.exists():
            return f"snapshot folder {path} does not exist (snapshots in the config)"
        if not path.is_dir():
            return f"snapshot folder {path} is not a folder (snapshots in the config)"
    return None


def output_check(cfg: BuildConfig) -> str | None:
    """The output folder (or, when it does not exist yet, its nearest parent) takes files."""
    try:
        check_writable_dir(cfg.out_dir, create=True, probe_bytes=4096)
    except WriteError as exc:
        return f"output folder {cfg.out_dir}: cannot write: {exc.reason}"
    return None


def _meters(cfg: BuildConfig) -> list[tuple[str, str]]:
    """The meters the build measures with (config key, meter name)."""
    found = [("profile.measure.meter", cfg.profile.measure.meter)]
    pe_profile = getattr(cfg, "pe_profile", None)
    if pe_profile is not None:
        found.append(("pe_profile.measure.meter", pe_profile.measure.meter))
    return found


def meter_check(cfg: BuildConfig) -> str | None:
    """Every meter the config names works here (icount: qemu-user, gcc for its plugin)."""
    from quicksilver.meters import METERS

    for key, name in dict.fromkeys(_meters(cfg)):
        status = METERS[name].probe()
        if not status.available:
            return f"the {name} meter ({key}) cannot run here: {_one_line(status.detail)}"
    return None


BUILD_CHECKS: list[Check] = [sandbox_check, meter_check, snapshots_check, output_check]
"""What a build needs, checked in this order; append new checks here."""


def check_build_ready(cfg: BuildConfig, checks: list[Check] | None = None) -> None:
    """Raise :class:`NotReady` (one line) unless the build can run; writes nothing."""
    for check in BUILD_CHECKS if checks is None else checks:
        problem = check(cfg)
        if problem:
            raise NotReady(_one_line(problem))
