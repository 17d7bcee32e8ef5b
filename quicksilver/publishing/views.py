"""Training views of a Mercury dataset: ``sft`` and ``dpo`` configurations made from the train split
only, in TRL's standard (non-conversational) formats.

- ``sft`` (TRL's *prompt-completion* type): per train task, the prompt and its fastest reference
  solution as ``completion``, with that solution's measured runtime. Mercury's SFT baseline
  fine-tuned on the fastest solutions the same way.
- ``dpo`` (TRL's *preference* type): per train task, pairs of reference solutions, the faster as
  ``chosen`` and the slower as ``rejected``, with both runtimes and the gap; the pairs with the
  largest gaps first, at most ``pairs_per_task`` per task, each with a relative gap of at least
  ``min_gap`` (Mercury, section 4.3: preference pairs of solutions with large runtime gaps).

Every reference solution of a published row passed the build's tests, so both sides of a pair
are correct: the preference is about cost alone. Runtimes are the row's ``reference_runtimes``
(one meter and unit per dataset, ``runtime_unit``). An eval task never reaches a view: the views
are made from the train rows, and :func:`check_no_leak` refuses views holding an eval slug.

The prompt (:func:`training_prompt`) is the statement, an instruction and the starter code; the
completion is the solution's Python source, as TRL concatenates them (standard format, strings).
Beside TRL's columns each row keeps ``slug_name``, ``id`` and ``difficulty`` (and the solution
hashes) so that a row can be traced to its task; select TRL's columns if a trainer objects to
extra ones.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Protocol

from datasets import Features, Value

log = logging.getLogger(__name__)

_S = Value("string")
_F = Value("float64")
_I = Value("int64")

SFT_FEATURES = Features(
    {
        "prompt": _S,
        "completion": _S,
        "runtime": _F,
        "runtime_unit": _S,
        "solution_hash": _I,
        "slug_name": _S,
        "id": _S,
        "difficulty": _S,
    }
)
"""The ``sft`` configuration: TRL's prompt-completion columns first, then where the row came
from."""

DPO_FEATURES = Features(
    {
        "prompt": _S,
        "chosen": _S,
        "rejected": _S,
        "chosen_runtime": _F,
        "rejected_runtime": _F,
        "gap": _F,
        "runtime_unit": _S,
        "chosen_hash": _I,
        "rejected_hash": _I,
        "slug_name": _S,
        "id": _S,
        "difficulty": _S,
    }
)
"""The ``dpo`` configuration: TRL's preference columns first, then runtimes, gap and origin."""

VIEW_FEATURES: dict[str, Features] = {"sft": SFT_FEATURES, "dpo": DPO_FEATURES}
VIEW_SPLIT = "train"
"""A view has one split, ``train``: views are training data, made from the train split."""

VIEW_DOCS: dict[str, dict[str, str]] = {
    "sft": {
        "prompt": "the statement, an instruction and the starter code (see below)",
        "completion": "the task's fastest reference solution (Python 3 source)",
        "runtime": "its measured cost over the task's test cases (`runtime_unit`)",
        "runtime_unit": "unit of `runtime` (the dataset's `runtime_unit`)",
        "solution_hash": "the solution's `hash` in the default configuration's row",
        "slug_name": "the task (a train task of the default configuration)",
        "id": "its LeetCode frontend id",
        "difficulty": "`Easy`, `Medium` or `Hard`",
    },
    "dpo": {
        "prompt": "the same prompt as in `sft`",
        "chosen": "the faster reference solution of the pair",
        "rejected": "the slower reference solution of the pair",
        "chosen_runtime": "cost of `chosen` over the task's test cases (`runtime_unit`)",
        "rejected_runtime": "cost of `rejected`",
        "gap": "relative gap `1 - chosen_runtime / rejected_runtime`, in (0, 1): the share of "
        "the rejected solution's cost that the chosen one saves",
        "runtime_unit": "unit of both runtimes",
        "chosen_hash": "`hash` of the chosen solution in the default configuration's row",
        "rejected_hash": "`hash` of the rejected solution",
        "slug_name": "the task (a train task of the default configuration)",
        "id": "its LeetCode frontend id",
        "difficulty": "`Easy`, `Medium` or `Hard`",
    },
}

PROMPT_INSTRUCTION = (
    "Complete the following Python 3 code. The solution must be correct and as efficient as "
    "possible."
)


class ViewSettings(Protocol):
    """Which views to make and how to pick DPO pairs: the build config's ``views`` section
    (:class:`quicksilver.config.ViewsSection`, where the defaults and their reasons are)."""

    @property
    def sft(self) -> bool: ...
    @property
    def dpo(self) -> bool: ...
    @property
    def dpo_pairs_per_task(self) -> int: ...
    @property
    def dpo_min_gap(self) -> float: ...
    @property
    def dpo_disjoint_ci(self) -> bool: ...


def training_prompt(row: Mapping[str, Any]) -> str:
    """The prompt of a Mercury row: statement, instruction, then the starter code fenced."""
    statement = (row.get("pretty_content") or [""])[0].strip()
    return f"{statement}\n\n{PROMPT_INSTRUCTION}\n\n```python\n{row['prompt'].rstrip()}\n```\n"


@dataclass(frozen=True)
class _Measured:
    hash: int
    code: str
    runtime: float
    ci_low: float
    ci_high: float


def _measured(row: Mapping[str, Any]) -> list[_Measured]:
    """The row's solutions with their measured runtimes, fastest first (ties: by hash)."""
    code = {s["hash"]: s["solution"] for s in row["solutions"]}
    out = [
        _Measured(r["hash"], code[r["hash"]], float(r["runtime"]), r["ci_low"], r["ci_high"])
        for r in row["reference_runtimes"]
        if r["hash"] in code
    ]
    return sorted(out, key=lambda m: (m.runtime, m.hash))


def sft_row(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``sft`` row of a Mercury row: its fastest solution; None without a measured one."""
    measured = _measured(row)
    if not measured:
        return None
    best = measured[0]
    return {
        "prompt": training_prompt(row),
        "completion": best.code,
        "runtime": best.runtime,
        "runtime_unit": row["runtime_unit"],
        "solution_hash": best.hash,
        "slug_name": row["slug_name"],
        "id": row["id"],
        "difficulty": row["difficulty"],
    }


def dpo_rows(row: Mapping[str, Any], settings: ViewSettings) -> list[dict[str, Any]]:
    """The ``dpo`` rows of a Mercury row: every (faster, slower) pair whose relative gap is at
    least ``dpo_min_gap`` (and, with ``dpo_disjoint_ci``, whose CIs do not overlap), the largest
    gaps first, at most ``dpo_pairs_per_task``. Ties are broken by the hashes, so the same row
    gives the same pairs."""
    pairs = []
    for fast, slow in combinations(_measured(row), 2):
        if slow.runtime <= 0 or fast.runtime >= slow.runtime:
            continue
        gap = 1.0 - fast.runtime / slow.runtime
        if gap < settings.dpo_min_gap:
            continue
        if settings.dpo_disjoint_ci and fast.ci_high >= slow.ci_low:
            continue
        pairs.append((gap, fast, slow))
    pairs.sort(key=lambda p: (-p[0], p[1].hash, p[2].hash))
    prompt = training_prompt(row)
    return [
        {
            "prompt": prompt,
            "chosen": fast.code,
            "rejected": slow.code,
            "chosen_runtime": fast.runtime,
            "rejected_runtime": slow.runtime,
            "gap": gap,
            "runtime_unit": row["runtime_unit"],
            "chosen_hash": fast.hash,
            "rejected_hash": slow.hash,
            "slug_name": row["slug_name"],
            "id": row["id"],
            "difficulty": row["difficulty"],
        }
        for gap, fast, slow in pairs[: settings.dpo_pairs_per_task]
    ]


def training_views(
    splits: Mapping[str, Sequence[Mapping[str, Any]]], settings: ViewSettings
) -> dict[str, list[dict[str, Any]]]:
    """The views the settings ask for, from the ``train`` split alone; a view without rows (no
    train split, no pair with a large enough gap) is left out."""
    train = splits.get(VIEW_SPLIT, [])
    views: dict[str, list[dict[str, Any]]] = {}
    if settings.sft:
        views["sft"] = [r for r in (sft_row(row) for row in train) if r is not None]
    if settings.dpo:
        views["dpo"] = [pair for row in train for pair in dpo_rows(row, settings)]
    views = {name: rows for name, rows in views.items() if rows}
    check_no_leak(views, splits)
    return views


class ViewLeakError(ValueError):
    """A training view holds a task that is not in the train split."""


def check_no_leak(
    views: Mapping[str, Iterable[Mapping[str, Any]]],
    splits: Mapping[str, Iterable[Mapping[str, Any]]],
) -> None:
    """Raise :class:`ViewLeakError` when a view row's ``slug_name`` is a task of any split other
    than train (an eval task in training data would inflate every score measured on eval), or of
    no split at all."""
    train = {r["slug_name"] for r in splits.get(VIEW_SPLIT, [])}
    held_out = {
        r["slug_name"]: name for name, rows in splits.items() if name != VIEW_SPLIT for r in rows
    }
    for view, rows in views.items():
        for row in rows:
            slug = row["slug_name"]
            if slug in held_out:
                raise ViewLeakError(
                    f"view {view!r} holds {slug!r}, a task of the {held_out[slug]!r} split"
                )
            if slug not in train:
                raise ViewLeakError(f"view {view!r} holds {slug!r}, which is not a train task")


def view_path(name: str) -> str:
    """Where a view's Parquet file is, relative to the dataset folder."""
    return f"views/{name}/{VIEW_SPLIT}.parquet"


def view_slugs(dataset: Path) -> dict[str, set[str]]:
    """The tasks in each training view published beside a dataset: {view: slugs}, empty when
    there is none. ``dataset`` is what ``quicksilver score --dataset`` was given: a build's or a
    downloaded folder, or its ``hf`` / ``parquet`` / ``data`` folder (the views are then beside
    it). Both layouts are read: ``views/<view>/train.parquet`` (a build) and
    ``<view>/train-*.parquet`` (the Hub's)."""
    import pyarrow.parquet as pq

    root = dataset if dataset.is_dir() else dataset.parent
    out: dict[str, set[str]] = {}
    for base in dict.fromkeys([root, root.parent]):
        for name in VIEW_FEATURES:
            files = sorted((base / "views" / name).glob(f"{VIEW_SPLIT}*.parquet")) or sorted(
                (base / name).glob(f"{VIEW_SPLIT}-*.parquet")
            )
            for path in files:
                try:
                    table = pq.read_table(path, columns=["slug_name"])
                except (OSError, ValueError, KeyError) as exc:
                    log.warning("training view %s could not be read: %s", path, exc)
                    continue
                out.setdefault(name, set()).update(map(str, table.column("slug_name").to_pylist()))
        if out:
            break
    return out
