"""Prefect's persisted task results as plain data: nothing in a build folder runs when read back.

Prefect persists each stage task's result beside the stage's files
(``stages/<stage>/.prefect-results/``) so that a rerun shows the task as *Cached*. By default a
result is a cloudpickle, and Prefect reads the serializer to use from the record file itself: a
build folder that came from elsewhere (a shared cache, a copied ``out_dir``) could hold a record
that names the pickle serializer, or a JSON one whose ``jsonlib`` or ``object_decoder`` is any
importable callable, and the next rerun would run it outside the sandbox while checking its cache.

So the stage tasks write their results (a small summary of plain data, never records) with
:data:`SERIALIZER`, JSON whose decoder never imports or builds anything (:func:`decode_object`),
and before a build's first stage :func:`keep_plain_results` reads every record file under the
stages' result folders as JSON and deletes each one whose serializer is not exactly that one, with
one warning line that names it. Deleting is safe: the runner's manifests decide what is done
(:meth:`quicksilver.pipeline.runner.Runner.done`); a deleted record only makes Prefect run the
stage's task again, which the runner then reuses from its files.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from prefect.serializers import JSONSerializer

log = logging.getLogger("quicksilver.results")

RESULTS_FOLDER = ".prefect-results"

# The encoder is Prefect's (it writes what json cannot as tagged dicts); the decoder is ours.
SERIALIZER = JSONSerializer(object_decoder="quicksilver.orchestration.results.decode_object")
_EXPECTED = SERIALIZER.model_dump(mode="json")


def decode_object(obj: dict[str, Any]) -> Any:
    """``json.loads``'s ``object_hook``: plain data stays plain data.

    Prefect's own decoder imports the class a tagged dict names (``__class__``, ``__exc_type__``)
    and builds it. Here a tagged value is never resolved: an exception comes back as a
    :class:`RuntimeError` that names its type (a failed task's exception is read from memory in
    the run that raised it, never from this folder), anything else as the dict it is."""
    if "__exc_type__" in obj:
        return RuntimeError(f"{obj.get('__exc_type__')}: {obj.get('message', '')}")
    return obj


def is_plain_record(data: bytes) -> bool:
    """True when ``data`` is a Prefect result record written with :data:`SERIALIZER`."""
    try:
        record = json.loads(data)
    except (UnicodeDecodeError, ValueError):
        return False
    if not isinstance(record, dict) or not isinstance(record.get("metadata"), dict):
        return False
    return record["metadata"].get("serializer") == _EXPECTED


def keep_plain_results(folder: Path) -> list[Path]:
    """Delete every record file under ``folder`` that is not a plain record (module docstring);
    returns the deleted paths. Runs before any stage task, so no record is being written."""
    deleted: list[Path] = []
    if not folder.is_dir():
        return deleted
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or not path.is_file():
            if path.is_symlink():
                path.unlink()
                deleted.append(path)
                log.warning("%s: a cached result that is a symlink; deleted", path)
            continue
        if is_plain_record(path.read_bytes()):
            continue
        path.unlink()
        deleted.append(path)
        log.warning(
            "%s: a cached Prefect result not written as plain JSON by this project (a pickle, "
            "or a serializer that would import code); deleted, the stage's manifest decides "
            "whether it reruns",
            path,
        )
    return deleted
