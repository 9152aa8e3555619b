# Every target installs what it needs into .venv first, so each works on a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# Python keeps the bytecode of the project's modules (and pytest its rewritten tests) in
# __pycache__ even where the environment asks it not to: every test process and every worker
# or command a test starts would otherwise compile them all again.
unexport PYTHONDONTWRITEBYTECODE

# The service tests run against these (the CI machine serves both on loopback).
SERVICE_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/pymtheg
SERVICE_BROKER_URL   ?= redis://127.0.0.1:6379/0
SERVICES := DATABASE_URL=$(SERVICE_DATABASE_URL) CELERY_BROKER_URL=$(SERVICE_BROKER_URL)

.PHONY: install demo serve test lint unit test-services bench cluster clean

# The port of `make demo` and `make serve` (make demo PORT=8080), and the address the demo
# listens on (make demo HOST=0.0.0.0: the local network).
PORT ?= 8000
HOST ?= 127.0.0.1
# The demo runs on the embedded defaults whatever the shell says.
EMBEDDED := env -u DATABASE_URL -u CELERY_BROKER_URL -u REDIS_CACHE_URL -u DJANGO_ENV

# Installed again when the dependencies change, or the C extensions' sources (pip builds them).
$(STAMP): pyproject.toml constraints.txt setup.py $(wildcard engine/*/_*.c)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## The product on its embedded defaults (SQLite in var/, tasks in-process): a demo tournament
## with its first rounds played, the addresses to open, then the development server.
## HOST=0.0.0.0 listens on the local network; links and QR codes then carry this machine's
## address there, for phones on the same Wi-Fi. Ctrl+C stops the server.
demo: $(STAMP)
	$(EMBEDDED) $(BIN)/python manage.py demo --host $(HOST) --port $(PORT)

## The full stack without Docker: gunicorn, a Celery worker and beat, against the PostgreSQL
## and Redis of this machine (DATABASE_URL, CELERY_BROKER_URL; loopback by default).
serve: $(STAMP)
	PORT=$(PORT) $(BIN)/python scripts/serve.py

## Lint; the tests that need no database on the embedded defaults (SQLite, eager tasks),
## with the few database tests of EMBEDDED_TOO in tests/conftest.py; then on PostgreSQL and
## Redis every test that touches the database, Redis or a worker (marked ``services`` by
## tests/conftest.py), the browser tests among them: a real browser against the real stack.
## Every test runs once (but EMBEDDED_TOO's, on both). Without those services the second
## run is skipped, except in CI. One after the other: side by side, even with the first run at
## a lower priority, the browser tests slow down more than the waits they leave are worth.
test: lint unit test-services

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

unit: $(STAMP)
	env -u DATABASE_URL -u CELERY_BROKER_URL $(BIN)/pytest -q -n 2 \
		-m "(not services or embedded) and not integration and not browser"

test-services: $(STAMP)
	@status=0; $(SERVICES) $(BIN)/python scripts/check_services.py || status=$$?; \
	if [ $$status -eq 0 ]; then \
		echo "$(SERVICES) pytest -q -n 2 -m services"; \
		$(SERVICES) $(BIN)/pytest -q -n 2 -m services; \
	elif [ $$status -ne 3 ]; then \
		exit $$status; \
	fi

## Benchmarks print figures; they never fail on timing.
bench: $(STAMP)
	$(BIN)/python bench/score.py
	$(BIN)/python bench/rank.py
	$(BIN)/python bench/schedule.py
	$(BIN)/python bench/export.py
	$(BIN)/python bench/pyramid_score.py
	$(BIN)/python bench/movement.py
	$(BIN)/python bench/twenty_score.py
	$(BIN)/python bench/pysngtaut_score.py
	$(BIN)/python bench/imports.py
	$(BIN)/python bench/overview.py
	$(BIN)/python bench/double_dummy.py

## Several machines on this one (as root): nginx, 3 web hosts, 2 workers, beat, PostgreSQL and
## Redis, each in a network namespace; a round through the load balancer with a web host and a
## worker killed, then its figures (deploy/cluster/run.py; TABLES=200 for a shorter round).
TABLES ?= 1000
cluster: $(STAMP)
	$(BIN)/python deploy/cluster/run.py --tables $(TABLES)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
