"""The dataset card (README.md): YAML front matter on Hub conventions, then Markdown rendered
from a template (``quicksilver/templates/``) with what the rows cannot say: the funnel, the
parameters, the machine, the seeds and the notes. One renderer per format (Mercury, DPE)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import yaml
from datasets import Features

from quicksilver import __version__
from quicksilver.funnel import drop_totals, drops_summary
from quicksilver.publishing.dpe_schema import DPE_FEATURES, DPE_FIELD_GROUPS
from quicksilver.publishing.dpe_schema import FIELD_DOCS as DPE_FIELD_DOCS
from quicksilver.publishing.field_docs import FIELD_DOCS
from quicksilver.publishing.schema import (
    DIFFICULTIES,
    MERCURY_FEATURES,
    MERCURY_FIELDS,
    type_name,
)
from quicksilver.publishing.views import VIEW_DOCS, VIEW_FEATURES, VIEW_SPLIT, view_path


@dataclass
class CardContext:
    """What the dataset card says beyond what the rows tell."""

    name: str
    funnel: list[dict[str, Any]]
    """Per stage: ``{"stage", "tasks_in", "tasks_out", "solutions_in", "solutions_out",
    "drops": {reason: count}, "drop_tasks", "drop_solutions", "drop_inputs"}`` (per reason:
    ``StageCounts.to_dict()`` as the stages' manifests say, ``Runner.funnel``)."""
    parameters: dict[str, Any]
    """The build configuration used (rendered as YAML)."""
    meter: str
    unit: str
    machine: dict[str, Any]
    seeds: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    built_at: str = ""
    quicksilver_version: str = __version__
    license: str = "other"
    repo_id: str | None = None
    """``ORG/NAME`` on the Hub, for the card's loading example (a placeholder when None)."""


def _field_rows() -> list[dict[str, str]]:
    out = []
    for name, feature in MERCURY_FEATURES.items():
        kind = type_name(feature)
        if name == "meta_info":
            kind = "struct{data: struct{question: struct{...}}}"
        out.append(
            {
                "name": name,
                "type": kind,
                "doc": FIELD_DOCS[name],
                "group": "Mercury" if name in MERCURY_FIELDS else "provenance",
            }
        )
    return out


def _cell(value: Any) -> str:
    """A value fit for one Markdown table cell."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def front_matter(
    splits: Mapping[str, Sequence[Mapping[str, Any]]],
    card: CardContext,
    data_files: Mapping[str, str],
    sizes: Mapping[str, tuple[int, int]] | None,
    *,
    features: Features = MERCURY_FEATURES,
    tags: Sequence[str] = ("code", "efficiency", "mercury", "leetcode", "benchmark"),
    views: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    view_sizes: Mapping[str, tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """The card's YAML metadata (Hub conventions); ``sizes``: split -> (arrow bytes, file bytes).

    ``views``: the training views, each one more entry of ``configs`` (its one ``train`` split
    at ``views/<name>/train.parquet``) and of ``dataset_info``, so that
    ``load_dataset(folder, name="dpo")`` reads it; the splits stay the ``default`` config."""
    from datasets.info import DatasetInfo, DatasetInfosDict
    from datasets.splits import SplitDict, SplitInfo
    from huggingface_hub import DatasetCardData

    total = sum(len(rows) for rows in splits.values())
    bounds = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"))
    size_category = next((label for limit, label in bounds if total < limit), "100K<n<1M")
    split_dict = SplitDict()
    for name, rows in splits.items():
        num_bytes = sizes[name][0] if sizes else 0
        split_dict.add(SplitInfo(name=name, num_bytes=num_bytes, num_examples=len(rows)))
    info = DatasetInfo(features=features, splits=split_dict)
    if sizes:
        info.download_size = sum(file for _, file in sizes.values())
        info.dataset_size = sum(arrow for arrow, _ in sizes.values())
    infos = {"default": info}
    for name, rows in (views or {}).items():
        view_split = SplitDict()
        view_bytes = (view_sizes or {}).get(name, (0, 0))
        view_split.add(SplitInfo(name=VIEW_SPLIT, num_bytes=view_bytes[0], num_examples=len(rows)))
        infos[name] = DatasetInfo(
            features=VIEW_FEATURES[name],
            splits=view_split,
            download_size=view_bytes[1],
            dataset_size=view_bytes[0],
        )
    card_data = DatasetCardData()
    DatasetInfosDict(infos).to_dataset_card_data(card_data)
    view_configs = [
        {"config_name": name, "data_files": [{"split": VIEW_SPLIT, "path": view_path(name)}]}
        for name in views or {}
    ]
    return {
        "pretty_name": card.name,
        "license": card.license,
        "language": ["en"],
        "task_categories": ["text-generation"],
        "tags": list(tags),
        "size_categories": [size_category],
        "configs": [
            {
                "config_name": "default",
                "data_files": [{"split": name, "path": data_files[name]} for name in splits],
            },
            *view_configs,
        ],
        **card_data.to_dict(),
    }


def dump_yaml(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
DATA_FILES = ("../templates/*.j2",)  # read at run time: part of the stage keys (pipeline/keys.py)
"""Where the card templates are (``mercury_card.md.j2``, ``dpe_card.md.j2``)."""


def template(name: str = "mercury_card.md.j2") -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # Markdown, not HTML
    )
    env.filters["cell"] = _cell
    return env.get_template(name)


def render_card(
    splits: Mapping[str, Sequence[Mapping[str, Any]]],
    card: CardContext,
    *,
    sizes: Mapping[str, tuple[int, int]] | None = None,
    views: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    view_sizes: Mapping[str, tuple[int, int]] | None = None,
) -> str:
    """The dataset card (README.md) for validated ``splits``: YAML front matter, then Markdown
    (with the training views and the eval window when there are)."""
    for i, stage in enumerate(card.funnel):
        missing = {"stage", "tasks_in", "tasks_out", "solutions_in", "solutions_out"} - set(stage)
        if missing:
            raise ValueError(f"card.funnel[{i}] lacks {', '.join(sorted(missing))}")
    names = list(splits)
    difficulty_rows = []
    for difficulty in DIFFICULTIES:
        counts = [sum(r["difficulty"] == difficulty for r in splits[s]) for s in names]
        difficulty_rows.append({"label": difficulty, "counts": counts, "total": sum(counts)})
    unrated = [sum(not r["difficulty"] for r in splits[s]) for s in names]
    if any(unrated):  # a source without ratings (HumanEval)
        difficulty_rows.append({"label": "unrated", "counts": unrated, "total": sum(unrated)})
    totals = [len(splits[s]) for s in names]
    difficulty_rows.append({"label": "**all**", "counts": totals, "total": sum(totals)})

    funnel = [{**stage, "drops_text": drops_summary(stage)} for stage in card.funnel]

    generators = []
    models: Counter[str] = Counter()
    for s in names:
        paths = Counter(r["generator_path"] for r in splits[s])
        generators.append({"split": s, "offline": paths["offline"], "llm": paths["llm"]})
        models.update(r["generator_model"] for r in splits[s] if r["generator_path"] == "llm")
    solutions = sum(len(r["solutions"]) for s in names for r in splits[s])
    cases = sum(r["n_generated_cases"] + r["n_example_cases"] for s in names for r in splits[s])
    sources = Counter(r["source"] for s in names for r in splits[s])

    data_files = {s: f"parquet/{s}.parquet" for s in names}
    front = front_matter(splits, card, data_files, sizes, views=views, view_sizes=view_sizes)
    # The card is public: the host name is not part of what a measurement depends on.
    machine = {k: v for k, v in sorted(card.machine.items()) if k != "hostname"}
    return template().render(
        front_matter=dump_yaml(front).rstrip("\n"),
        card=card,
        split_names=names,
        n_rows=sum(totals),
        n_solutions=solutions,
        n_cases=cases,
        sources=sorted(sources.items()),
        difficulty_rows=difficulty_rows,
        funnel=funnel,
        drop_totals=drop_totals(card.funnel),
        parameters_yaml=dump_yaml(card.parameters).rstrip("\n") if card.parameters else "{}",
        machine=machine,
        seeds=card.seeds,
        generators=generators,
        models=sorted(models.items(), key=lambda kv: (-kv[1], kv[0])),
        fields=_field_rows(),
        views=_view_context(views or {}, card.parameters.get("views") or {}),
        window=_window_context(splits, card.parameters.get("splits") or {}),
        repo_id=card.repo_id or "ORG/NAME",
        first_split="eval" if "eval" in names else names[0],
        instruction_rate=next(
            (
                r.get("instruction_rate")
                for s in names
                for r in splits[s]
                if r.get("instruction_rate")
            ),
            None,
        ),
    )


def _view_context(
    views: Mapping[str, Sequence[Mapping[str, Any]]], settings: Mapping[str, Any]
) -> dict[str, Any]:
    """What the card says about the training views: per view its rows, tasks and columns, and
    the pair settings (``views`` of the build config)."""
    return {
        "settings": dict(settings),
        "list": [
            {
                "name": name,
                "rows": len(rows),
                "tasks": len({r["slug_name"] for r in rows}),
                "columns": [
                    {"name": col, "type": type_name(feature), "doc": VIEW_DOCS[name][col]}
                    for col, feature in VIEW_FEATURES[name].items()
                ],
                "gap_min": min((r["gap"] for r in rows), default=None) if name == "dpo" else None,
                "gap_max": max((r["gap"] for r in rows), default=None) if name == "dpo" else None,
            }
            for name, rows in views.items()
        ],
    }


def _window_context(
    splits: Mapping[str, Sequence[Mapping[str, Any]]], settings: Mapping[str, Any]
) -> dict[str, Any]:
    """Release dates per split (dated / undated, earliest, latest) and the eval window, if one
    was held out (``splits.eval_after``)."""
    rows = []
    for name, split_rows in splits.items():
        dates = sorted(d for r in split_rows if (d := r.get("release_date")))
        rows.append(
            {
                "split": name,
                "dated": len(dates),
                "undated": len(split_rows) - len(dates),
                "first": dates[0] if dates else "-",
                "last": dates[-1] if dates else "-",
            }
        )
    return {
        "eval_after": settings.get("eval_after"),
        "balanced": settings.get("eval_size") is not None,
        "splits": rows,
        "any_dated": any(r["dated"] for r in rows),
    }


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """A card's YAML metadata and its Markdown body; ValueError when it has no front matter."""
    match = re.match(r"^---\r?\n(.*?)\r?\n---\r?\n", text, re.DOTALL)
    if match is None:
        raise ValueError("the card has no YAML front matter (--- ... ---)")
    try:
        meta = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        raise ValueError(f"the card's front matter is not valid YAML: {exc}") from exc
    if not isinstance(meta, dict):
        raise ValueError("the card's front matter is not a YAML mapping")
    return meta, text[match.end() :]


def hub_card(text: str, splits: Iterable[str], data_dir: str = "data") -> str:
    """The card for the Hub repo: ``configs`` pointed at where ``push_to_hub`` puts the shards
    (``data/<split>-*``, and ``<view>/train-*`` for a training view) instead of the local
    ``parquet/<split>.parquet`` and ``views/<view>/train.parquet``; nothing else changes."""
    meta, body = split_front_matter(text)
    views = [c["config_name"] for c in meta.get("configs") or [] if c["config_name"] != "default"]
    meta["configs"] = [
        {
            "config_name": "default",
            "data_files": [{"split": s, "path": f"{data_dir}/{s}-*"} for s in splits],
        },
        *(
            {"config_name": v, "data_files": [{"split": VIEW_SPLIT, "path": f"{v}/{VIEW_SPLIT}-*"}]}
            for v in views
        ),
    ]
    return f"---\n{dump_yaml(meta)}---\n{body}"


def _dpe_field_rows() -> list[dict[str, str]]:
    return [
        {"name": name, "type": type_name(feature), "doc": DPE_FIELD_DOCS[name], "group": group}
        for group, fields in DPE_FIELD_GROUPS
        for name, feature in fields.items()
    ]


def render_dpe_card(
    splits: Mapping[str, Sequence[Mapping[str, Any]]],
    card: CardContext,
    *,
    sizes: Mapping[str, tuple[int, int]] | None = None,
) -> str:
    """The dataset card of a DPE build: YAML front matter, then Markdown."""
    names = list(splits)
    rows = [r for s in names for r in splits[s]]
    funnel = [{**stage, "drops_text": drops_summary(stage)} for stage in card.funnel]
    clusters = Counter(len(r["reference"]) for r in rows)
    pe_paths = Counter(r["pe_generator_path"] for r in rows)
    pe_models = Counter(r["pe_generator_model"] for r in rows)
    sources = Counter(c["source"] for r in rows for c in r["solution_costs"])
    tasks = [
        {
            "task_id": r["task_id"],
            "difficulty": r["difficulty"],
            "solutions": len(r["solution_costs"]),
            "clusters": len(r["reference"]),
            "sizes": "/".join(str(n) for n in r["cluster_sizes"]),
            "slowest": r["reference_costs"][0],
            "fastest": r["reference_costs"][-1],
            "spread": r["reference_costs"][0] / r["reference_costs"][-1],
            "p99_cv": r["p99_cv"],
            "scale": r["pe_scale"],
            "bytes": r["pe_input_bytes"],
            "path": r["pe_generator_path"],
        }
        for r in rows
    ]
    data_files = {s: f"parquet/{s}.parquet" for s in names}
    front = front_matter(
        splits,
        card,
        data_files,
        sizes,
        features=DPE_FEATURES,
        tags=("code", "efficiency", "evalperf", "dpe", "leetcode", "benchmark"),
    )
    machine = {k: v for k, v in sorted(card.machine.items()) if k != "hostname"}
    return template("dpe_card.md.j2").render(
        front_matter=dump_yaml(front).rstrip("\n"),
        card=card,
        split_names=names,
        n_rows=len(rows),
        n_solutions=sum(len(r["solution_costs"]) for r in rows),
        clusters=sorted(clusters.items()),
        pe_paths=sorted(pe_paths.items()),
        pe_models=sorted(pe_models.items()),
        sources=sorted(sources.items()),
        tasks=tasks,
        funnel=funnel,
        drop_totals=drop_totals(card.funnel),
        parameters_yaml=dump_yaml(card.parameters).rstrip("\n") if card.parameters else "{}",
        machine=machine,
        seeds=card.seeds,
        fields=_dpe_field_rows(),
        repo_id=card.repo_id or "ORG/NAME",
        first_split=names[0],
        stability_bound=float(card.parameters.get("selection", {}).get("max_p99_cv", 0.05))
        if card.parameters
        else 0.05,
        rate_note=next((r["instruction_rate_source"] for r in rows if r["instruction_rate"]), None),
    )
