"""The interpreter's ``ast.parse`` race between threads (CPython 3.11), provoked: bare
``ast.parse`` fails, ``quicksilver.astparse.parse`` does not, and what still reaches a stage run
is an infrastructure fault that Prefect retries (quicksilver/astparse.py, quicksilver/faults.py).

The race needs a thread switch while a tree's objects are built; a gc callback that yields, run
at every few allocations, makes one likely within a few hundred parses. Each provocation runs in
a fresh interpreter (a subprocess), so its gc settings never reach the test process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from quicksilver.faults import AST_RACE, InfrastructureFault, infrastructure_fault
from quicksilver.orchestration.retries import infrastructure_failed

ROOT = Path(__file__).resolve().parents[1]
AFFECTED = sys.version_info[:2] == (3, 11)

PROVOKE = """
import ast, gc, json, sys, threading, time
sys.path.insert(0, {root!r})
from quicksilver import astparse

sys.setswitchinterval(1e-6)
gc.set_threshold(20, 10, 10)
gc.callbacks.append(lambda phase, info: time.sleep(0))  # a thread switch inside the collector

NESTED = "x = " + "(" * 50 + "1" + ")" * 50 + "\\n" + "def f():\\n" + "".join(
    "    " * (i + 1) + f"if a{{i}}:\\n" for i in range(40)
) + "    " * 41 + "pass\\n"
PARSERS = {{"bare": ast.parse, "ours": astparse.parse}}
kinds = {kinds!r}
errors = {{kind: [] for kind in set(kinds)}}


def work(kind):
    for _ in range({parses}):
        try:
            PARSERS[kind](NESTED)
        except Exception as exc:
            errors[kind].append(f"{{type(exc).__name__}}: {{exc}}")


threads = [threading.Thread(target=work, args=(kind,)) for kind in kinds]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps(errors))
"""


def provoke(kinds: list[str], parses: int = 100) -> dict[str, list[str]]:
    """Threads parsing deeply nested code at once, one per entry of ``kinds`` (``bare``: plain
    ``ast.parse``; ``ours``: ``quicksilver.astparse.parse``); the errors each kind met."""
    script = PROVOKE.format(root=str(ROOT), kinds=kinds, parses=parses)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def provoke_until_bare_fails(kinds: list[str], rounds: int = 20) -> dict[str, list[str]]:
    """Rounds of :func:`provoke` until a bare parse has failed (at most ``rounds``); every
    round's errors, merged."""
    merged: dict[str, list[str]] = {kind: [] for kind in kinds}
    for _ in range(rounds):
        for kind, errors in provoke(kinds).items():
            merged[kind] += errors
        if merged.get("bare"):
            break
    return merged


@pytest.mark.skipif(not AFFECTED, reason="the race is CPython 3.11's (3.12.1, 3.13.0: not seen)")
def test_bare_ast_parse_fails_when_threads_parse_at_once():
    """Before: what killed a shard. Code that parses fine raises SystemError."""
    errors = provoke_until_bare_fails(["bare"] * 4)["bare"]
    assert errors, "the provocation did not make bare ast.parse fail"
    assert all(AST_RACE in e or "RecursionError" in e for e in errors), errors
    assert any(e.startswith(f"SystemError: {AST_RACE}") for e in errors), errors


def test_serialised_parse_never_fails_when_threads_parse_at_once():
    """After: the same provocation, every thread through quicksilver.astparse.parse."""
    errors = provoke(["ours"] * 4, parses=400)["ours"]
    assert errors == []


def test_a_parse_spoiled_by_a_bare_one_is_parsed_again():
    """Our parses raced by bare ones (code we do not own) still never raise the interpreter's
    error: they parse again, and at worst raise an InfrastructureFault, which is retried."""
    errors = provoke_until_bare_fails(["bare", "bare", "ours", "ours"])
    if AFFECTED:
        assert errors["bare"], "the provocation did not make bare ast.parse fail"
    assert not [e for e in errors["ours"] if not e.startswith("InfrastructureFault")], errors


def test_the_race_is_an_infrastructure_fault_and_its_stage_run_is_retried():
    race = SystemError(f"{AST_RACE} (before=18, after=-1)")  # the interpreter's own words
    fault = infrastructure_fault(race)
    assert isinstance(fault, InfrastructureFault) and AST_RACE in str(fault)
    try:  # as a stage meets it: raised inside other code, wrapped by its caller
        try:
            raise race
        except SystemError as exc:
            raise RuntimeError("profile shard-0001: a task failed") from exc
    except RuntimeError as wrapped:
        assert infrastructure_fault(wrapped) is not None
        state = SimpleNamespace(data=wrapped)
        assert infrastructure_failed(None, SimpleNamespace(name="profile-shard-0001"), state)
    # any other SystemError is a bug, not retried
    other = SimpleNamespace(data=SystemError("error return without exception set"))
    assert infrastructure_fault(other.data) is None
    assert not infrastructure_failed(None, SimpleNamespace(name="profile-shard-0001"), other)


# modules that still call ast.parse themselves, and why
PENDING: set[str] = set()


def test_the_project_parses_through_astparse_only():
    """Every ast.parse of the build's own code is the serialised one (the sandbox's runtime runs
    in processes of its own, one thread each)."""
    import ast

    found = set()
    for folder in ("quicksilver", "tasks", "flows"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "sandbox/runtime/" in rel or rel == "quicksilver/astparse.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(), filename=rel)):
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr == "parse"
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "ast"
                ):
                    found.add(rel)
    assert found == PENDING, found
