# Two commands do everything on a fresh machine:
#   make run    create .venv, install what serving needs, and serve on http://127.0.0.1:8000
#   make test   create .venv, install with the test extras, and run the whole test suite
#   make lint   ruff and mypy (CI runs it after the tests)
#   make pgo    rebuild the move generator with profile-guided optimisation (tools/pgo.py, GCC;
#               about 0.9x the search's time, 8 s to build; the image always does it)
#   make bench  the benchmark suite (bench/run.py)
#   make screenshots  the README's pictures of the page, taken by the browser tests
PY ?= python3
VENV := .venv
# tools/install.sh creates the venv and installs the project pinned by constraints.txt: with uv
# when it can (seconds), else with venv and pip; it says what it does and shows progress.
INSTALL := PY=$(PY) tools/install.sh $(VENV)
# Separate stamps: `make run` installs only what serving needs; the test and lint tools
# come with the first `make test` or `make lint`.
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

$(STAMP): pyproject.toml setup.py constraints.txt engine/_fastgen.c engine/_fastlex.c tools/install.sh
	$(INSTALL)
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(INSTALL) test
	touch $(TEST_STAMP)

.PHONY: install run test lint bench screenshots pgo
install: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/wordsolver serve

test: $(TEST_STAMP)
	$(VENV)/bin/python -m pytest

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check engine app tests bench tools
	$(VENV)/bin/mypy engine app

pgo: $(STAMP)
	$(VENV)/bin/python tools/pgo.py

bench: $(TEST_STAMP)
	$(VENV)/bin/python bench/run.py

# The README's and docs/page.md's pictures (docs/page-1280.png, docs/page-390.png), taken by the
# browser tests from the page as it is (needs Chromium: /usr/bin/chromium).
screenshots: $(TEST_STAMP)
	WORDSOLVER_SCREENSHOTS=docs $(VENV)/bin/python -m pytest tests/test_page.py -q -k readme_screenshots
