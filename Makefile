# madnb: naive Bayes inside PostgreSQL.
#   make demo    set up (PL/Python, .venv) and run the demo on a throwaway PostgreSQL
#   make test    set up (as root also Chromium), lint, and run the whole test suite (its own throwaway PostgreSQL)
#   make bench   set up and run the benchmark (results in bench/results/)
#   make bench-secure  secure aggregation of 10 owners against plain federation, private prediction
#                (bench/results/secure.md)
#   make bench-scale  time and backend memory of every path at 1M and 10M rows
#                (bench/results/scale.md; under 30 minutes on 2 cores, about 10 GB of disk)
#   make privacy-curve  accuracy against epsilon (docs/privacy_curve.md and .png)
#   make privacy-curve-federated  the same for N = 1, 10, 100 owners, plain private federation beside
#                secure aggregation (docs/privacy_curve_federated.md and .png)
#   make install copy madnb.control and the generated script into PostgreSQL (PGXS),
#                so that CREATE EXTENSION madnb CASCADE works
#   make lint    static checks: ruff (all Python) and mypy --strict (madnb, madnb_pl);
#                configured in pyproject.toml

VENV    := .venv
PY      := $(VENV)/bin/python
VERSION := $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" madnb.control)

.PHONY: setup setup-test demo test bench bench-scale bench-secure privacy-curve privacy-curve-federated install script lint clean

setup:
	@bash scripts/setup.sh

# setup, and what only the tests need (as root with apt: Chromium, which opens the HTML report)
setup-test:
	@bash scripts/setup.sh --test

demo: setup
	$(VENV)/bin/madnb demo

# Lint first, so that CI (.ci/run = make test) fails on a lint error too.
# One pytest-xdist worker per core, each with its own throwaway cluster; loadgroup keeps
# the tests that share what a session sets up once on one worker (tests/conftest.py).
# --durations: the slowest tests are listed at the end of every run (the suite's time is watched).
test: setup-test lint
	$(VENV)/bin/pytest -q -n auto --dist loadgroup --durations=30

bench: setup
	$(PY) -m bench.run

# Issue 20's secure aggregation and private prediction figures, apart from make bench
# (python -m bench.secure; bench/README.md; about 10 minutes on 2 cores).
bench-secure: setup
	$(PY) -m bench.secure

# Issue 19's scale figures, apart from make bench (python -m bench.scale; bench/README.md).
bench-scale: setup
	$(PY) -m bench.scale

# Accuracy against epsilon on four UCI datasets (docs/privacy_curve.md and .png).
# PRIVACY_DATA: the folder with the UCI CSV files (make privacy-curve PRIVACY_DATA=...).
PRIVACY_DATA ?= ../shared/data
privacy-curve: setup
	$(VENV)/bin/madnb privacy-curve --data $(PRIVACY_DATA) --out docs

# Issue 20's federated panel, apart from make privacy-curve (its own figure; docs/privacy_curve_federated.md).
privacy-curve-federated: setup
	$(VENV)/bin/madnb privacy-curve --federated --data $(PRIVACY_DATA) --out docs

# The generated script for CREATE EXTENSION, plus an upgrade script from every
# earlier version we ship a script of (the script is idempotent, so it also upgrades).
script: setup
	$(VENV)/bin/madnb build-script --extension-dir build

install: script
	$(MAKE) -f extension.mk install VERSION=$(VERSION)

lint: setup
	$(VENV)/bin/ruff check --quiet madnb plpython tests bench
	$(VENV)/bin/mypy

clean:
	rm -rf build

# Regenerate the golden files of generated SQL and of the SQL surface (tests/golden/README.md);
# then read `git diff tests/golden` and commit what is intended.
.PHONY: golden
golden: setup
	MADNB_REGEN_GOLDEN=1 $(VENV)/bin/pytest -q tests/sql_surface/test_golden_sql.py tests/models/test_golden.py tests/models/test_kinds_vector.py::test_the_sql_of_the_vector_kinds_and_their_prediction_functions_match_their_golden_files tests/models/test_export.py::test_the_script_of_a_small_model_matches_its_golden_file
