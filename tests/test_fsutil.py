"""quicksilver.fsutil: atomic writes that name the path when the disk is full or read-only, and
the checks made before work. Full and read-only disks are real tmpfs mounts in a private mount
namespace (tests/private_mounts.py)."""

from __future__ import annotations

import errno
import json
import pickle
import sys
from pathlib import Path

import pytest

from quicksilver.fsutil import (
    WriteError,
    check_output_file,
    check_writable_dir,
    is_storage_error,
    write_text_atomic,
)
from tests.private_mounts import fill, requires_private_mounts, run_with_mounts

# Runs in the private mount namespace: tries the operation, prints what happened as JSON (and,
# for a write, what the folder holds afterwards).
_TRY = """
import json, sys
from pathlib import Path
from quicksilver import fsutil
op, path = sys.argv[1], Path(sys.argv[2])
out = {"ok": True}
try:
    if op == "write":
        fsutil.write_text_atomic(path, "new " * 10_000)
    elif op == "dir":
        fsutil.check_writable_dir(path, create=True, probe_bytes=4096)
    else:
        fsutil.check_output_file(path)
except fsutil.WriteError as exc:
    out = {"ok": False, "message": str(exc), "errno": exc.errno}
if op == "write":
    out["content"] = path.read_text() if path.exists() else None
    out["names"] = sorted(p.name for p in path.parent.iterdir())
print(json.dumps(out))
"""


def _try(op: str, path: Path, mounts: dict[Path, str], setup: str = "") -> dict:
    proc = run_with_mounts([sys.executable, "-c", _TRY, op, path], mounts, setup=setup)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@requires_private_mounts
def test_full_disk_names_the_path_and_keeps_the_earlier_file(tmp_path):
    disk = tmp_path / "disk"
    report = disk / "report.json"
    got = _try(
        "write",
        report,
        {disk: "size=64k"},
        setup=f"echo '{{\"earlier\": true}}' > {report}\n{fill(disk)}",
    )
    assert got == {
        "ok": False,
        "message": f"{report}: cannot write: No space left on device",
        "errno": errno.ENOSPC,
        "content": '{"earlier": true}\n',
        "names": [".filler", "report.json"],  # no temporary file left behind
    }


@requires_private_mounts
def test_read_only_folder_is_found_before_work(tmp_path):
    disk = tmp_path / "ro"
    for op, path in (("file", disk / "report.json"), ("dir", disk / "out" / "deeper")):
        got = _try(op, path, {disk: "ro,size=64k"})
        assert got["ok"] is False and got["errno"] == errno.EROFS
        assert got["message"] == f"{path}: cannot write: Read-only file system"


@requires_private_mounts
def test_full_disk_is_found_by_a_probe_of_a_few_bytes(tmp_path):
    disk = tmp_path / "disk"
    got = _try("dir", disk / "out", {disk: "size=64k"}, setup=fill(disk))
    assert got == {
        "ok": False,
        "message": f"{disk / 'out'}: cannot write: No space left on device",
        "errno": errno.ENOSPC,
    }


def test_output_file_checks_need_an_existing_folder_and_a_file_name(tmp_path):
    with pytest.raises(WriteError) as missing:
        check_output_file(tmp_path / "no-such-folder" / "report.json")
    assert str(missing.value) == (
        f"{tmp_path / 'no-such-folder' / 'report.json'}: cannot write: the folder "
        f"{tmp_path / 'no-such-folder'} does not exist"
    )
    with pytest.raises(WriteError, match="is a folder; give a file name"):
        check_output_file(tmp_path)
    check_output_file(tmp_path / "report.json")  # fine, and nothing is left behind
    assert list(tmp_path.iterdir()) == []


def test_writable_dir_check_creates_nothing(tmp_path):
    check_writable_dir(tmp_path / "a" / "b", create=True, probe_bytes=4096)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "file").write_text("x")
    with pytest.raises(WriteError, match="is not a folder"):
        check_writable_dir(tmp_path / "file" / "sub", create=True)
    with pytest.raises(WriteError, match="no such folder"):
        check_writable_dir(tmp_path / "missing")


def test_write_error_pickles_with_its_path_and_is_an_os_error():
    """Prefect persists a failed task's exception: the path must survive the round trip."""
    exc = WriteError("/data/out/x.jsonl", "No space left on device", errno.ENOSPC)
    back = pickle.loads(pickle.dumps(exc))
    assert isinstance(back, OSError) and is_storage_error(back)
    assert str(back) == "/data/out/x.jsonl: cannot write: No space left on device"
    assert (back.errno, back.path) == (errno.ENOSPC, "/data/out/x.jsonl")
    assert repr(back) == "WriteError('/data/out/x.jsonl: cannot write: No space left on device')"


def test_any_os_error_of_an_atomic_write_names_the_path(tmp_path, monkeypatch):
    target = tmp_path / "x.json"
    target.write_text("old")

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("quicksilver.fsutil.os.fsync", full)
    with pytest.raises(WriteError) as info:
        write_text_atomic(target, "new")
    assert str(info.value) == f"{target}: cannot write: No space left on device"
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["x.json"]
