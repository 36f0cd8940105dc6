# simgui: `make run` sets up and opens the app, `make test` sets up and runs the tests.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test bench experiments bundle clean check-python

check-python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "simgui needs Python 3.11 or newer; found " + sys.version.split()[0])'
	@$(PYTHON) -c 'import venv, ensurepip' 2>/dev/null || { echo "Python's venv module is missing: on Debian/Ubuntu run 'sudo apt-get install python3-venv'"; exit 1; }

$(BIN)/.installed-%: pyproject.toml | check-python
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$*]'
	touch $@

# the window needs a screen and Qt's system libraries (installed when missing, as root or
# through sudo); a command-line command (ARGS="scan ~/Documents") needs neither
run: $(BIN)/.installed-gui
	@if [ -z "$(ARGS)" ]; then $(BIN)/python -m simgui.gui.syscheck --install; fi
	$(BIN)/simgui $(ARGS)

test: $(BIN)/.installed-test
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m simgui.gui.syscheck --offscreen --install
	$(BIN)/python -m pytest

bench: $(BIN)/.installed-test
	$(BIN)/python benchmarks/bench_sumtable.py
	$(BIN)/python benchmarks/bench_scan.py
	$(BIN)/python benchmarks/bench_simfind.py
	$(BIN)/python benchmarks/bench_hamming_index.py
	$(BIN)/python benchmarks/bench_methods.py
	QT_QPA_PLATFORM=offscreen $(BIN)/python benchmarks/bench_gui_slider.py
	QT_QPA_PLATFORM=offscreen $(BIN)/python benchmarks/bench_startup.py

# the paper's figures, accuracy and speed against other tools, into docs/experiments
# (ARGS=--quick for a short run; the compared tools: apt-get install ssdeep rdfind jdupes
# enscript ghostscript)
experiments: $(BIN)/.installed-experiments
	PYTHONPATH=. $(BIN)/python benchmarks/experiments/run_all.py $(ARGS)

bundle:
	packaging/build.sh
	packaging/check_bundle.sh

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis packaging/build packaging/dist
