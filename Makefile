# Arbiter — a thin wrapper over CMake (presets: dev, asan, release).
#   make            build the release preset (optimised for this CPU)
#   make run        the main job: the play server on http://localhost:8080 (the page built into
#                   web/dist, games in ./arbiter.db); `arbiter demo` is the old demonstration
#   make test       install what is missing, then every test: release build + ASan/UBSan build
#                   (the browser tests' screenshots: build/release/web-shots/web and /train),
#                   then the hot paths' instruction budgets (make test-guard), then the whole
#                   tree built by clang, warnings as errors (make test-clang)
#   make test-guard callgrind's instruction counts of pgn check, perft, query, the referee, dead
#                   and solve against tests/perf/budgets, and on a CPU with BMI2 and AVX2 those of
#                   a PEXT build against tests/perf/budgets-pext (GUARD_UPDATE=1 rewrites both)
#   make bench      perft against Stockfish's `go perft` (ratio), query with/without history,
#                   winnability on the final positions of games lost on time and on locked
#                   positions (bench/dead [-n RUNS] [FILE...]),
#                   arbiter pgn check/convert against pgn-extract (bench/pgn [FILE...]),
#                   the referee's C API against its JSON codec (bench/referee [FILE.pgn]),
#                   arbiter match against fastchess (bench/match.sh; FASTCHESS=PATH, built
#                   outside the tree), the WebAssembly module against chessops (bench/wasm.sh)
#   make python     the Python package (python/, import arbiter: docs/python.md), built offline
#                   by pip and cffi and installed for Debian's python3 (root: /usr/local)
#   make wasm       the library compiled to WebAssembly by Debian's emcc: build/wasm/arbiter.mjs
#                   (chess.js-like API), arbiter.wasm and arbiter.d.ts (docs/wasm.md)
#   make fuzz       build the libFuzzer targets with clang and run each for FUZZ_SECONDS
#   make install    install headers, libraries, arbiter.pc, the CMake package, `arbiter`, the
#                   page, man pages, completion and the systemd unit (PREFIX=/usr/local)
#   make deb        Debian packages libarbiter0, libarbiter-dev, arbiter in build/deb
#   make test-deep  the perft counts over 200 million nodes and the long crash test (minutes)
#   make test-crash the long crash test of the play server alone
#   make test-fresh the clean-room test (root, many minutes): a fresh Debian bookworm made by
#                   debootstrap in build/fresh, a clean clone of HEAD in it, .ci/run and make run
#                   there (scripts/test-fresh.sh --help)
#   make test-fresh-deb  the same, then make deb there and the packages installed and serving
#                   the page on a second fresh system
#   make format     clang-format every C file in place
PREFIX ?= /usr/local
FUZZ_SECONDS ?= 60
JOBS ?= 2
SANITIZER_PERFT_NODES ?= 1000000

PY ?= /usr/bin/python3

.PHONY: all build python wasm run test test-release test-asan test-guard test-clang test-fresh test-fresh-deb bench fuzz install deb test-deep test-crash format deps clean

all: build

deps:
	@sh scripts/deps.sh build

build: deps
	cmake --preset release >/dev/null
	cmake --build build/release -j$(JOBS)

python:
	@sh scripts/deps.sh python
	PYTHON=$(PY) sh scripts/python-install.sh .

wasm:
	@sh scripts/deps.sh wasm
	sh wasm/build.sh build/wasm

PORT ?= 8080
run: build
	@sh scripts/deps.sh run
	@sh scripts/web.sh
	@echo "make run: open http://localhost:$(PORT)/ — play the computer, or a friend in a second window (Ctrl-C stops the server)"
	./build/release/arbiter serve --port $(PORT) --db arbiter.db --static web/dist

test: test-release test-asan test-guard test-clang

test-release:
	@sh scripts/deps.sh build test
	cmake --preset release >/dev/null
	cmake --build build/release -j$(JOBS)
	cd build/release && ctest --output-on-failure -j$(JOBS) -LE deep

# Under ASan+UBSan: every unit and CLI test, perft capped per line, fewer differential games
# (the PGN corpus is still read under ASan by pgn_corpus; its chessops comparison runs in release).
test-asan:
	@sh scripts/deps.sh build test
	cmake --preset asan -DARB_PERFT_MAX_NODES=$(SANITIZER_PERFT_NODES) -DARB_DIFF_GAMES=300 >/dev/null
	cmake --build build/asan -j$(JOBS)
	cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  ctest --output-on-failure -j$(JOBS) -LE deep -E '^(format|consumer_pkgconfig|diff_chessops_pgn_corpus|python|wasm)$$'

# The hot paths' instruction counts (callgrind) against budgets, on portable builds (valgrind
# runs no AVX-512, and the counts must not depend on the CPU); GUARD_UPDATE=1 writes the budgets
# anew (commit them saying why).  Two builds: slider lookups by magic multiplication (any
# x86-64, tests/perf/budgets), and by PEXT (what every -march=native build of a CPU with BMI2
# runs, tests/perf/budgets-pext), the second only where this CPU has BMI2 and AVX2.
GUARD_PEXT_FLAGS = -mbmi -mbmi2 -mpopcnt -mlzcnt -mavx2
test-guard:
	@sh scripts/deps.sh build test
	cmake -S . -B build/guard -DCMAKE_BUILD_TYPE=Release -DARB_NATIVE=OFF -DARB_BUILD_TESTS=OFF >/dev/null
	cmake --build build/guard -j$(JOBS) --target arbiter_cli
	sh tests/perf/guard.sh build/guard/arbiter . $(if $(GUARD_UPDATE),--update)
	@if grep -qw bmi2 /proc/cpuinfo 2>/dev/null && grep -qw avx2 /proc/cpuinfo; then \
	  cmake -S . -B build/guard-pext -DCMAKE_BUILD_TYPE=Release -DARB_NATIVE=OFF -DARB_BUILD_TESTS=OFF \
	    -DCMAKE_C_FLAGS="$(GUARD_PEXT_FLAGS)" >/dev/null && \
	  cmake --build build/guard-pext -j$(JOBS) --target arbiter_cli && \
	  sh tests/perf/guard.sh build/guard-pext/arbiter . --budgets tests/perf/budgets-pext $(if $(GUARD_UPDATE),--update); \
	else \
	  echo "guard (PEXT): skipped, this CPU has no BMI2 or no AVX2"; \
	fi

# The whole tree (library, command, server, tests, benchmarks) built by clang as well, every
# warning an error: the C standards hold for gcc and clang, and only gcc's builds ran the tests
test-clang:
	@sh scripts/deps.sh build test
	CC=clang cmake -S . -B build/clang -DCMAKE_BUILD_TYPE=Release -DARB_BUILD_TESTS=ON >/dev/null
	cmake --build build/clang -j$(JOBS)

test-fresh:
	sh scripts/test-fresh.sh

# the same, then `make deb` there and the packages installed on a second fresh system
test-fresh-deb:
	ARBITER_FRESH_DEB=1 sh scripts/test-fresh.sh

# The long crash test: 60 kill -9 restarts under 40 games (minutes).
test-crash: build
	cmake --preset release >/dev/null
	cmake --build build/release -j$(JOBS)
	cd build/release && ctest --output-on-failure -R server_crash_long

test-deep: build
	cmake --preset release >/dev/null
	cmake --build build/release -j$(JOBS)
	cd build/release && ctest --output-on-failure -L deep

bench:
	@sh scripts/deps.sh build bench
	cmake --preset release >/dev/null
	cmake --build build/release -j$(JOBS) --target bench_perft bench_query bench_dead bench_pgn bench_referee bench_serve
	./build/release/bench/perft
	./build/release/bench/query
	./build/release/bench/dead
	sh bench/dead_cha.sh
	./build/release/bench/pgn
	./build/release/bench/referee
	./build/release/bench/serve --games 1000
	./build/release/bench/serve --games 1000 --pace 100
	./build/release/bench/serve --games 10000
	python3 bench/solve.py
	sh bench/puzzles.sh
	python3 bench/train.py
	sh bench/match.sh --games 1000
	sh bench/wasm.sh

fuzz:
	@sh scripts/deps.sh build fuzz
	CC=clang cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARB_FUZZ=ON \
	  -DARB_BUILD_TESTS=OFF >/dev/null
	cmake --build build/fuzz -j$(JOBS)
	for t in $$(ls fuzz/corpus); do \
	  mkdir -p build/fuzz/corpus/$$t && \
	  ./build/fuzz/fuzz/fuzz_$$t build/fuzz/corpus/$$t fuzz/corpus/$$t \
	    -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=build/fuzz/ || exit 1; \
	done

install: build
	@sh scripts/web.sh
	cmake --install build/release --prefix $(PREFIX)

# Debian packages (libarbiter0, libarbiter-dev, arbiter) into build/deb, checked by lintian
deb:
	@sh scripts/deps.sh build deb
	@sh scripts/web.sh
	dpkg-buildpackage -us -uc -b
	mkdir -p build/deb
	rm -f build/deb/*
	mv ../arbiter_*.deb ../arbiter-dbgsym_*.deb ../libarbiter0_*.deb ../libarbiter0-dbgsym_*.deb \
	  ../libarbiter-dev_*.deb ../arbiter_*.buildinfo ../arbiter_*.changes build/deb/
	debian/rules clean >/dev/null
	lintian --tag-display-limit 0 --info build/deb/*.changes

format:
	clang-format -i include/arbiter/*.h src/*.c src/*/*.c src/*/*.h tools/*.c tools/*.h \
	  tests/*.c tests/*.h tests/consumer/*.c bench/*.c bench/*.h fuzz/*.c fuzz/*.h scripts/*.c \
	  server/*.c server/*.h

clean:
	rm -rf build
