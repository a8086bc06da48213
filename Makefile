# EnergyLab: the two quick-start targets are `reproduce` and `test`.
SWIFT ?= swift
RELEASE_BIN := .build/release/energylab
DEBUG_BIN := .build/debug/energylab

.PHONY: deps build release reproduce test readme-figures test-slurm lint format generated fuzz clean install

# Installs the binary into PREFIX/bin and the shipped data it reads
# (reference tables, MET table, factor sets, airports) into
# PREFIX/share/energylab/Datasets, where the binary finds it.
PREFIX ?= /usr/local
SHIPPED_DATA := reference met factors airports

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product energylab

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/energylab
	for d in $(SHIPPED_DATA); do \
	  install -d $(DESTDIR)$(PREFIX)/share/energylab/Datasets/$$d && \
	  cp -R Datasets/$$d/. $(DESTDIR)$(PREFIX)/share/energylab/Datasets/$$d/ || exit 1; \
	done

# Build (debug, the build `make test` reuses) and run every notebook in
# Notebooks/ into Reports/. The reports are the same from a release build
# (the test `committedReportsAreCurrent` runs the debug binary); a release
# build is `make release` or `make install`, for large studies.
reproduce: build
	$(DEBUG_BIN) run --reproducible

# Unit, golden-file and end-to-end tests (the end-to-end tests run the built
# binary, so it is built first; after `make reproduce` only the test
# targets are compiled, the rest is its debug build), then lint. Says how many tests were
# skipped and why; fails on a skip Tests/expected-skips.tsv does not list
# and when the README's test figures are not this run's (scripts/test-run).
test: deps
	SWIFT=$(SWIFT) scripts/test-run

# Copies the figures of the last `make test` (tests, suites, skipped,
# seconds) into the README.
readme-figures:
	python3 scripts/check-test-run --readme README.md --figures .build/test-figures.txt --write-readme

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

# Regenerate what is derived from the code: the README's models table and
# the curated reports.
generated: build
	scripts/update-readme-models
	$(DEBUG_BIN) run --reproducible --quiet

# A single-node Slurm cluster on this machine (installs slurmd, slurmctld,
# slurm-client and munge when missing; needs root or sudo): a study run as a
# job array of shards, merged, must equal one unsharded run. Not part of
# `make test` or CI.
test-slurm: release
	scripts/test-slurm

# libFuzzer targets for the readers (Fuzz/, a separate package), each run
# for FUZZ_SECONDS (default 600); results in Fuzz/RESULTS.md.
fuzz: deps
	Fuzz/run.sh

clean:
	rm -rf .build
