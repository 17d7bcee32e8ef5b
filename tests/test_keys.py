"""Cache keys follow the code (quicksilver/pipeline/keys.py): a stage's key covers the source of
every project module its logic imports, found from the imports themselves, never from a list kept
by hand (issue 14: the hand-kept list had drifted from the real imports)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from quicksilver.pipeline.keys import code_digest, import_closure

ROOT = Path(__file__).resolve().parents[1]


def _names(stage: str) -> set[str]:
    """The files a Mercury stage's key covers."""
    from quicksilver.stages.mercury import STAGE_LOGIC

    return {str(p.relative_to(ROOT)) for p in import_closure(STAGE_LOGIC[stage])}


def test_the_closure_finds_what_the_hand_kept_list_missed():
    # the drift the issue found, one line each
    uniqueness = _names("uniqueness")
    assert {"quicksilver/stages/filters.py", "quicksilver/sources/convert.py"} <= uniqueness
    assert "quicksilver/stages/filters.py" in _names("profile")
    assert "quicksilver/sources/convert.py" in _names("publish")
    assert "quicksilver/sources/text.py" in _names("generators")
    # data read at run time comes with the module that reads it
    profile = _names("profile")
    assert "quicksilver/sandbox/meter/qscount.c" in profile
    assert "quicksilver/sandbox/runtime/harness.py" in profile
    assert any(n.endswith("mercury_generator.j2") for n in _names("generators"))
    # and nothing that the stage does not reach
    assert not any("profiler" in n for n in _names("dedup"))


def _toy(tmp_path: Path, name: str) -> Path:
    pkg = tmp_path / name
    (pkg / "data").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "helper.py": "def double(x):\n    return 2 * x\n",
        "uses.py": "def run(x):\n    from .helper import double  # imported inside a function\n"
        "    return double(x)\n",
        "via.py": "from toypkg_ALIAS import uses\n",
        "alone.py": "import json\n\ndef run(x):\n    return json.dumps(x)\n",
        "reads.py": 'DATA_FILES = ("data/*.txt",)\n',
        "data/prompt.txt": "hello\n",
    }
    for rel, text in files.items():
        (pkg / rel).write_text(textwrap.dedent(text).replace("toypkg_ALIAS", name))
    return pkg


@pytest.fixture
def toy(tmp_path, monkeypatch):
    name = f"qs_keys_toy_{abs(hash(tmp_path)) % 10**8}"
    pkg = _toy(tmp_path, name)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name, pkg
    for mod in [m for m in sys.modules if m.startswith(name)]:
        del sys.modules[mod]


def test_editing_a_helper_changes_the_keys_of_its_importers_only(toy):
    name, pkg = toy
    before = {m: code_digest([f"{name}.{m}"]) for m in ("uses", "via", "alone", "reads")}
    (pkg / "helper.py").write_text("def double(x):\n    return x + x\n")
    after = {m: code_digest([f"{name}.{m}"]) for m in ("uses", "via", "alone", "reads")}
    assert after["uses"] != before["uses"]  # imports it inside a function
    assert after["via"] != before["via"]  # imports it through another module
    assert after["alone"] == before["alone"]
    assert after["reads"] == before["reads"]
    (pkg / "data" / "prompt.txt").write_text("hello again\n")
    assert code_digest([f"{name}.reads"]) != before["reads"]  # its DATA_FILES
    assert code_digest([f"{name}.alone"]) == before["alone"]


def test_an_unknown_module_is_an_error(toy):
    name, _ = toy
    with pytest.raises(ValueError, match="no module"):
        import_closure([f"{name}.nothing_here"])
