"""A build's own process: one build per output folder (quicksilver/pipeline/lock.py: a second
build stops at once with one line naming the folder and the holder; a holder killed with SIGKILL
leaves no stale lock), and no raw progress bars in its log."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from quicksilver.pipeline.lock import LOCK_NAME, OutDirBusy, build_lock


def test_a_second_holder_is_refused_naming_the_first(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with build_lock(out):
        with pytest.raises(OutDirBusy) as exc, build_lock(out):
            pass
        message = str(exc.value)
        assert message.startswith(f"{out} is being built by another build (pid {os.getpid()} on ")
        assert "--set out_dir=" in message
    with build_lock(out):  # released at the end of the first
        assert (out / LOCK_NAME).exists()


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    out = tmp_path / "out"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import sys, time
                from pathlib import Path
                from quicksilver.pipeline.lock import build_lock
                with build_lock(Path({str(out)!r})):
                    print("held", flush=True)
                    time.sleep(600)
                """
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(OutDirBusy, match=f"pid {holder.pid} on "), build_lock(out):
            pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    with build_lock(out):  # the kernel released it with the process
        pass


def test_a_build_turns_the_datasets_progress_bars_off() -> None:
    import datasets

    from tasks.build import quiet_progress_bars

    datasets.enable_progress_bars()
    try:
        quiet_progress_bars()
        assert not datasets.is_progress_bar_enabled()
    finally:
        datasets.enable_progress_bars()
