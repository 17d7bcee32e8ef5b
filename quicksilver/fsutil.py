"""Writing files so that a crash never leaves a partial one, and naming the path when it fails."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

# An OSError with one of these errno values is a problem of the disk written to (full, read-only),
# not of the data: the user fixes it by freeing space or choosing another folder. (A permission
# error may as well come from reading: only a WriteError says it came from writing.)
STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG})
_STORAGE_TEXTS = ("No space left on device", "Disk quota exceeded", "Read-only file system")


class WriteError(OSError):
    """A file or folder could not be written; ``str()`` is one line that names the path.

    An :class:`OSError` (so code that catches OSError still does), pickled by its fields (Prefect
    persists a failed task's exception; OSError's own pickling would lose the path).
    """

    def __init__(self, path: str | Path, reason: str, code: int | None = None) -> None:
        super().__init__(code if code is not None else 0, reason)
        self.errno = code  # type: ignore[assignment]
        self.path = str(path)
        self.reason = reason
        self.filename = self.path

    def __str__(self) -> str:
        return f"{self.path}: cannot write: {self.reason}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __reduce__(self) -> tuple[type[WriteError], tuple[str, str, int | None]]:
        return (type(self), (self.path, self.reason, self.errno))

    @classmethod
    def from_os_error(cls, path: str | Path, exc: OSError) -> WriteError:
        if isinstance(exc, WriteError):
            return exc
        return cls(path, describe_os_error(exc), exc.errno)


def describe_os_error(exc: OSError) -> str:
    """The reason of an OSError in words, without the ``[Errno n]`` prefix and the file name."""
    text = exc.strerror or str(exc) or type(exc).__name__
    return " ".join(text.split())


def is_storage_error(exc: BaseException) -> bool:
    """True for an OSError caused by the disk it writes to (full, read-only), or a WriteError."""
    if not isinstance(exc, OSError):
        return False
    if isinstance(exc, WriteError) or exc.errno in STORAGE_ERRNOS:
        return True
    # pyarrow's IO errors carry the reason in the text only
    return any(text in str(exc) for text in _STORAGE_TEXTS)


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` via a temporary file in the same folder, fsync and rename.

    The file gets mode 0644 (``mkstemp`` would leave 0600); on any failure the temporary file is
    removed and an existing ``path`` is left as it was. An OSError (disk full, read-only folder)
    is raised as :class:`WriteError`, whose message names ``path``.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise WriteError.from_os_error(path, exc) from exc
    try:
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise WriteError.from_os_error(path, exc) from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def check_writable_dir(folder: str | Path, *, create: bool = False, probe_bytes: int = 0) -> None:
    """Raise :class:`WriteError` unless files can be created in ``folder``.

    A real trial (a temporary file is created, ``probe_bytes`` written to it and synced, and
    removed), since permission bits say nothing for root and nothing about a read-only mount; a
    few bytes also find a full disk. ``create``: a missing ``folder`` is fine when its nearest
    existing parent is writable (nothing is created here either way).
    """
    folder = Path(folder)
    target = folder
    if create:
        while not target.exists() and target != target.parent:
            if target.is_symlink():
                raise WriteError(folder, f"{target} is a broken symbolic link")
            target = target.parent
    if not target.exists():
        raise WriteError(folder, "no such folder")
    if not target.is_dir():
        raise WriteError(folder, f"{target} is not a folder")
    try:
        fd, tmp = tempfile.mkstemp(dir=target, prefix=".quicksilver-write-check.")
    except OSError as exc:
        raise WriteError(folder, describe_os_error(exc), exc.errno) from exc
    try:
        if probe_bytes:
            os.write(fd, b"\0" * probe_bytes)
            os.fsync(fd)
    except OSError as exc:
        raise WriteError(folder, describe_os_error(exc), exc.errno) from exc
    finally:
        os.close(fd)
        Path(tmp).unlink(missing_ok=True)


def check_output_file(path: str | Path) -> None:
    """Raise :class:`WriteError` unless a file can be written at ``path`` (checked before work).

    ``path`` must not be a folder, and its folder must exist and be writable.
    """
    path = Path(path)
    if path.is_dir():
        raise WriteError(path, "is a folder; give a file name")
    if not path.parent.exists():
        raise WriteError(path, f"the folder {path.parent} does not exist")
    try:
        check_writable_dir(path.parent)
    except WriteError as exc:
        raise WriteError(path, exc.reason, exc.errno) from exc
