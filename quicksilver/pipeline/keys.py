"""Cache keys that follow the code: which source a stage's result depends on, found from imports.

A stage's cache key covers the source of every module of the project its logic imports, directly
or through other project modules (:func:`import_closure`), so editing a helper reruns exactly the
stages whose logic reaches it, and nobody keeps a list of files by hand. Imports are read from the
source (``ast``), not by importing: an import inside a function counts like one at the top of the
file, and the parents of a module (whose ``__init__`` runs first) count too. Only modules of the
same top-level package as the stage's logic are followed (``quicksilver`` for the builds); the
standard library and third-party packages are covered by the package version in the key.

A module that reads files of its package at run time (the sandbox's runtime scripts, the meter
plugin's C source, prompt and card templates) names them in a module-level tuple of globs
relative to its own folder::

    DATA_FILES = ("runtime/*.py",)

and those files are part of the key of every stage whose logic imports that module. An entry
may climb out of the module's folder (``"../prompts/sas.j2"``): a module that reads one file of a
shared folder names that file, so that editing SaS's prompt reruns SaS and not every stage that
talks to an LLM.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from quicksilver import astparse

DATA_FILES_NAME = "DATA_FILES"


@dataclass(frozen=True)
class _Source:
    """What one module file says about the code it depends on."""

    imports: tuple[str, ...]  # absolute module names imported (candidates: may not exist)
    data_globs: tuple[str, ...]  # DATA_FILES, relative to the module's folder


_PARSED: dict[tuple[str, int, int], _Source] = {}


def _package_root(top: str) -> Path:
    """The folder holding the top-level package (or lone module) ``top``, found without
    importing it."""
    spec = importlib.util.find_spec(top)
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))).parent
    if spec is not None and spec.origin and spec.origin.endswith(".py"):
        return Path(spec.origin).parent
    raise ValueError(f"{top} is neither a package nor a module with a source file")


def module_file(name: str, root: Path) -> Path | None:
    """The source file of module ``name`` under ``root`` (a package's ``__init__.py``), or None
    when there is no such module (``from pkg import name`` of a plain name)."""
    base = root.joinpath(*name.split("."))
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def _resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
    parts = module.split(".")
    package = parts if is_package else parts[:-1]
    if level - 1 > len(package) - 1:
        raise ImportError(f"{module}: relative import beyond the top-level package")
    base = package[: len(package) - (level - 1)]
    return ".".join([*base, *([target] if target else [])])


def _parse(path: Path, module: str) -> _Source:
    st = path.stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key in _PARSED:
        return _PARSED[key]
    tree = astparse.parse(path.read_bytes(), filename=str(path))
    is_package = path.name == "__init__.py"
    imports: list[str] = []
    data: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (
                _resolve_relative(module, is_package, node.level, node.module)
                if node.level
                else node.module or ""
            )
            imports.append(base)
            imports += [f"{base}.{alias.name}" for alias in node.names if alias.name != "*"]
    for node in tree.body:  # DATA_FILES: a module-level tuple or list of string constants
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        if any(isinstance(t, ast.Name) and t.id == DATA_FILES_NAME for t in targets):
            value = getattr(node, "value", None)
            if not isinstance(value, ast.Tuple | ast.List) or not all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
            ):
                raise ValueError(f"{path}: {DATA_FILES_NAME} must be a tuple of string globs")
            data += [e.value for e in value.elts]  # type: ignore[attr-defined]
    _PARSED[key] = _Source(tuple(imports), tuple(data))
    return _PARSED[key]


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def import_closure(modules: Iterable[str]) -> list[Path]:
    """Every source file the ``modules`` depend on within their top-level package: their own
    files, their parent packages' ``__init__.py``, what they import (transitively), and the
    ``DATA_FILES`` those modules name. Sorted, each once."""
    modules = list(modules)
    if not modules:
        return []
    tops = {m.split(".")[0] for m in modules}
    if len(tops) != 1:
        raise ValueError(f"modules of several top-level packages: {sorted(tops)}")
    top = tops.pop()
    root = _package_root(top)
    seen: set[str] = set()
    files: set[Path] = set()
    todo = [p for m in modules for p in _with_parents(m)]
    while todo:
        name = todo.pop()
        if name in seen or name.split(".")[0] != top:
            continue
        seen.add(name)
        path = module_file(name, root)
        if path is None:
            continue  # a name imported from a module, not a module
        files.add(path)
        source = _parse(path, name)
        for glob in source.data_globs:
            files.update(data_files(path.parent, glob, root))
        for imported in source.imports:
            todo += [p for p in _with_parents(imported) if p not in seen]
    for module in modules:
        if module_file(module, root) is None:
            raise ValueError(f"no module {module} under {root}")
    return sorted(files)


def data_files(folder: Path, glob: str, root: Path) -> list[Path]:
    """The files of one ``DATA_FILES`` glob, relative to the module's ``folder``: a glob in its
    last part only, and ``..`` allowed before it (a module names the one template of a shared
    folder it reads: ``"../prompts/sas.j2"``), as long as the files stay under ``root``. An
    entry that matches no file is an error."""
    target = Path(os.path.normpath(folder / glob))
    if not target.parent.resolve().is_relative_to(root.resolve()):
        raise ValueError(f"{folder}: {DATA_FILES_NAME} entry {glob!r} leaves {root}")
    found = [p.resolve() for p in target.parent.glob(target.name) if p.is_file()]
    if not found:  # a renamed template or a wrong path: the key would silently miss the file
        raise ValueError(f"{folder}: {DATA_FILES_NAME} entry {glob!r} matches no file")
    return found


_DIGESTS: dict[tuple[tuple[str, int, int], ...], str] = {}


def digest_files(files: Iterable[Path], root: Path) -> str:
    """sha256 over the files' paths (relative to ``root``) and contents (remembered while no
    file changes: keys are asked for often)."""
    files = list(files)
    stamp = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files)
    if stamp not in _DIGESTS:
        h = hashlib.sha256()
        for f in files:
            h.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes() + b"\1")
        _DIGESTS[stamp] = h.hexdigest()
    return _DIGESTS[stamp]


def code_digest(modules: Iterable[str]) -> str:
    """sha256 over the source ``modules`` depend on (:func:`import_closure`)."""
    modules = list(modules)
    files = import_closure(modules)
    root = _package_root(modules[0].split(".")[0]) if modules else Path()
    return digest_files(files, root)
