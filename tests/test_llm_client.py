"""One LLM client (quicksilver/llm.py): typed in the config when it is read, shared by generator
synthesis, SaS and candidate sampling, with prompts found as package data or by config."""

from __future__ import annotations

from pathlib import Path

import pytest

from quicksilver.config import (
    CandidatesSection,
    CheckerSection,
    LLMConfig,
    SandboxConfig,
    SaSSection,
)
from quicksilver.dpe.llm_solutions import LLMCandidates
from quicksilver.dpe.sas import SaSSynthesizer
from quicksilver.llm import ChatClient
from quicksilver.multianswer import CheckerWriter
from quicksilver.prompts import PROMPTS_DIR
from quicksilver.synth import SynthInput
from quicksilver.synth.llm import LLMSynthesizer

ROOT = Path(__file__).resolve().parents[1]
TASK = SynthInput(
    slug="t",
    title="T",
    content_html="<p>Return it.</p>",
    meta={"name": "f", "params": [{"name": "x", "type": "integer"}], "return": {"type": "integer"}},
    prompt="class Solution:\n    def f(self, x: int) -> int:\n        ",
)


@pytest.mark.parametrize(
    "key,cls",
    [
        ("synthesis.llm.modle", "BuildConfig"),
        ("sas.llm.base_ulr", "DPEBuildConfig"),
        ("candidates.llm.timeout", "DPEBuildConfig"),
        ("uniqueness.checker.llm.modle", "BuildConfig"),
    ],
)
def test_a_misspelt_llm_key_stops_the_build_when_the_config_is_read(key, cls):
    from quicksilver import config

    with pytest.raises(config.ConfigError, match=key.replace(".", r"\.")):
        config.load_build_config(
            ROOT / "configs" / ("dpe.yaml" if cls == "DPEBuildConfig" else "mercury.yaml"),
            [f"{key}=x"],
            cls=getattr(config, cls),
        )


def test_the_config_records_the_llm_keys_as_written():
    from quicksilver.config import load_build_config

    cfg = load_build_config(ROOT / "configs" / "mercury.yaml", ["synthesis.llm.model=m"])
    assert cfg.synthesis.llm.model == "m" and cfg.synthesis.llm.n == 1  # typed, defaults there
    assert cfg.digest_view()["synthesis"]["llm"] == {"model": "m"}  # the card shows what was set


def test_every_llm_path_asks_through_the_one_client(tmp_path):
    llm = LLMConfig(base_url="http://unused/v1", model="m")
    paths = [
        LLMSynthesizer(llm, tmp_path).client,
        SaSSynthesizer(SaSSection(llm=llm, cache_dir=str(tmp_path))).client,
        LLMCandidates(CandidatesSection(llm=llm, cache_dir=str(tmp_path))).client,
        CheckerWriter(CheckerSection(llm=llm, cache_dir=tmp_path), SandboxConfig()).client,
    ]
    assert all(type(p) is ChatClient for p in paths)


def test_prompts_are_package_data_or_a_folder_the_config_names(tmp_path):
    llm = LLMConfig(base_url="http://unused/v1", model="m")
    assert LLMSynthesizer(llm, tmp_path).prompts_dir == PROMPTS_DIR
    assert PROMPTS_DIR.is_relative_to(ROOT / "quicksilver")  # inside the package, not the checkout
    assert {p.name for p in PROMPTS_DIR.glob("*.j2")} == {
        "mercury_generator.j2",
        "sas.j2",
        "dpe_solution.j2",
        "answer_checker.j2",
    }
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "mercury_generator.j2").write_text(
        "{% set system %}S{% endset %}{% macro feedback(reason) %}{{ reason }}{% endmacro %}"
        "mine: {{ method }}"
    )
    (mine / "sas.j2").write_text("{% set system %}S{% endset %}sas: {{ method }}")
    own = llm.model_copy(update={"prompts_dir": mine})
    assert LLMSynthesizer(own, tmp_path).messages(TASK)[1]["content"] == "mine: f\n"
    sas = SaSSynthesizer(SaSSection(llm=own, cache_dir=str(tmp_path)))
    assert sas.messages(TASK, "class Solution: ...")[1]["content"] == "sas: f\n"
