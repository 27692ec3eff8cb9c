# The README's commands. `make demo` installs and runs the offline default; `make test` installs and tests.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test test-fast test-slow test-browser lint bench mlflow-ui clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(BIN)/refusalbench

test: install
	$(BIN)/python -m pytest -q

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
	$(BIN)/mlflow ui --backend-store-uri sqlite:///mlflow.db

clean:
	rm -rf outputs multirun/*/ .cache
