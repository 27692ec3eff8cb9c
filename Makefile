# The README's commands. `make demo` installs and runs the offline default; `make test` installs and tests.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test test-fast test-slow test-browser lint bench mlflow-ui clean

$(STAMP): pyproject.toml
	@echo "Installing RefusalBench and its dependencies into $(VENV) (about 3 minutes the first time, on a 2-core"
	@echo "machine with a fast network; pip prints little while it works). Later commands skip this step."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)
	@echo "Installed. Run the offline default with: make demo   (or $(BIN)/refusalbench)"

install: $(STAMP)

demo: install
	$(BIN)/refusalbench

# CI's command (.ci/run): the lint first, so a style finding fails in seconds, then every test but the slow tier
test: lint
	$(BIN)/python -m pytest -q

# Quick local runs: no lint, no subprocess/server/sweep tests
test-fast: install
	$(BIN)/python -m pytest -q -m 'not slow and not benchmark and not integration'

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test-slow: install
	$(BIN)/python -m pytest -q -m slow

# Not in CI: a small sweep served by the MLflow UI, screenshotted in headless Chromium (OS packages) into docs/
test-browser: install
	command -v chromium >/dev/null || apt-get install -y chromium chromium-driver
	$(BIN)/python -m pip install --quiet -e '.[dev,browser]'
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(BIN)/python scripts/browser_check.py

bench: install
	$(BIN)/python -m pytest -q -s -m benchmark tests/benchmarks

mlflow-ui: install
	@echo "MLflow UI for $(CURDIR)/mlflow.db at http://127.0.0.1:5000 (Ctrl-C stops it)"
	$(BIN)/mlflow ui --backend-store-uri sqlite:///mlflow.db

clean:
	rm -rf outputs multirun/*/ .cache
