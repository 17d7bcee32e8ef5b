# Quicksilver: every target that needs the environment sets it up first.
#
# PYTHON picks the interpreter (3.11, 3.12 or 3.13; a name or a path). A name that does not run as
# such is looked up among pyenv's versions (scripts/find_python.sh). One venv per interpreter:
# .venv for 3.11, .venv-3.12 and .venv-3.13 for the others.
PYTHON ?= python3.11
FOUND  := $(shell scripts/find_python.sh '$(PYTHON)')
PY     := $(word 1,$(FOUND))
PYVER  := $(word 2,$(FOUND))
ifeq ($(PY),)
$(error $(PYTHON) was not found or does not run: Quicksilver needs Python 3.11, 3.12 or 3.13 (PYTHON=python3.X or a path))
endif
ifeq ($(filter 3.11 3.12 3.13,$(PYVER)),)
$(error $(PYTHON) is Python $(PYVER): Quicksilver needs Python 3.11, 3.12 or 3.13 (PYTHON=python3.X or a path))
endif
VENV   := $(if $(filter 3.11,$(PYVER)),.venv,.venv-$(PYVER))
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# uv installs requirements.lock (seconds); INSTALLER=pip forces the pip fallback, which is also
# taken when uv cannot be installed. PYTEST_ARGS goes to pytest (e.g. PYTEST_ARGS="-m units").
INSTALLER   ?= uv
UV_VERSION  := 0.13.9
PYTEST_ARGS ?=

.PHONY: setup system system-tests test lint bench build-dataset build-dpe ui serve doctor lock clean-venv

$(STAMP): requirements.lock pyproject.toml
	$(PY) -m venv $(VENV)
	scripts/install_venv.sh $(VENV) $(INSTALLER) $(UV_VERSION)
	@touch $(STAMP)

setup: $(STAMP)

# The system packages the sandbox and the meters need (scripts/system_deps.py: installed when
# this machine allows it, else one message saying what to install). Runs before any other work.
# `system` is what a build needs; `system-tests` adds what only the tests need (chromium).
system:
	@$(PY) scripts/system_deps.py --build-only

system-tests:
	@$(PY) scripts/system_deps.py

test: system-tests $(STAMP)
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check quicksilver tests bench flows scripts
	$(BIN)/ruff format --check quicksilver tests bench flows scripts

bench: system $(STAMP)
	$(BIN)/python bench/profiler.py
	$(BIN)/python bench/dedup.py
	$(BIN)/python bench/dpe.py

doctor: $(STAMP)
	$(BIN)/quicksilver doctor

# Build the Mercury-format dataset from the bundled corpus (configs/mercury.yaml) into
# data/build/mercury/. Reruns reuse finished stages. CONFIG=... and SET="k=v k=v" override.
CONFIG ?= configs/mercury.yaml
SET ?=
build-dataset: system $(STAMP)
	$(BIN)/quicksilver build mercury --config $(CONFIG) $(if $(V),-v) $(foreach s,$(SET),--set $(s))

# Build the DPE / EvalPerf-format dataset from the bundled corpus (configs/dpe.yaml) into
# data/build/dpe/, offline unless an LLM endpoint is configured. DPE_CONFIG=... and SET=... override.
DPE_CONFIG ?= configs/dpe.yaml
build-dpe: system $(STAMP)
	$(BIN)/quicksilver build dpe --config $(DPE_CONFIG) $(if $(V),-v) $(foreach s,$(SET),--set $(s))

# The Prefect UI of this checkout on 127.0.0.1:$(UI_PORT). While it runs, it says so in
# .prefect-ui.json (its URL and pid), and builds of this checkout (`make build-dataset` in another
# shell) report there; a server of another checkout is never used. Without it, a build runs on
# its own temporary server. UI_PORT=4201 when 4200 is taken (quicksilver/orchestration/prefect_server.py).
UI_PORT ?= 4200
ui: $(STAMP)
	$(BIN)/python -m quicksilver.orchestration.prefect_server --port $(UI_PORT)

# Both builds as Prefect deployments (flows/serve.py), to run from the UI, the API or a schedule:
# on the configured server (PREFECT_API_URL), else `make ui`'s, else a server started here on
# 127.0.0.1:4200 for as long as this runs. Prints the UI's URL. CRON="0 3 * * *" or
# INTERVAL=SECONDS schedules both (off by default); SET="k=v ..." are the runs' default overrides.
CRON ?=
INTERVAL ?=
serve: system $(STAMP)
	$(BIN)/python flows/serve.py $(if $(CRON),--cron "$(CRON)") $(if $(INTERVAL),--interval $(INTERVAL)) \
	  $(foreach s,$(SET),--set $(s))

# Re-resolve requirements.lock from pyproject.toml (needs the package registry): one universal
# lock for Python 3.11-3.13, with environment markers where a version needs other packages.
# Pins already in the lock are kept unless UPGRADE=1.
UPGRADE ?=
lock: $(STAMP)
	@test -x $(BIN)/uv || $(BIN)/python -m pip install --quiet "uv==$(UV_VERSION)"
	$(BIN)/uv pip compile pyproject.toml --extra dev --universal --python-version 3.11 \
	  --quiet --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade) -o requirements.lock

clean-venv:
	rm -rf $(VENV)
