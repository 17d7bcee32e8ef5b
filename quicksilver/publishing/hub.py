"""Releasing a published folder to the Hugging Face Hub: validated before any request, the splits
pushed as Parquet shards, our card in place of the generated one, the release tagged.

The token comes from ``$HF_TOKEN`` (or ``$HUGGING_FACE_HUB_TOKEN``), never from a prompt."""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quicksilver.publishing.card import hub_card, split_front_matter
from quicksilver.publishing.dpe_schema import validate_dpe_dataset_dict
from quicksilver.publishing.schema import validate_dataset_dict
from quicksilver.publishing.views import VIEW_FEATURES, ViewLeakError, check_no_leak, view_path
from quicksilver.publishing.writer import CARD_FILENAME

if TYPE_CHECKING:
    from datasets import Dataset, DatasetDict

log = logging.getLogger(__name__)

TOKEN_ENV_VARS = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")


class PublishError(RuntimeError):
    """Publishing failed; the message says at which step and why (never the token)."""


class MissingTokenError(PublishError):
    """No Hugging Face token was given or found in the environment."""


class DatasetDirError(PublishError):
    """The folder is not a complete dataset written by :func:`write_dataset`."""


class HubError(PublishError):
    """The Hub refused or failed a request."""


@dataclass(frozen=True)
class PublishReport:
    """What :func:`publish_to_hub` did."""

    repo_id: str
    repo_url: str
    created: bool
    """True when the repo did not exist before."""
    private: bool
    splits: dict[str, int]
    data_commit: str
    data_commit_url: str
    card_commit: str
    card_commit_url: str
    tag: str | None
    views: dict[str, int] = field(default_factory=dict)
    """The training views pushed (``<view>/train-*``), with their rows."""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def resolve_token(token: str | None = None) -> str:
    """``token``, else ``$HF_TOKEN``, else ``$HUGGING_FACE_HUB_TOKEN``; never a prompt."""
    if token:
        return token
    for name in TOKEN_ENV_VARS:
        value = os.environ.get(name, "").strip()
        if value:
            return value
    raise MissingTokenError(
        "no Hugging Face token: set HF_TOKEN (or HUGGING_FACE_HUB_TOKEN) to a token with write "
        "access to the repo (https://huggingface.co/settings/tokens)"
    )


_REPO_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*")
_TAG = re.compile(r"[A-Za-z0-9][\w.+-]*(/[\w.+-]+)*")


def load_published(dataset_dir: Path) -> tuple[DatasetDict, str]:
    """The validated ``DatasetDict`` and card text of a folder written by :func:`write_dataset`."""
    import datasets

    dataset_dir = Path(dataset_dir)
    card_path = dataset_dir / CARD_FILENAME
    hf_dir = dataset_dir / "hf"
    if not dataset_dir.is_dir():
        raise DatasetDirError(f"{dataset_dir}: no such folder")
    if not card_path.is_file():
        raise DatasetDirError(
            f"{dataset_dir}: no {CARD_FILENAME}: not a dataset folder, or its write did not finish"
        )
    if not (hf_dir / "dataset_dict.json").is_file():
        raise DatasetDirError(f"{hf_dir}: no dataset_dict.json: not written by save_to_disk")
    try:
        dd = datasets.load_from_disk(str(hf_dir))
    except (OSError, ValueError) as exc:
        raise DatasetDirError(f"{hf_dir}: cannot load: {exc}") from exc
    if not isinstance(dd, datasets.DatasetDict):
        raise DatasetDirError(f"{hf_dir}: holds a single Dataset, not a DatasetDict of splits")
    validate_published(dd)
    text = card_path.read_text(encoding="utf-8")
    try:
        split_front_matter(text)
    except ValueError as exc:
        raise DatasetDirError(f"{card_path}: {exc}") from exc
    return dd, text


def load_views(dataset_dir: Path, dd: DatasetDict, card_text: str) -> dict[str, Dataset]:
    """The training views the card's ``configs`` list (``views/<name>/train.parquet``), each
    checked: a known view, its file there, its features, and no task outside train in it."""
    import datasets

    meta, _ = split_front_matter(card_text)
    names = [c.get("config_name") for c in meta.get("configs") or []]
    views: dict[str, Dataset] = {}
    for name in names:
        if name == "default":
            continue
        if name not in VIEW_FEATURES:
            raise DatasetDirError(
                f"{dataset_dir}: the card lists an unknown configuration {name!r}"
            )
        path = Path(dataset_dir) / view_path(name)
        if not path.is_file():
            raise DatasetDirError(f"{path}: the card lists the {name!r} view, its file is missing")
        try:
            view = datasets.Dataset.from_parquet(str(path), features=VIEW_FEATURES[name])
        except (OSError, ValueError) as exc:
            raise DatasetDirError(f"{path}: cannot load: {exc}") from exc
        assert isinstance(view, datasets.Dataset)
        views[str(name)] = view
    splits = {str(s): [{"slug_name": x} for x in ds["slug_name"]] for s, ds in dd.items()}
    try:
        check_no_leak(
            {n: [{"slug_name": x} for x in v["slug_name"]] for n, v in views.items()}, splits
        )
    except ViewLeakError as exc:
        raise DatasetDirError(f"{dataset_dir}: {exc}") from exc
    return views


def validate_published(dd: DatasetDict) -> None:
    """Check a loaded dataset against its format's schema: DPE / EvalPerf when it has
    ``pe_input`` (:func:`~quicksilver.publishing.dpe_schema.validate_dpe_dataset_dict`), else
    Mercury (:func:`~quicksilver.publishing.schema.validate_dataset_dict`)."""
    if any("pe_input" in ds.features for ds in dd.values()):
        validate_dpe_dataset_dict(dd)
    else:
        validate_dataset_dict(dd)


def _check_names(repo_id: str, revision: str | None) -> None:
    """The repo id is ORG/NAME and the tag, when given, is usable: checked before any request."""
    if not _REPO_ID.fullmatch(repo_id):
        raise PublishError(f"repo id {repo_id!r} is not of the form ORG/NAME")
    if revision is not None and (
        not _TAG.fullmatch(revision) or revision in ("main", "HEAD") or ".." in revision
    ):
        raise PublishError(f"{revision!r} is not a usable tag name")


def publish_to_hub(
    dataset_dir: Path,
    repo_id: str,
    *,
    revision: str | None,
    private: bool,
    token: str | None = None,
) -> PublishReport:
    """Push a folder written by :func:`write_dataset` to the dataset repo ``repo_id``.

    Order: token, arguments and the whole dataset are checked before any request; then the repo
    is looked at (a ``private`` release never goes into an existing public repo, and an existing
    tag ``revision`` stops the release before anything is pushed); ``push_to_hub`` uploads the
    splits as Parquet shards under ``data/``, then each training view as its configuration
    (``<view>/train-*``); our card replaces the generated one (its ``configs`` pointed at the
    pushed shards); and ``revision``, when given, tags that commit.

    (Over 120 lines on purpose: the release is one sequence of requests sharing one error context,
    ``step``, which names the request that failed in the one line a failure gives.)
    """
    import datasets
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError

    token = resolve_token(token)
    _check_names(repo_id, revision)
    dd, card_text = load_published(Path(dataset_dir))
    views = load_views(Path(dataset_dir), dd, card_text)
    splits = {str(name): len(ds) for name, ds in dd.items()}
    card_bytes = hub_card(card_text, splits).encode("utf-8")

    endpoint = datasets.config.HF_ENDPOINT
    api = HfApi(endpoint=endpoint, token=token)
    step = "looking up the repo"
    try:
        try:
            info = api.repo_info(repo_id, repo_type="dataset", token=token)
        except RepositoryNotFoundError:
            info = None
        if info is not None:
            if private and not info.private:
                raise PublishError(
                    f"{repo_id} exists and is public; refusing a --private release into it "
                    "(make the repo private first, or publish without --private)"
                )
            if revision is not None:
                step = "listing the repo's tags"
                tags = {ref.name for ref in api.list_repo_refs(repo_id, repo_type="dataset").tags}
                if revision in tags:
                    raise PublishError(f"{repo_id} already has a tag {revision!r}; nothing pushed")
        step = "pushing the splits"
        log.info(
            "pushing %s to %s/datasets/%s",
            ", ".join(f"{k} ({v})" for k, v in splits.items()),
            endpoint,
            repo_id,
        )
        data_commit = dd.push_to_hub(
            repo_id,
            private=private,
            token=token,
            commit_message=f"Upload {sum(splits.values())} rows"
            + (f" for {revision}" if revision else ""),
        )
        if data_commit is None:  # pragma: no cover - only for bucket pushes
            raise PublishError("push_to_hub returned no commit")
        head = data_commit
        for name, view in views.items():
            step = f"pushing the {name} view"
            pushed = view.push_to_hub(
                repo_id,
                config_name=name,
                split="train",
                private=private,
                token=token,
                commit_message=f"Upload the {name} view ({len(view)} rows)"
                + (f" for {revision}" if revision else ""),
            )
            if pushed is None:  # pragma: no cover - only for bucket pushes
                raise PublishError(f"push_to_hub returned no commit for the {name} view")
            head = pushed
        step = "uploading the dataset card"
        card_commit = api.upload_file(
            path_or_fileobj=card_bytes,
            path_in_repo=CARD_FILENAME,
            repo_id=repo_id,
            repo_type="dataset",
            token=token,
            commit_message="Dataset card (Quicksilver)",
            parent_commit=head.oid,
        )
        if revision is not None:
            step = f"creating the tag {revision!r}"
            api.create_tag(
                repo_id,
                tag=revision,
                tag_message=f"Quicksilver release {revision}",
                revision=card_commit.oid,
                repo_type="dataset",
                token=token,
            )
    except PublishError:
        raise
    except HfHubHTTPError as exc:
        raise HubError(f"Hub error while {step} ({repo_id}): {exc}") from exc
    except Exception as exc:
        # Connection failures (httpx), client-side checks (ValueError), local I/O: all end the
        # release at this step; the cause stays chained for the traceback.
        raise HubError(f"failed while {step} ({repo_id}): {type(exc).__name__}: {exc}") from exc
    repo_url = f"{endpoint}/datasets/{repo_id}"
    log.info(
        "published %s at %s%s", repo_id, card_commit.oid, f" (tag {revision})" if revision else ""
    )
    return PublishReport(
        repo_id=repo_id,
        repo_url=repo_url,
        created=info is None,
        private=bool(info.private) if info is not None else private,
        splits=splits,
        data_commit=data_commit.oid,
        data_commit_url=data_commit.commit_url,
        card_commit=card_commit.oid,
        card_commit_url=card_commit.commit_url,
        tag=revision,
        views={name: len(view) for name, view in views.items()},
    )
