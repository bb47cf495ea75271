# Two commands do everything on a fresh machine:
#   make run    create .venv, install what serving needs, and serve on http://127.0.0.1:8000
#   make test   create .venv, install with the test extras, and run the whole test suite
#   make lint   ruff and mypy (CI runs it after the tests)
#   make bench  the benchmark suite (bench/run.py)
#   make screenshots  the README's pictures of the page, taken by the browser tests
PY ?= python3
VENV := .venv
# Every install is pinned by constraints.txt. The venv's own pip is used as it comes (no
# upgrade: that download cost the first run about 3 s and -c works with it).
PIP := $(VENV)/bin/pip install --quiet --disable-pip-version-check -c constraints.txt
# Separate stamps: `make run` installs only what serving needs; the test and lint tools
# come with the first `make test` or `make lint`.
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

$(VENV)/bin/python:
	$(PY) -m venv $(VENV)

$(STAMP): pyproject.toml setup.py constraints.txt engine/_fastgen.c engine/_fastlex.c | $(VENV)/bin/python
	$(PIP) -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(PIP) -e '.[test]'
	touch $(TEST_STAMP)

.PHONY: install run test lint bench screenshots
install: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/wordsolver serve

test: $(TEST_STAMP)
	$(VENV)/bin/python -m pytest

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check engine app tests bench tools
	$(VENV)/bin/mypy engine app

bench: $(TEST_STAMP)
	$(VENV)/bin/python bench/run.py

# The README's and docs/page.md's pictures (docs/page-1280.png, docs/page-390.png), taken by the
# browser tests from the page as it is (needs Chromium: /usr/bin/chromium).
screenshots: $(TEST_STAMP)
	WORDSOLVER_SCREENSHOTS=docs $(VENV)/bin/python -m pytest tests/test_page.py -q -k readme_screenshots
