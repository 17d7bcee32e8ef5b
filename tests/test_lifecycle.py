"""quicksilver.lifecycle: the process tree, and GracefulStop (a signal stops the work within its
grace period, one line on stderr, no process left behind). Each stop runs in a subprocess."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quicksilver.lifecycle import alive, descendants, kill_descendants

ROOT = Path(__file__).resolve().parents[1]


def test_descendants_walks_the_whole_tree_and_kill_ends_it():
    # sh -> (sleep, sh -> sleep): grandchildren included
    tree = subprocess.Popen(
        ["sh", "-c", "sleep 300 & sh -c 'sleep 301 & wait' & wait"], start_new_session=True
    )
    try:
        deadline = time.monotonic() + 10
        while len(descendants(tree.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        found = descendants(tree.pid)
        names = sorted(Path(f"/proc/{p}/comm").read_text().strip() for p in found)
        assert names == ["sh", "sleep", "sleep"]
        assert tree.pid in descendants() and set(found) <= set(descendants())
        killed = kill_descendants(tree.pid, grace=1.0)
        assert set(found) <= set(killed)
        assert not any(alive(p) for p in found)
    finally:
        os.killpg(tree.pid, signal.SIGKILL)
        tree.wait()


# The work: "unwinds" stops when the sandboxes are told to (as a build's stages do); "stuck"
# ignores the stop, so that only the watchdog can end it. Either way a child process runs.
_STOPPABLE = """
import sys, time, subprocess
from quicksilver.lifecycle import GracefulStop
from quicksilver.sandbox import session

mode = sys.argv[1]
child = subprocess.Popen(["sleep", "300"])
print(child.pid, flush=True)

def work():
    print("working", flush=True)
    while mode == "stuck" or not session.shutting_down():
        time.sleep(0.05)
    raise RuntimeError("unwound")

stop = GracefulStop(lambda signum: f"error: stopped by signal {signum}", grace=3)
try:
    stop.run(work)
except RuntimeError:
    pass
stop.announce()
stop.announce()  # once only
sys.exit(stop.exit_code)
"""


@pytest.mark.parametrize(
    ("mode", "signum"),
    [("unwinds", signal.SIGTERM), ("unwinds", signal.SIGINT), ("stuck", signal.SIGTERM)],
)
def test_a_signal_stops_the_work_with_one_line_and_no_process_left(mode, signum):
    proc = subprocess.Popen(
        [sys.executable, "-c", _STOPPABLE, mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    child = int(proc.stdout.readline())
    assert proc.stdout.readline() == "working\n"
    start = time.monotonic()
    proc.send_signal(signum)
    _out, err = proc.communicate(timeout=30)
    elapsed = time.monotonic() - start
    assert proc.returncode == 128 + signum, err
    assert err.splitlines().count(f"error: stopped by signal {signum}") == 1, err
    assert err.rstrip().endswith(f"error: stopped by signal {signum}")
    assert "Traceback" not in err
    # the child went with it: by the atexit sweep, or by the watchdog for stuck work
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)
    if mode == "stuck":
        assert "stopping now" in err  # the watchdog's doing, 3 s after the signal
        assert elapsed < 10
    else:
        assert "stopping now" not in err
        assert elapsed < 3
