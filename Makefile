# Everyday commands. Each target sets up what it needs on a fresh clone:
#   make test     install everything into .venv (and, as root, Debian's graphviz and chromium),
#                 then lint and run the whole test suite
#   make course   install the course into .venv (and, as root, Debian's graphviz; no browser)
#                 and start JupyterLab in course/
SHELL := /bin/bash
.DEFAULT_GOAL := test

VENV := .venv
PY := $(VENV)/bin/python
# The venv's bin/ comes first: nbgrader shells out to `alembic`, jupyter looks for its tools there.
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

# Extras installed for each purpose (see pyproject.toml); each has its own stamp file in .venv,
# so pip runs again only when pyproject.toml changes.
EXTRAS_test := test,viz,course
EXTRAS_course := course,viz
PYTEST_ARGS ?= -n 2 --dist loadgroup
# Jupyter refuses to run as root unless told to.
JUPYTER_ARGS ?= $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: test course course-build bench lint clean sysdeps

test: sysdeps $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(PY) -m pytest $(PYTEST_ARGS)

course: sysdeps $(VENV)/.installed-course
	@echo "Starting JupyterLab in course/: open the http://localhost:...?token=... URL it prints" \
	      "below (Ctrl-C to stop)."
	cd course && jupyter lab $(JUPYTER_ARGS)

course-build: $(VENV)/.installed-course
	$(PY) tools/build_course.py

bench: $(VENV)/.installed-test
	$(PY) benchmarks/run.py
	$(PY) benchmarks/course.py

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .

clean:
	rm -rf build dist .pytest_cache .ruff_cache .hypothesis *.egg-info
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

# Debian packages, as program:package pairs: Graphviz's `dot` draws the autograd graphs as SVG
# (without it graphviz-anywidget draws them in the browser); bubblewrap's `bwrap` sandboxes each
# student's kernel while autograding; Chromium runs the browser test, so only `make test` asks
# for it. As root (CI, containers) apt-get installs the missing ones.
SYSTEM_DEPS := dot:graphviz bwrap:bubblewrap
test: SYSTEM_DEPS := dot:graphviz bwrap:bubblewrap chromium:chromium
sysdeps:
	@missing=""; \
	for pair in $(SYSTEM_DEPS); do \
	  command -v "$${pair%%:*}" >/dev/null || missing="$$missing $${pair#*:}"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq $$missing; \
	else \
	  echo "warning: missing Debian packages:$$missing (apt-get install$$missing)" >&2; \
	fi

$(PY):
	python3 -m venv $(VENV)

$(VENV)/.installed-%: pyproject.toml | $(PY)
	$(PY) -m pip install --progress-bar off -e ".[$(EXTRAS_$*)]"
	touch $@
