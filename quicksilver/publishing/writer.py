"""Writing a published dataset: Parquet per split, ``save_to_disk`` and the card, validated
first and swapped in so that a folder with a README.md is always a complete write; and a build's
publish, which keeps what is valid (:func:`publish_valid`).

Layout written by :func:`write_dataset` (see docs/publishing.md)::

    OUT/parquet/<split>.parquet   one file per split (HF features in the Parquet metadata)
    OUT/hf/                       DatasetDict.save_to_disk
    OUT/views/<view>/train.parquet  the training views (sft, dpo) made from train, when asked
    OUT/README.md                 the dataset card; written last, removed first when rewriting:
                                  a folder without it is an unfinished write
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from datasets import Features

from quicksilver.publishing.card import CardContext, render_card
from quicksilver.publishing.schema import MERCURY_FEATURES, check_row, validate_splits
from quicksilver.publishing.views import VIEW_FEATURES, VIEW_SPLIT, check_no_leak, view_path

log = logging.getLogger(__name__)

CARD_FILENAME = "README.md"
T = TypeVar("T")


@dataclass(frozen=True)
class PublishedPaths:
    """What :func:`write_dataset` wrote."""

    root: Path
    parquet: dict[str, Path]
    hf: Path
    card: Path
    rows: dict[str, int]
    views: dict[str, Path] = field(default_factory=dict)
    """The training views written (``views/<name>/train.parquet``), by name."""


# --- writing ------------------------------------------------------------------------------------

_STAGING_PREFIX = ".publish-"
_DATA_DIRS = ("parquet", "hf", "views")
"""The folders a write swaps in (and :func:`remove_dataset` removes)."""


def write_dataset(
    splits: dict[str, list[dict[str, Any]]],
    out_dir: Path,
    card: CardContext,
    *,
    features: Features = MERCURY_FEATURES,
    validate: Callable[[Mapping[str, Sequence[dict[str, Any]]]], None] | None = None,
    render: Callable[..., str] | None = None,
    views: Mapping[str, list[dict[str, Any]]] | None = None,
) -> PublishedPaths:
    """Validate every row of every split, then write Parquet, ``save_to_disk`` and the card.

    ``views`` (Mercury only): training views by name (``sft``, ``dpo``:
    :mod:`~quicksilver.publishing.views`), each written as ``views/<name>/train.parquet`` with its
    features and listed in the card's ``configs``; a view holding a task of a split other than
    train is refused (:class:`~quicksilver.publishing.views.ViewLeakError`) before anything is
    written.

    Nothing is written when any row is invalid (:class:`SchemaError`). Everything is first
    written under ``out_dir/.publish-*``; then the old card is removed, ``parquet/`` and ``hf/``
    are swapped in by rename, and the new card is renamed in last. So a folder with a README.md is
    always a complete write, an interrupted one has no README.md, and other files in ``out_dir``
    are left alone.
    """
    import datasets

    (validate or validate_splits)(splits)
    views = {name: rows for name, rows in (views or {}).items() if rows}
    check_no_leak(views, splits)
    for name in views:
        if name not in VIEW_FEATURES:
            raise ValueError(f"unknown training view {name!r}; known: {', '.join(VIEW_FEATURES)}")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.glob(f"{_STAGING_PREFIX}*"):
        log.info("removing %s, left by an interrupted write", stale)
        shutil.rmtree(stale, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix=_STAGING_PREFIX, dir=out_dir))
    try:
        parts = {
            name: datasets.Dataset.from_list(rows, features=features, split=name)
            for name, rows in splits.items()
        }
        (staging / "parquet").mkdir()
        sizes: dict[str, tuple[int, int]] = {}
        for name, ds in parts.items():
            path = staging / "parquet" / f"{name}.parquet"
            ds.to_parquet(str(path))
            sizes[name] = (ds.data.nbytes, path.stat().st_size)
        datasets.DatasetDict(parts).save_to_disk(str(staging / "hf"))
        view_sizes: dict[str, tuple[int, int]] = {}
        for name, rows in views.items():
            path = staging / view_path(name)
            path.parent.mkdir(parents=True)
            view = datasets.Dataset.from_list(rows, features=VIEW_FEATURES[name], split=VIEW_SPLIT)
            view.to_parquet(str(path))
            view_sizes[name] = (view.data.nbytes, path.stat().st_size)
        # only a Mercury card knows views: the DPE renderer is called as before
        extra = {"views": views, "view_sizes": view_sizes} if views else {}
        text = (render or render_card)(splits, card, sizes=sizes, **extra)
        (staging / CARD_FILENAME).write_text(text, encoding="utf-8")
        for path in [staging, *staging.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)  # mkdtemp made the folder 0700

        (out_dir / CARD_FILENAME).unlink(missing_ok=True)
        for name in _DATA_DIRS:
            target = out_dir / name
            if target.exists() or target.is_symlink():
                target.rename(staging / f"old-{name}")
            if (staging / name).exists():  # no views: an older build's views go too
                (staging / name).rename(target)
        _fsync_dir(out_dir)
        os.replace(staging / CARD_FILENAME, out_dir / CARD_FILENAME)
        _fsync_dir(out_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    rows = {name: len(r) for name, r in splits.items()}
    log.info(
        "wrote %s: %s",
        out_dir,
        ", ".join(f"{name} {n} rows" for name, n in rows.items()),
    )
    return PublishedPaths(
        root=out_dir,
        parquet={name: out_dir / "parquet" / f"{name}.parquet" for name in splits},
        hf=out_dir / "hf",
        card=out_dir / CARD_FILENAME,
        rows=rows,
        views={name: out_dir / view_path(name) for name in views},
    )


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- a build's publish: what is valid ------------------------------------------------------------

RowProblems = Callable[[Mapping[str, Any]], list[tuple[str, str]]]
"""One row's problems as (field path, message); empty when the row is valid."""


@dataclass
class Published:
    """What :func:`publish_valid` did: the dataset written (None: nothing valid to write), the rows
    per split, the rows set aside, and the notes (also in the card)."""

    paths: PublishedPaths | None
    splits: dict[str, list[dict[str, Any]]]
    """The rows written, per split."""
    set_aside: dict[str, str]
    """The slug of each row set aside, and why (``invalid-row``)."""
    notes: list[str]

    @property
    def rows(self) -> dict[str, int]:
        return {name: len(rows) for name, rows in self.splits.items()}


def _summary(problems: Sequence[tuple[str, str]], limit: int = 3) -> str:
    text = "; ".join(f"{path}: {message}" for path, message in problems[:limit])
    if len(problems) > limit:
        text += f"; and {len(problems) - limit} more"
    return text


def remove_dataset(out_dir: Path) -> bool:
    """Remove the dataset :func:`write_dataset` wrote in ``out_dir`` (the card first, so a folder
    caught halfway is an unfinished write); other files stay. True when there was one."""
    out_dir = Path(out_dir)
    found = False
    card = out_dir / CARD_FILENAME
    if card.exists():
        card.unlink()
        found = True
    for name in _DATA_DIRS:
        target = out_dir / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
            found = True
        elif target.exists() or target.is_symlink():
            target.unlink()
            found = True
    return found


def publish_valid(
    splits: Mapping[str, Sequence[dict[str, Any]]],
    out_dir: Path,
    card: CardContext,
    *,
    row_problems: RowProblems = check_row,
    slug_field: str = "slug_name",
    features: Features = MERCURY_FEATURES,
    validate: Callable[[Mapping[str, Sequence[dict[str, Any]]]], None] | None = None,
    render: Callable[..., str] | None = None,
    views: Callable[[Mapping[str, Sequence[dict[str, Any]]]], dict[str, list[dict[str, Any]]]]
    | None = None,
) -> Published:
    """A build's publish: :func:`write_dataset` of the valid rows, after a long build that must
    not lose everything to one bad row or an empty split.

    A row with a problem is set aside (in ``set_aside`` with why, for the stage's rejects; a
    warning and a note); a split left without rows is left out of the
    dataset with a note (:func:`drop_empty_splits`). With no row left
    nothing is written, and a dataset an earlier build wrote in ``out_dir`` is removed: the folder
    must not offer an older build's rows as this one's. The notes go into the card.
    """
    kept: dict[str, list[dict[str, Any]]] = {}
    set_aside: dict[str, str] = {}
    notes: list[str] = []
    for split, rows in splits.items():
        kept[split] = []
        for index, row in enumerate(rows):
            problems = row_problems(row)
            if not problems:
                kept[split].append(row)
                continue
            slug = str(row.get(slug_field) or f"{split}[{index}]")
            detail = f"{slug}: not published: {_summary(problems)}"
            log.warning("publish: %s", detail)
            notes.append(
                f"{split}: {slug} left out: it does not fit the schema ({_summary(problems, 1)})"
            )
            set_aside[slug] = detail
    if not any(kept.values()):
        removed = remove_dataset(out_dir)
        why = "every row was set aside" if set_aside else "the funnel shows where they were dropped"
        note = (
            f"no task to publish ({why}"
            + f"): no dataset written to {out_dir}"
            + ("; the dataset an earlier build wrote there was removed" if removed else "")
        )
        log.warning("publish: %s", note)
        return Published(None, {}, set_aside, [*notes, note])
    kept, empty = drop_empty_splits(kept, {s: "every row was set aside" for s in kept})
    notes += empty
    card = replace(card, notes=[*card.notes, *notes])
    paths = write_dataset(
        kept,
        out_dir,
        card,
        features=features,
        validate=validate,
        render=render,
        views=views(kept) if views is not None else None,
    )
    return Published(paths, kept, set_aside, notes)


def drop_empty_splits(
    splits: Mapping[str, Sequence[T]], why: Mapping[str, str] | None = None
) -> tuple[dict[str, list[T]], list[str]]:
    """``splits`` without the empty ones, and one note per split left out (``why[name]`` says
    why it is empty, when known). Each note is also logged as a warning."""
    kept: dict[str, list[T]] = {}
    notes: list[str] = []
    for name, rows in splits.items():
        if rows:
            kept[name] = list(rows)
            continue
        reason = (why or {}).get(name)
        notes.append(
            f"{name}: no task{f' ({reason})' if reason else ''}; the {name} split is left out "
            "of the dataset"
        )
    if splits and not kept:
        notes.append("no split has a task: there is no dataset to publish")
    for note in notes:
        log.warning("splits: %s", note)
    return kept, notes
