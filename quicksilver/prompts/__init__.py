"""The prompt templates of the LLM paths (Jinja2), shipped as package data (README.md here says
what each template gets). A config may point ``llm.prompts_dir`` at a folder of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

PROMPTS_DIR = Path(__file__).resolve().parent


def prompts_folder(folder: Path | str | None = None) -> Path:
    """``folder``, or the package's own templates when None."""
    return Path(folder) if folder is not None else PROMPTS_DIR


def prompt_environment(folder: Path) -> jinja2.Environment:
    """The Jinja2 environment of a prompts folder (strict: a missing variable is an error)."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )


def render_messages(
    env: jinja2.Environment, template: str, variables: dict[str, Any]
) -> list[dict[str, str]]:
    """A template's ``system`` block as the system message and its body as the user message."""
    module: Any = env.get_template(template).make_module(variables)  # `system`: set in it
    return [
        {"role": "system", "content": str(module.system).strip()},
        {"role": "user", "content": str(module).strip() + "\n"},
    ]
