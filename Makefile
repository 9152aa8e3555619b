# Every target installs what it needs into .venv first, so each works on a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test lint unit bench clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## The product on its embedded defaults: score the sample board records with the engine.
demo: $(STAMP)
	$(BIN)/python -m engine score samples/boards.jsonl

## Lint, then the whole test suite.
test: lint unit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

unit: $(STAMP)
	$(BIN)/pytest -q -n 2

## Benchmarks print figures; they never fail on timing.
bench: $(STAMP)
	$(BIN)/python bench/score.py
	$(BIN)/python bench/rank.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
