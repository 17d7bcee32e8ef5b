"""Real full and read-only disks for tests: a command in a private mount namespace (`unshare -m`)
with fresh tmpfs mounts of a given size or read-only. Nothing is mounted outside that namespace,
so other processes on the machine never see these mounts. Needs root (or CAP_SYS_ADMIN)."""

from __future__ import annotations

import functools
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest


def fill(folder: Path) -> str:
    """Shell that fills the tmpfs of ``folder`` to its last byte."""
    return (
        f"dd if=/dev/zero of={shlex.quote(str(folder / '.filler'))} bs=1024 >/dev/null 2>&1 || true"
    )


@functools.cache
def can_mount() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", "mount -t tmpfs none /mnt"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


requires_private_mounts = pytest.mark.skipif(
    not can_mount(), reason="needs `unshare -m` and mount (root or CAP_SYS_ADMIN)"
)


def run_with_mounts(
    argv: Sequence[Any],
    mounts: dict[Path, str],
    *,
    setup: str = "",
    after: str = "",
    **kwargs: Any,
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` where each folder of ``mounts`` is a fresh tmpfs mounted with its options
    ("size=64k", "ro", ...); ``setup`` (shell) runs after mounting, before ``argv``, and
    ``after`` (shell: the mounts are gone once this returns) after it; ``argv``'s exit status is
    returned."""
    lines = ["set -e"]
    for folder, options in mounts.items():
        folder.mkdir(parents=True, exist_ok=True)
        lines.append(f"mount -t tmpfs -o {shlex.quote(options)} qs-test {shlex.quote(str(folder))}")
    if setup:
        lines.append(setup)
    if after:
        lines += ["set +e", '"$@"', "status=$?", after, "exit $status"]
    else:
        lines.append('exec "$@"')
    return subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", "\n".join(lines), "sh"]
        + [str(a) for a in argv],
        capture_output=True,
        text=True,
        check=False,
        **kwargs,
    )
