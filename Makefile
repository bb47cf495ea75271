# Two commands do everything on a fresh machine:
#   make run    create .venv, install, and serve on http://127.0.0.1:8000 (default lexicon)
#   make test   create .venv, install with test extras, and run the whole test suite
#   make lint   ruff and mypy (CI runs it after the tests)
#   make bench  the benchmark suite (bench/run.py)
PY ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml setup.py constraints.txt engine/_fastgen.c
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP)

.PHONY: install run test lint bench
install: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/wordsolver serve

test: $(STAMP)
	$(VENV)/bin/python -m pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check engine app tests bench tools
	$(VENV)/bin/mypy engine app

bench: $(STAMP)
	$(VENV)/bin/python bench/run.py
