"""A build's own process: one build per output folder (quicksilver/pipeline/lock.py: a second
build stops at once with one line naming the folder and the holder; a holder killed with SIGKILL
leaves no stale lock), and no raw progress bars in its log."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from quicksilver.pipeline.lock import LOCK_NAME, OutDirBusy, build_lock, check_free


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


@contextmanager
def _held_by_a_child(out: Path, extra: dict[str, str] | None = None) -> Iterator[int]:
    """Another process holds ``out``'s lock (with ``extra`` in its record) while the block runs;
    it is killed with SIGKILL when the block ends. Yields its pid."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import time
                from pathlib import Path
                from quicksilver.pipeline.lock import build_lock
                with build_lock(Path({str(out)!r}), {extra or {}!r}):
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
        yield holder.pid
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with (
        _held_by_a_child(out) as pid,
        pytest.raises(OutDirBusy, match=f"pid {pid} on "),
        build_lock(out),
    ):
        pass
    with build_lock(out) as held:  # the kernel released it with the process
        # and the killed holder's record is there for this build to name (quicksilver/orchestration/stale_runs.py)
        assert held.previous is not None and held.previous["pid"] == pid


def test_only_a_killed_holder_leaves_its_record(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with build_lock(out, {"flow_run_id": "run-1"}) as held:
        assert held.previous is None
    with build_lock(out) as held:  # the first ended normally: it emptied the file
        assert held.previous is None
    with pytest.raises(RuntimeError), build_lock(out, {"flow_run_id": "run-2"}):
        raise RuntimeError("a stage failed")  # an exception (a SIGTERM is one) ends it too
    assert (out / LOCK_NAME).read_text() == ""
    # the command line's check changes nothing
    with _held_by_a_child(out, {"flow_run_id": "run-3"}) as pid, pytest.raises(OutDirBusy):
        check_free(out)
    check_free(out)  # free now, and the record is still there for the build
    with build_lock(out, {"flow_run_id": "run-4"}) as held:
        assert held.previous is not None
        assert (held.previous["flow_run_id"], held.previous["pid"]) == ("run-3", pid)
    with build_lock(out) as held:
        assert held.previous is None


def test_a_build_turns_the_datasets_progress_bars_off() -> None:
    import datasets

    from quicksilver.orchestration.build import quiet_progress_bars

    datasets.enable_progress_bars()
    try:
        quiet_progress_bars()
        assert not datasets.is_progress_bar_enabled()
    finally:
        datasets.enable_progress_bars()
