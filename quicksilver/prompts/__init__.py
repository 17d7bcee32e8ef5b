"""The prompt templates of the LLM paths (Jinja2), shipped as package data (README.md here says
what each template gets). A config may point ``llm.prompts_dir`` at a folder of its own."""

from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parent
DATA_FILES = ("*.j2",)  # read at run time: part of the stage keys (pipeline/keys.py)
