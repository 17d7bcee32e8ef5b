"""quicksilver.preflight: the checks a build makes before its first stage (one line each)."""

from __future__ import annotations

from pathlib import Path

import pytest

from quicksilver.config import BuildConfig, DPEBuildConfig, load_build_config
from quicksilver.preflight import (
    BUILD_CHECKS,
    NotReady,
    check_build_ready,
    publish_check,
    snapshots_check,
    splits_check,
)
from quicksilver.sandbox import isolation
from tests.conftest import requires_bwrap

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "data" / "snapshot" / "bundled"


def _cfg(tmp_path: Path, *overrides: str, cls: type[BuildConfig] = BuildConfig) -> BuildConfig:
    return load_build_config(
        None, [f"snapshots=[{BUNDLED}]", f"out_dir={tmp_path / 'out'}", *overrides], cls=cls
    )


@pytest.fixture
def unusable_bwrap(monkeypatch):
    """bwrap installed but failing its trial run, with a two-line complaint."""
    calls: list[int] = []

    def probe() -> tuple[bool, str]:
        calls.append(1)
        return False, "bwrap is installed but a trial run failed: bwrap: No permissions\nto unshare"

    monkeypatch.setattr(isolation, "probe_bwrap", probe)
    return calls


def test_unusable_sandbox_is_one_line_naming_the_problem(tmp_path, unusable_bwrap):
    with pytest.raises(NotReady) as info:
        check_build_ready(_cfg(tmp_path))
    assert str(info.value) == (
        "cannot run untrusted code here: bwrap is installed but a trial run failed: bwrap: "
        "No permissions to unshare"
    )
    assert unusable_bwrap, "the real trial (probe_bwrap) decided"
    assert not (tmp_path / "out").exists()


def test_weak_sandbox_accepted_when_the_config_allows_it(tmp_path, unusable_bwrap):
    check_build_ready(_cfg(tmp_path, "profile.sandbox.allow_weak=true"))


def test_dpe_build_checks_its_profiling_sandbox_too(tmp_path, unusable_bwrap):
    # the correctness stages may run weak; the DPE profiling sandbox may not
    cfg = _cfg(tmp_path, "sandbox.allow_weak=true", cls=DPEBuildConfig)
    with pytest.raises(NotReady, match=r"^cannot run untrusted code here: bwrap is installed"):
        check_build_ready(cfg)


@requires_bwrap  # the preflight tries the sandbox first
def test_missing_snapshot_folder_is_named(tmp_path):
    missing = tmp_path / "no-snapshot"
    cfg = load_build_config(None, [f"snapshots=[{BUNDLED}, {missing}]", f"out_dir={tmp_path}/o"])
    with pytest.raises(NotReady) as info:
        check_build_ready(cfg)
    assert str(info.value) == f"snapshot folder {missing} does not exist (snapshots in the config)"


@requires_bwrap  # the preflight tries the sandbox first
def test_output_folder_that_is_a_file_is_named(tmp_path):
    (tmp_path / "out").write_text("not a folder")
    with pytest.raises(NotReady) as info:
        check_build_ready(_cfg(tmp_path))
    assert str(info.value) == (
        f"output folder {tmp_path / 'out'}: cannot write: {tmp_path / 'out'} is not a folder"
    )


@requires_bwrap
def test_checks_run_in_order_and_a_new_one_plugs_in(tmp_path):
    """The place for a later check (a meter's readiness): a function in a list."""
    seen: list[str] = []

    def meter_ready(cfg: BuildConfig) -> str | None:
        seen.append(cfg.profile.measure.meter)
        return f"meter {cfg.profile.measure.meter} is not\nready"

    cfg = _cfg(tmp_path)
    check_build_ready(cfg, [lambda c: None])  # all well: nothing raised
    with pytest.raises(NotReady, match=r"^meter icount is not ready$"):
        check_build_ready(cfg, [*BUILD_CHECKS, meter_ready])
    assert seen == ["icount"]
    assert not (tmp_path / "out").exists()


# --- what could fail after the build is checked before it --------------------------------------


def test_snapshot_folders_without_a_question_file_are_named(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "_plan.json").write_text("{}")  # bookkeeping, not a question
    cfg = load_build_config(None, [f"snapshots=[{empty}]", f"out_dir={tmp_path / 'out'}"])
    assert snapshots_check(cfg) == (
        f"no question file (*.json) in the snapshot folder(s) {empty} (snapshots)"
    )


def test_only_naming_no_question_stops_and_a_missing_name_is_a_warning(tmp_path, caplog):
    assert snapshots_check(_cfg(tmp_path, "only=[no-such-task, nor-this-one]")) == (
        "none of the 2 slug(s) in only is in the snapshots: no-such-task, nor-this-one"
    )
    assert snapshots_check(_cfg(tmp_path, "only=[]")) == (
        "only is an empty list: no task would be built (leave it out to build all)"
    )
    with caplog.at_level("WARNING", logger="quicksilver.preflight"):
        assert snapshots_check(_cfg(tmp_path, "only=[primes-below, no-such-task]")) is None
    assert [r.getMessage() for r in caplog.records] == [
        "only: no-such-task not in the snapshots; built without them"
    ]


def test_only_finds_a_question_whose_file_is_named_otherwise(tmp_path):
    folder = tmp_path / "snap"
    folder.mkdir()
    (folder / "renamed.json").write_text((BUNDLED / "primes-below.json").read_text())
    cfg = load_build_config(
        None, [f"snapshots=[{folder}]", f"out_dir={tmp_path / 'o'}", "only=[primes-below]"]
    )
    assert snapshots_check(cfg) is None


def test_eval_size_as_large_as_the_questions_is_a_warning(tmp_path, caplog):
    two = "only=[primes-below, zeroes-to-end]"
    with caplog.at_level("WARNING", logger="quicksilver.preflight"):
        assert splits_check(_cfg(tmp_path, two, "splits.eval_size=1")) is None
        assert caplog.records == []
        assert splits_check(_cfg(tmp_path, two, "splits.eval_size=3")) is None
    assert [r.getMessage() for r in caplog.records] == [
        "splits.eval_size 3 is at least the 2 question(s) to build: train gets only what eval's "
        "per-difficulty quotas leave, maybe nothing (an empty split is left out of the dataset, "
        "with a note)"
    ]


@pytest.fixture
def private_tmp(tmp_path, monkeypatch) -> Path:
    """tempfile's folder, to see that the publish check leaves nothing behind."""
    import tempfile

    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.mark.parametrize("cls", [BuildConfig, DPEBuildConfig])
def test_publish_check_passes_and_leaves_nothing_behind(tmp_path, private_tmp, cls):
    assert publish_check(_cfg(tmp_path, cls=cls)) is None
    assert list(private_tmp.iterdir()) == []
    assert not (tmp_path / "out").exists()


PUBLISH_FAILS = "the publish stage would fail after the build: "


def test_a_row_that_does_not_fit_the_schema_is_found_before_the_build(
    tmp_path, private_tmp, monkeypatch
):
    """The Mercury row grew a column MERCURY_FEATURES does not have: found in seconds, not after the
    build, with the field named."""
    from quicksilver.stages import publish as rows

    real = rows.mercury_row
    monkeypatch.setattr(rows, "mercury_row", lambda *a, **k: {**real(*a, **k), "n_solutions": 2})
    assert publish_check(_cfg(tmp_path)) == (
        PUBLISH_FAILS + "ValueError: the example row is set aside: example-sum-pair: not "
        "published: n_solutions: unexpected field (not in MERCURY_FEATURES)"
    )
    assert list(private_tmp.iterdir()) == []


def test_a_row_that_cannot_be_made_is_found_before_the_build(tmp_path, private_tmp, monkeypatch):
    from quicksilver.stages import publish as rows

    def broken(record: object, *args: object, **kwargs: object) -> dict:
        row: dict = {"slug_name": getattr(record, "slug", None)}
        return {**row, "runtime": row["runtime"]}

    monkeypatch.setattr(rows, "mercury_row", broken)
    assert publish_check(_cfg(tmp_path)) == (
        PUBLISH_FAILS + "ValueError: the example row is set aside: example-sum-pair: no row could "
        "be made: KeyError: 'runtime'"
    )


def test_a_dpe_row_that_does_not_fit_the_schema_is_found_before_the_build(
    tmp_path, private_tmp, monkeypatch
):
    from quicksilver.stages import publish_dpe

    real = publish_dpe.dpe_row

    def without_seed(*args: object, **kwargs: object) -> dict:
        return {k: v for k, v in real(*args, **kwargs).items() if k != "pe_seed"}

    monkeypatch.setattr(publish_dpe, "dpe_row", without_seed)
    assert publish_check(_cfg(tmp_path, cls=DPEBuildConfig)) == (
        PUBLISH_FAILS + "ValueError: the example row is set aside: example-sum-pair: not "
        "published: pe_seed: missing"
    )


@pytest.mark.parametrize("cls", [BuildConfig, DPEBuildConfig])
def test_a_card_template_that_does_not_render_is_found_before_the_build(
    tmp_path, private_tmp, monkeypatch, cls
):
    from quicksilver.publishing import card as publish

    name = "dpe_card.md.j2" if cls is DPEBuildConfig else "mercury_card.md.j2"
    templates = tmp_path / "templates"
    templates.mkdir()
    text = (publish.TEMPLATES / name).read_text()
    (templates / name).write_text(text.replace("{{ card.meter }}", "{{ card.meters }}"))
    monkeypatch.setattr(publish, "TEMPLATES", templates)
    assert publish_check(_cfg(tmp_path, cls=cls)) == (
        PUBLISH_FAILS + "UndefinedError: 'quicksilver.publishing.card.CardContext object' has no "
        "attribute 'meters'"
    )
    (templates / name).unlink()
    assert publish_check(_cfg(tmp_path, cls=cls)) == (
        PUBLISH_FAILS + f"TemplateNotFound: '{name}' not found in search path: '{templates}'"
    )
    assert list(private_tmp.iterdir()) == []


@requires_bwrap  # the preflight tries the sandbox first
def test_the_build_stops_with_the_publish_check_line_and_writes_nothing(tmp_path, monkeypatch):
    from quicksilver.publishing import card as publish

    assert BUILD_CHECKS[-1] is publish_check  # the slowest check comes last
    missing = tmp_path / "no-templates"
    monkeypatch.setattr(publish, "TEMPLATES", missing)
    with pytest.raises(NotReady) as info:
        check_build_ready(_cfg(tmp_path))
    assert str(info.value) == (
        PUBLISH_FAILS
        + f"TemplateNotFound: 'mercury_card.md.j2' not found in search path: '{missing}'"
    )
    assert not (tmp_path / "out").exists()


def test_a_full_temporary_folder_skips_the_publish_check_with_a_warning(
    tmp_path, private_tmp, monkeypatch, caplog
):
    """The example goes to the temporary folder, not to the build's: a full /tmp says nothing
    about the build, so it is a warning, not a stop."""
    import errno

    import datasets

    def full(self: object, *args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(datasets.DatasetDict, "save_to_disk", full)
    with caplog.at_level("WARNING", logger="quicksilver.preflight"):
        assert publish_check(_cfg(tmp_path)) is None
    assert "publish check skipped: its temporary folder cannot take it" in caplog.text
