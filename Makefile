# Quicksilver: every target that needs the environment sets it up first.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup test lint bench build-dataset doctor lock clean-venv

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
	$(BIN)/ruff check quicksilver tests bench flows
	$(BIN)/ruff format --check quicksilver tests bench flows

bench: $(STAMP)
	$(BIN)/python bench/profiler.py

doctor: $(STAMP)
	$(BIN)/quicksilver doctor

build-dataset: $(STAMP)
	@if [ -f flows/build_mercury.py ]; then \
		$(BIN)/python flows/build_mercury.py --config configs/mercury.yaml; \
	else \
		echo "make build-dataset: the Mercury build flow (flows/build_mercury.py) does not exist yet."; \
		echo "It is tracked as the issue 'The Mercury build flow'. What works today:"; \
		echo "  make test        # the sandbox, meters, metrics and profiler"; \
		echo "  $(BIN)/quicksilver run --task TASK.json --solution SOL.py"; \
		echo "  $(BIN)/quicksilver score --dataset DATASET --samples SAMPLES.jsonl"; \
		exit 2; \
	fi

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
