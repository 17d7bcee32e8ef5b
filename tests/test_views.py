"""The training views (``sft``, ``dpo``): picked from the train split only, written beside the
splits, listed in the card's ``configs`` so that ``datasets.load_dataset(folder, name=...)``
returns them, and released by ``quicksilver publish`` as configurations of their own.

Rows come from tests/test_publish.py's factory; runtimes are set per test.
"""

from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Any

import datasets
import pyarrow.parquet as pq
import pytest

from quicksilver.config import ViewsSection
from quicksilver.publishing.card import split_front_matter
from quicksilver.publishing.hub import DatasetDirError, publish_to_hub
from quicksilver.publishing.views import (
    DPO_FEATURES,
    SFT_FEATURES,
    ViewLeakError,
    check_no_leak,
    dpo_rows,
    sft_row,
    training_prompt,
    training_views,
)
from quicksilver.publishing.writer import write_dataset
from tests.conftest import HUB_TOKEN
from tests.test_publish import make_card, make_row, make_splits

pytestmark = pytest.mark.filterwarnings("ignore:Use 'content=<...>':DeprecationWarning")


def with_runtimes(row: dict[str, Any], runtimes: list[float], spread: float = 0.01) -> dict:
    """``row`` with one solution per runtime (CI of +-``spread`` relative), in that order."""
    row = copy.deepcopy(row)
    base = row["solutions"][0]["solution"]
    hashes = [1000 + i for i in range(len(runtimes))]
    row["solutions"] = [
        {"hash": h, "runtime": f"{r * 1e3:.3g}ms", "solution": f"{base}\n# variant {i}\n"}
        for i, (h, r) in enumerate(zip(hashes, runtimes, strict=True))
    ]
    row["solution_provenance"] = [
        {
            "hash": h,
            "source": "bundled",
            "model": None,
            "url": None,
            "runtime_reported": None,
            "imports_added": [],
        }
        for h in hashes
    ]
    row["reference_runtimes"] = [
        {
            "hash": h,
            "runtime": r,
            "ci_low": r * (1 - spread),
            "ci_high": r * (1 + spread),
            "rounds": 3,
            "converged": True,
            "flags": [],
        }
        for h, r in zip(hashes, runtimes, strict=True)
    ]
    row["reference_peak_memory"] = [  # 1 MiB each: the views do not read memory
        {"hash": h, "peak_memory_bytes": 1 << 20, "case_peak_memory_bytes": [1 << 20]}
        for h in hashes
    ]
    return row


def test_sft_takes_the_fastest_solution():
    row = with_runtimes(make_row(), [0.5, 0.1, 0.3])
    sft = sft_row(row)
    assert sft is not None
    assert sft["completion"].endswith("# variant 1\n") and sft["runtime"] == 0.1
    assert sft["solution_hash"] == 1001 and sft["slug_name"] == "two-sum"
    # the prompt: statement, instruction, starter code
    assert sft["prompt"] == training_prompt(row)
    assert row["pretty_content"][0] in sft["prompt"] and row["prompt"].rstrip() in sft["prompt"]
    assert list(sft) == list(SFT_FEATURES)


def test_dpo_pairs_largest_gaps_first_with_a_minimum_and_a_count():
    row = with_runtimes(make_row(), [1.0, 0.9, 0.5, 0.1])
    settings = ViewsSection(dpo_pairs_per_task=2, dpo_min_gap=0.2)
    pairs = dpo_rows(row, settings)
    assert [(p["chosen_runtime"], p["rejected_runtime"]) for p in pairs] == [(0.1, 1.0), (0.1, 0.9)]
    assert pairs[0]["gap"] == pytest.approx(0.9)
    assert all(p["chosen_runtime"] < p["rejected_runtime"] for p in pairs)
    assert list(pairs[0]) == list(DPO_FEATURES)
    # every pair with a gap >= 0.2: 6 pairs less (1.0, 0.9) at 0.1
    assert len(dpo_rows(row, ViewsSection(dpo_pairs_per_task=10, dpo_min_gap=0.2))) == 5
    assert len(dpo_rows(row, ViewsSection(dpo_pairs_per_task=10, dpo_min_gap=0.95))) == 0


def test_dpo_leaves_out_pairs_within_measurement_noise():
    row = with_runtimes(make_row(), [1.0, 0.7], spread=0.2)  # CIs [0.8, 1.2] and [0.56, 0.84]
    assert dpo_rows(row, ViewsSection(dpo_min_gap=0.1)) == []
    assert len(dpo_rows(row, ViewsSection(dpo_min_gap=0.1, dpo_disjoint_ci=False))) == 1


def _splits() -> dict[str, list[dict[str, Any]]]:
    splits = make_splits()
    for rows in splits.values():
        rows[:] = [with_runtimes(r, [0.4, 0.2, 0.1]) for r in rows]
    return splits


def test_no_eval_task_reaches_a_training_view():
    splits = _splits()
    views = training_views(splits, ViewsSection())
    train = {r["slug_name"] for r in splits["train"]}
    eval_slugs = {r["slug_name"] for r in splits["eval"]}
    for name in ("sft", "dpo"):
        slugs = {r["slug_name"] for r in views[name]}
        assert slugs == train and not slugs & eval_slugs
    # and a view that did hold one is refused, whoever made it
    leaked = {"dpo": [*views["dpo"], {**views["dpo"][0], "slug_name": "valid-parentheses"}]}
    with pytest.raises(ViewLeakError, match="'valid-parentheses', a task of the 'eval' split"):
        check_no_leak(leaked, splits)
    with pytest.raises(ViewLeakError, match="not a train task"):
        check_no_leak({"sft": [{"slug_name": "nowhere"}]}, splits)


def test_views_can_be_turned_off_and_an_empty_view_is_left_out():
    splits = _splits()
    assert list(training_views(splits, ViewsSection(dpo=False))) == ["sft"]
    assert list(training_views(splits, ViewsSection(dpo_min_gap=0.99))) == ["sft"]
    assert training_views({"eval": splits["eval"]}, ViewsSection()) == {}


@pytest.fixture
def with_views(tmp_path) -> tuple[Path, dict[str, list[dict[str, Any]]], dict[str, list]]:
    splits = _splits()
    cfg = ViewsSection(dpo_pairs_per_task=2)
    views = training_views(splits, cfg)
    card = make_card(parameters={"views": cfg.model_dump(mode="json")})
    out = tmp_path / "mercury"
    paths = write_dataset(splits, out, card, views=views)
    assert sorted(paths.views) == ["dpo", "sft"]
    return out, splits, views


def test_load_dataset_reads_each_view_by_name(with_views, tmp_path):
    out, splits, views = with_views
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "hf", "parquet", "views"]
    cache = str(tmp_path / "cache")
    dpo = datasets.load_dataset(str(out), name="dpo", cache_dir=cache)
    assert list(dpo) == ["train"] and dpo["train"].features == DPO_FEATURES
    assert dpo["train"].to_list() == views["dpo"]
    assert len(dpo["train"]) == 2 * len(splits["train"])  # 3 pairs each, 2 kept
    sft = datasets.load_dataset(str(out), name="sft", split="train", cache_dir=cache)
    assert sft.features == SFT_FEATURES and sft.to_list() == views["sft"]
    # the benchmark is still the default configuration
    default = datasets.load_dataset(str(out), cache_dir=cache)
    assert {k: len(v) for k, v in default.items()} == {"train": 4, "eval": 2}


def test_card_documents_the_views(with_views):
    out, _, views = with_views
    meta, body = split_front_matter((out / "README.md").read_text())
    assert [c["config_name"] for c in meta["configs"]] == ["default", "sft", "dpo"]
    assert meta["configs"][2]["data_files"] == [
        {"split": "train", "path": "views/dpo/train.parquet"}
    ]
    infos = {i["config_name"]: i for i in meta["dataset_info"]}
    assert infos["dpo"]["splits"][0]["num_examples"] == len(views["dpo"])
    assert "## Training views" in body and "*standard* (not conversational)" in body
    assert "at most 2 per task (`views.dpo_pairs_per_task`)" in body
    assert "| `dpo` | 8 | 4 | preference |" in body
    for column in ("`chosen_runtime`", "`rejected`", "`gap`", "`completion`"):
        assert column in body


def test_rewrite_without_views_removes_the_old_ones(with_views):
    out, splits, _ = with_views
    write_dataset(splits, out, make_card())
    assert not (out / "views").exists()
    meta, body = split_front_matter((out / "README.md").read_text())
    assert [c["config_name"] for c in meta["configs"]] == ["default"]
    assert "## Training views" not in body


def test_write_refuses_a_view_holding_an_eval_task(tmp_path):
    splits = _splits()
    views = training_views(splits, ViewsSection())
    views["sft"].append({**views["sft"][0], "slug_name": "trap-rain"})
    with pytest.raises(ViewLeakError):
        write_dataset(splits, tmp_path / "out", make_card(), views=views)
    assert not (tmp_path / "out" / "README.md").exists()


def test_publish_releases_the_views(with_views, hub, tmp_path):
    out, _, views = with_views
    report = publish_to_hub(out, "org/mercury", revision="v1", private=False, token=HUB_TOKEN)
    assert report.views == {"sft": 4, "dpo": 8}
    repo = hub.repo("org/mercury")
    files = repo.files("v1")
    assert "sft/train-00000-of-00001.parquet" in files
    dpo_file = files["dpo/train-00000-of-00001.parquet"]
    assert pq.read_table(io.BytesIO(dpo_file)).to_pylist() == views["dpo"]
    meta, _ = split_front_matter(files["README.md"].decode())
    assert meta["configs"][1:] == [
        {"config_name": "sft", "data_files": [{"split": "train", "path": "sft/train-*"}]},
        {"config_name": "dpo", "data_files": [{"split": "train", "path": "dpo/train-*"}]},
    ]
    titles = [c.title for c in repo.history("v1")]
    assert titles[:4] == [
        "Dataset card (Quicksilver)",
        "Upload the dpo view (8 rows) for v1",
        "Upload the sft view (4 rows) for v1",
        "Upload 6 rows for v1",
    ]
    loaded = datasets.load_dataset(
        "org/mercury",
        name="dpo",
        split="train",
        revision="v1",
        token=HUB_TOKEN,
        cache_dir=str(tmp_path / "cache"),
    )
    assert loaded.features == DPO_FEATURES and loaded.to_list() == views["dpo"]


def test_publish_refuses_a_folder_whose_view_leaks(with_views, hub):
    out, _, views = with_views
    path = out / "views" / "sft" / "train.parquet"
    rows = [*views["sft"], {**views["sft"][0], "slug_name": "valid-parentheses"}]
    datasets.Dataset.from_list(rows, features=SFT_FEATURES).to_parquet(str(path))
    with pytest.raises(DatasetDirError, match="a task of the 'eval' split"):
        publish_to_hub(out, "org/leaky", revision=None, private=False, token=HUB_TOKEN)
    assert ("dataset", "org/leaky") not in hub.repos and hub.requests == []
