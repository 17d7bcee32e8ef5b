"""Cache keys follow the code (quicksilver/pipeline/keys.py): a stage's key covers the source of
every project module its logic imports, found from the imports themselves, never from a list kept
by hand (issue 14: the hand-kept list had drifted from the real imports)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from quicksilver.pipeline.keys import code_digest, import_closure, module_file

ROOT = Path(__file__).resolve().parents[1]


def _names(stage: str) -> set[str]:
    """The files a Mercury stage's key covers."""
    from quicksilver.builds import MERCURY

    return {str(p.relative_to(ROOT)) for p in import_closure(MERCURY.stage(stage).code)}


def test_the_closure_finds_what_the_hand_kept_list_missed():
    # the drift the issue found, in today's layout: the min-solutions filter is in
    # pipeline/stage.py, the conversion code in sources/convert.py, the statement's wording in
    # sources/text.py
    uniqueness = _names("uniqueness")
    assert {"quicksilver/pipeline/stage.py", "quicksilver/sources/convert.py"} <= uniqueness
    assert "quicksilver/sources/text.py" in uniqueness
    assert "quicksilver/pipeline/stage.py" in _names("profile")
    assert "quicksilver/sources/convert.py" in _names("publish")
    assert "quicksilver/sources/text.py" in _names("generators")
    # data read at run time comes with the module that reads it
    profile = _names("profile")
    assert "quicksilver/sandbox/meter/qscount.c" in profile
    assert "quicksilver/sandbox/runtime/harness.py" in profile
    assert "quicksilver/prompts/mercury_generator.j2" in _names("generators")
    assert "quicksilver/templates/mercury_card.md.j2" in _names("publish")
    # and nothing that the stage does not reach
    assert not any("profiler" in n for n in _names("dedup"))


def test_the_offline_synthesizer_modules_are_in_the_keys_of_the_stages_that_run_it():
    """synth/offline is split into modules that import each other (analysis.py runs facts,
    sentences, schedule, ...): each of them is in the keys of the stages that synthesize
    offline (Mercury's generators, DPE's sas), and not in the key of one that does not."""
    from quicksilver.builds import DPE

    offline = {
        str(p.relative_to(ROOT)) for p in (ROOT / "quicksilver" / "synth" / "offline").glob("*.py")
    }
    assert {
        "quicksilver/synth/offline/schedule.py",
        "quicksilver/synth/offline/facts.py",
    } <= offline
    # the checker reads generated inputs against their spec: it is the testcases stage's (and
    # DPE sampling's), not the synthesizing stages'
    # (checker.py and its parts, checker_*.py)
    checkers = {n for n in offline if Path(n).name.startswith("checker")}
    assert "quicksilver/synth/offline/checker.py" in checkers and len(checkers) > 1
    assert checkers <= _names("testcases")
    sampling = {str(p.relative_to(ROOT)) for p in import_closure(DPE.stage("sampling").code)}
    assert checkers <= sampling
    offline -= checkers
    assert offline <= _names("generators")
    dpe_sas = {str(p.relative_to(ROOT)) for p in import_closure(DPE.stage("sas").code)}
    assert offline <= dpe_sas
    assert not offline & _names("profile")


def test_every_stage_key_covers_what_its_logic_imports():
    """For every stage of both builds, each project module its file imports is in its key."""
    import ast

    from quicksilver.builds import DPE, MERCURY

    for stage in {*MERCURY.stages, *DPE.stages}:
        path = module_file(stage.logic.__module__, ROOT)
        assert path is not None
        imported = {
            n.module
            for n in ast.walk(ast.parse(path.read_text()))
            if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("quicksilver.")
        }
        covered = {str(p.relative_to(ROOT)) for p in import_closure(stage.code)}
        for module in imported:
            as_file = module.replace(".", "/")
            assert f"{as_file}.py" in covered or f"{as_file}/__init__.py" in covered, (
                stage.name,
                module,
            )


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


STAGE_A = """
from quicksilver.pipeline.stage import Context


def short_only(ctx: Context, records, *, min_solutions: int):
    from {pkg}.helper import longest  # the helper, imported inside the logic

    out = []
    for record in records:
        keep = [s for s in record.solutions if s.code.count("\\n") <= longest()]
        for s in record.solutions:
            if s not in keep:
                ctx.drop(s, "too-long", f"{{s.slug}} #{{s.position}}")
        out.append(record.with_solutions(keep))
    return out
"""
STAGE_B = """
from quicksilver.pipeline.stage import Context


def count(ctx: Context, records, *, min_solutions: int):
    ctx.note(f"{{sum(len(r.solutions) for r in records)}} solutions")
    return records
"""


def test_editing_a_helper_reruns_the_stages_that_import_it_and_no_other(tmp_path, monkeypatch):
    """A build of load and two stages of a package of our own; editing the helper one of them
    imports redoes that one; load, and the other stage (whose input came out the same), are
    reused."""
    import importlib
    import json

    from quicksilver.config import BuildConfig, load_build_config
    from quicksilver.pipeline.build import Build
    from quicksilver.pipeline.runner import Runner
    from quicksilver.pipeline.stage import Stage
    from quicksilver.stages import example
    from quicksilver.stages.load import LOAD

    pkg = f"qs_rerun_toy_{abs(hash(tmp_path)) % 10**8}"
    (tmp_path / pkg).mkdir()
    (tmp_path / pkg / "__init__.py").write_text("")
    (tmp_path / pkg / "helper.py").write_text("def longest():\n    return 12\n")
    (tmp_path / pkg / "uses_helper.py").write_text(STAGE_A.format(pkg=pkg))
    (tmp_path / pkg / "no_helper.py").write_text(STAGE_B.format(pkg=pkg))
    monkeypatch.syspath_prepend(str(tmp_path))
    a = importlib.import_module(f"{pkg}.uses_helper")
    b = importlib.import_module(f"{pkg}.no_helper")
    build = Build(
        name="rerun",
        title="Rerun build",
        config=BuildConfig,
        stages=(
            LOAD,
            Stage("short", logic=a.short_only, reads=("filters.min_solutions",)),
            Stage("count", logic=b.count, reads=("filters.min_solutions",)),
        ),
        example=example.mercury_record,
    )
    cfg = load_build_config(
        ROOT / "configs" / "mercury.yaml",
        [f"out_dir={tmp_path / 'out'}", f"only={json.dumps(['best-single-trade'])}"],
    ).resolve(ROOT)
    runner = Runner(build, cfg)

    def run_all() -> dict[str, bool]:
        return {s.name: runner.run(s.name)["reused"] for s in build.stages}

    assert run_all() == {"load": False, "short": False, "count": False}
    assert run_all() == {"load": True, "short": True, "count": True}
    (tmp_path / pkg / "helper.py").write_text("def longest():\n    return 6 + 6\n")  # same result
    assert run_all() == {"load": True, "short": False, "count": True}
    for mod in [m for m in sys.modules if m.startswith(pkg)]:
        del sys.modules[mod]


# -- what an edit to an LLM path reruns (issue 27) --------------------------------------------

_RERUNS = """
import json, sys
from pathlib import Path
import quicksilver
from quicksilver.builds import DPE, MERCURY
from quicksilver.pipeline.keys import code_digest
copy = Path(sys.argv[1])
assert quicksilver.__file__.startswith(str(copy)), quicksilver.__file__
def digests():
    return {f"{b.name}/{s.name}": code_digest(s.code) for b in (MERCURY, DPE) for s in b.stages}
before = digests()
changed = {}
for edited in sys.argv[2:]:
    target = copy / edited
    text = target.read_text()
    target.write_text(text + ("\\n# edited\\n" if edited.endswith(".py") else "\\n"))
    after = digests()
    changed[edited] = sorted(name for name in before if after[name] != before[name])
    target.write_text(text)
    assert digests() == before  # the edit undone: every key as it was
print(json.dumps({"stages": sorted(before), "changed": changed}))
"""

# each prompt template reruns the one stage that renders it; the chat client reruns the stages
# that talk to an endpoint, and no other: not dedup, testcases or profiling (config.py holds the
# LLM settings, the client lives apart from them)
RERUNS = {
    "quicksilver/prompts/sas.j2": ["dpe/sas"],
    "quicksilver/prompts/dpe_solution.j2": ["dpe/candidates"],
    "quicksilver/prompts/mercury_generator.j2": ["dpe/generators", "mercury/generators"],
    "quicksilver/prompts/answer_checker.j2": ["dpe/uniqueness", "mercury/uniqueness"],
    "quicksilver/llm.py": [
        "dpe/candidates",
        "dpe/generators",
        "dpe/sas",
        "dpe/uniqueness",
        "mercury/generators",
        "mercury/uniqueness",
    ],
}


def test_editing_a_prompt_template_or_the_chat_client_reruns_only_the_stages_that_use_it(
    tmp_path: Path,
) -> None:
    """Keys of both builds' stages, computed in a copy of the package before and after each
    edit: only the stages that use the edited file get a new key (a stage whose key and input
    are unchanged is reused, so these are exactly the stages a rebuild reruns)."""
    import json
    import os
    import shutil
    import subprocess

    copy = tmp_path / "copy"
    shutil.copytree(
        ROOT / "quicksilver", copy / "quicksilver", ignore=shutil.ignore_patterns("__pycache__")
    )
    out = subprocess.run(
        [sys.executable, "-c", _RERUNS, str(copy), *RERUNS],
        env={**os.environ, "PYTHONPATH": str(copy)},
        cwd=copy,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    assert len(result["stages"]) >= 20, result["stages"]
    assert result["changed"] == RERUNS
