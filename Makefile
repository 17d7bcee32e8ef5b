# Quicksilver: every target that needs the environment sets it up first.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup test lint bench build-dataset build-dpe ui doctor lock clean-venv

$(STAMP): requirements.lock pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) not found (Python 3.11 is required)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $(STAMP)

setup: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check quicksilver tests bench flows tasks
	$(BIN)/ruff format --check quicksilver tests bench flows tasks

bench: $(STAMP)
	$(BIN)/python bench/profiler.py
	$(BIN)/python bench/dedup.py
	$(BIN)/python bench/dpe.py

doctor: $(STAMP)
	$(BIN)/quicksilver doctor

# Build the Mercury-format dataset from the bundled corpus (configs/mercury.yaml) into
# data/build/mercury/. Reruns reuse finished stages. CONFIG=... and SET="k=v k=v" override.
CONFIG ?= configs/mercury.yaml
SET ?=
build-dataset: $(STAMP)
	$(BIN)/python flows/build_mercury.py --config $(CONFIG) $(foreach s,$(SET),--set $(s))

# Build the DPE / EvalPerf-format dataset from the bundled corpus (configs/dpe.yaml) into
# data/build/dpe/, offline unless an LLM endpoint is configured. DPE_CONFIG=... and SET=... override.
DPE_CONFIG ?= configs/dpe.yaml
build-dpe: $(STAMP)
	$(BIN)/python flows/build_dpe.py --config $(DPE_CONFIG) $(foreach s,$(SET),--set $(s))

# The Prefect UI on 127.0.0.1:4200. While it runs, `make build-dataset` (in another shell) finds
# it and reports there; without it, the build runs on its own (a temporary local server).
ui: $(STAMP)
	@echo "Prefect UI: http://127.0.0.1:4200  (in another shell: make build-dataset)"
	$(BIN)/prefect server start --host 127.0.0.1 --port 4200

# Re-resolve the pinned set from pyproject.toml (needs the package registry).
lock:
	rm -rf /tmp/quicksilver-lock && $(PYTHON) -m venv /tmp/quicksilver-lock
	/tmp/quicksilver-lock/bin/pip install --quiet --upgrade pip
	/tmp/quicksilver-lock/bin/pip install --quiet -e ".[dev]"
	{ echo "# Pinned dependency set known to work on Python 3.11 / Debian 12 (see ANCHORS: prefect needs"; \
	  echo "# fastapi==0.139.2 here). Regenerate with: make lock"; \
	  /tmp/quicksilver-lock/bin/pip freeze --exclude-editable | grep -v -i '^quicksilver'; } > requirements.lock

clean-venv:
	rm -rf $(VENV)
