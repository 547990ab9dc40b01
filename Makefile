# Larder: `make run` serves the bundled sample data; `make test` runs the whole suite.
SHELL := /bin/bash
SWIFT ?= swift
PORT ?= 8080
UPSTREAM_PORT ?= 8081
# libmicrohttpd 1.0.10-1, pinned with its source's sums, built once into .build/libmicrohttpd by `make deps`
# (tools/deps/libmicrohttpd.sh). Every recipe, and what it runs, finds that build first through pkg-config.
LIBMICROHTTPD := $(CURDIR)/.build/libmicrohttpd
export PKG_CONFIG_PATH := $(LIBMICROHTTPD)/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

# CLarderHTTP's warning flags, as Package.swift's cSettings give them: its C test is built with them too.
CLARDER_CFLAGS := -Wall -Wextra -Werror

.PHONY: run check test test-c build deps docs clean lint-docker container-check soak bench bench-idle bench-page bench-gzip bench-mirror bench-failover bench-frankfurter bench-cost bench-tier bench-propagation bench-instructions epoll-churn fuzz

## deps: the pinned libmicrohttpd (1.0.10-1, its source's sums checked) and pkg-config (Debian packages installed as root, or the command to run); prints the one line a plain `swift build` or `swift test` needs
deps:
	@bash tools/deps/libmicrohttpd.sh "$(LIBMICROHTTPD)"
	@echo "deps: for swift build / swift test outside make, first: export PKG_CONFIG_PATH=$(LIBMICROHTTPD)/lib/pkgconfig"

## build: release build of larder and sample-upstream, the Swift runtime linked statically as in the container
build: deps
	$(SWIFT) build -c release --static-swift-stdlib
	@python3 tools/deps/check-pins.py

## run: sample upstream on 127.0.0.1:$(UPSTREAM_PORT), Larder on 127.0.0.1:$(PORT), a local Frankfurter (Larder mirroring the upstream's eight providers) on $(PORT)+2; Ctrl-C stops all three
run: build
	@bash Examples/run.sh "$(PORT)" "$(UPSTREAM_PORT)"

## check: the developer's loop (a few minutes warm): the manifest's imports, the module graph, the build, the C test (test-c), every Swift test, the docs (settings tables, links, the README's tour); one summary line
check: deps
	@python3 tools/check/stages.py check

## test: everything, as CI runs it: what check runs, and the container files' lint, the generated sources, the status page's script and stylesheet, openapi.yaml and the metrics (promtool) against the running server, the alerting rules (promtool), the status page in headless chromium; one summary line (the stages: tools/check/stages.py)
test: deps
	@python3 tools/check/stages.py test

## test-c: the C tests: CLarderHTTP's shared-limits table (Tests/CLarderHTTP/shared_limits_test.c: insert, delete with backward shift, wrap-around, a full table), built with the target's warning flags and the address and undefined-behaviour sanitizers; and the libmicrohttpd Larder links, whose pool reset clears what a request used and nothing else (Tests/CLarderHTTP/pool_reset_test.c), and whose MHD_epoll() answers a burst of exactly 128 connections at once (epoll-churn)
test-c: deps
	@mkdir -p .build
	$(CC) $(CLARDER_CFLAGS) -g -fsanitize=address,undefined -o .build/shared-limits-test \
		Tests/CLarderHTTP/shared_limits_test.c Sources/CLarderHTTP/shared_limits.c -pthread
	timeout 60 .build/shared-limits-test
	$(CC) $(CLARDER_CFLAGS) -g -fsanitize=undefined -o .build/pool-reset-test \
		Tests/CLarderHTTP/pool_reset_test.c $(LIBMICROHTTPD)/lib/libmicrohttpd.a -pthread
	timeout 60 .build/pool-reset-test
	@$(MAKE) --no-print-directory epoll-churn

## docs: write the settings tables of README.md and docs/configuration.md from the code's one table of settings (Sources/LarderConfig/Setting+Documentation.swift), and the dialects' OpenAPI documents from openapi.yaml (tools/generate/dialect-openapi.py); `make test` fails while a committed table or document differs
docs: deps
	$(SWIFT) build --product larder
	python3 tools/check/settings-tables.py --write "$$($(SWIFT) build --show-bin-path)"
	python3 tools/generate/dialect-openapi.py --write

## lint-docker: hadolint on Docker/Dockerfile (pinned in tools/requirements.txt, from PyPI when missing); compose/Kubernetes YAML checks
lint-docker:
	@bash tools/container/lint.sh

## container-check: the image's runtime stages replayed in a debootstrap'd bookworm root and run there (root; minutes; not in CI)
container-check: deps
	@python3 tools/container/container-check.py

## soak: 20+ kill -9 rounds during refreshes and syncs, the tier simulation over 20 publications (TIER_PUBLICATIONS), then 10 minutes of mixed load while the upstream changes and fails (not in CI)
soak: build
	@command -v wrk >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq wrk >/dev/null; } || { echo "soak needs wrk: apt-get install -y wrk"; exit 1; }
	$(SWIFT) build --build-tests
	@set -o pipefail; LARDER_CRASH_ROUNDS=$${CRASH_ROUNDS:-20} $(SWIFT) test --skip-build --filter 'CrashTests' 2>&1 \
		| grep -E '^(✔|✘) (Test|Suite)' | grep -v '^✔ Test run'
	@set -o pipefail; LARDER_TIER_PUBLICATIONS=$${TIER_PUBLICATIONS:-20} $(SWIFT) test --skip-build --filter 'TierSimulationTests' 2>&1 \
		| grep -E '^(✔|✘) (Test|Suite)|^tier simulation' | grep -v '^✔ Test run'
	python3 Tests/soak/soak.py

## bench: release Larder against nginx static, nginx proxy_cache, Varnish and bare libmicrohttpd, with wrk, with a browser tab on the status page, the documents mirror at 1,000 to 100,000 documents against wget and aria2c, a local Frankfurter at full size, the origin's requests with tiers (bench/tier.py), what an answer costs the server (CPU time per request, bench/cost.py), then instructions per request under callgrind (well over an hour; not in CI)
bench: build
	@missing=""; \
	for tool in wrk:wrk nginx:nginx varnishd:varnish cc:gcc chromium:chromium chromedriver:chromium-driver wget:wget aria2c:aria2 valgrind:valgrind; do \
		command -v $${tool%%:*} >/dev/null || missing="$$missing $${tool##*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing >/dev/null; \
		else \
			echo "make bench needs:$$missing (sudo apt-get install -y$$missing)"; exit 1; \
		fi; \
	fi
	python3 bench/bench.py
	@$(MAKE) --no-print-directory bench-propagation

## bench-propagation: a part of make bench: how fast a new publication reaches every replica of a tier, measured by the simulation of make test (the sample upstream, 2 primaries and 8 replicas as processes) over 20 publications (TIER_PUBLICATIONS); its line is added to .build/bench-report.md (about 2 minutes)
bench-propagation: deps
	$(SWIFT) build --build-tests
	@set -o pipefail; LARDER_TIER_PUBLICATIONS=$${TIER_PUBLICATIONS:-20} $(SWIFT) test --skip-build --filter 'TierSimulationTests' 2>&1 \
		| grep -E '^✘|^tier simulation' | tee -a .build/bench-report.md

## bench-instructions: only the instructions per request of make bench: Larder, the bare libmicrohttpd ceiling and nginx each under valgrind's callgrind, on /rates, cross rates, a one-year series, /v1/latest, the 1 MiB document, the listing and a 304; the same count on any machine, however loaded (about 10 minutes)
bench-instructions: build
	@{ command -v valgrind && command -v nginx && command -v cc; } >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq valgrind nginx gcc >/dev/null; } || { echo "bench-instructions needs: apt-get install -y valgrind nginx gcc"; exit 1; }
	python3 bench/instructions.py

## bench-idle: only the idle-connection and churn scenarios of make bench, Larder on --threads N against nginx static on N workers, N = 1 and 2 (BENCH_WORKERS; about 15 minutes)
bench-idle: build
	python3 bench/bench.py --only idle,churn

## bench-page: only the status page's scenario of make bench: GET /rates with and without a headless chromium tab on the page (a few minutes)
bench-page: build
	@{ command -v chromedriver && command -v wrk; } >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq chromium chromium-driver wrk >/dev/null; } || { echo "bench-page needs: apt-get install -y chromium chromium-driver wrk"; exit 1; }
	python3 bench/bench.py --only page

## bench-gzip: only the gzipped-listing scenario of make bench, 10,000 documents, Larder against nginx gzip_static and gzip on (a few minutes)
bench-gzip: build
	python3 bench/bench.py --only gzip

## bench-mirror: only the documents mirror's scenario of make bench: first sync (Larder, wget -i, aria2c -j16 from one nginx), start to ready, resident memory and the listing's size at BENCH_MIRROR_COUNTS documents (default 1000,10000,30000,100000; about 10 minutes)
bench-mirror: build
	@{ command -v wrk && command -v nginx && command -v wget && command -v aria2c; } >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq wrk nginx wget aria2 >/dev/null; } || { echo "bench-mirror needs: apt-get install -y wrk nginx wget aria2"; exit 1; }
	python3 bench/bench.py --only mirror

## bench-failover: only the several-upstreams scenario of make bench: refreshes with a dead primary (refused, and a black hole) against the secondary alone, over two breaker windows, and the ECB data API's updatedAfter bytes against a full history (about 3 minutes)
bench-failover: build
	python3 bench/bench.py --only failover

## bench-tier: the origin's requests per hour with 1, 10 and 100 Larders (BENCH_TIER_COUNTS), as replicas of 2 primaries and as one Larder per node polling the origin itself (bench/tier.py; about 10 minutes)
bench-tier: build
	python3 bench/tier.py

## bench-frankfurter: only the local Frankfurter at full size of make bench (bench/frankfurter_mirror.py): Frankfurter's 84 providers, ~160 currencies and some 11 million rows generated (tools/generate/frankfurter-full.py) and served by the sample upstream; Larder's first sync from an empty cache and its resident memory, GET /v2/rates against GET /rates with wrk, a whole-history NDJSON answer's memory growth (about 6 minutes; some 1 GB of disk in the work folder)
bench-frankfurter: build
	@{ command -v wrk && command -v nginx; } >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq wrk nginx >/dev/null; } || { echo "bench-frankfurter needs: apt-get install -y wrk nginx"; exit 1; }
	python3 bench/bench.py --only frankfurter

## bench-cost: only the cost table of make bench (bench/cost.py): CPU time per request (/proc around each wrk run) for Larder, nginx static and the ceiling on the same bytes at 1 and 2 workers, on /rates, cross rates, /v2/rates, a one-year /v2/rates.csv, the 1 MiB document, a 304 and /rates with 3,000 idle connections, with SPEC §7's CPU targets marked met or not (about 20 minutes)
bench-cost: build
	@{ command -v wrk && command -v nginx; } >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq wrk nginx >/dev/null; } || { echo "bench-cost needs: apt-get install -y wrk nginx"; exit 1; }
	python3 bench/bench.py --only cost

## epoll-churn: build and run libmicrohttpd's epoll stall reproducer (bench/epoll-churn.c) in each mode; fails unless every burst, `epoll burst 128` included, is answered within EPOLL_CHURN_LIMIT seconds (default 5; the unpatched 1.0.10 stalls 30 s) — the check of tools/deps/libmicrohttpd-epoll-timeout.patch (a few seconds)
EPOLL_CHURN_LIMIT ?= 5
epoll-churn: deps
	@mkdir -p .build
	cc -O2 -pthread -o .build/epoll-churn bench/epoll-churn.c $$(pkg-config --cflags --libs --static libmicrohttpd)
	@echo "libmicrohttpd from $(LIBMICROHTTPD): $$(sed -n 2p $(LIBMICROHTTPD)/larder.stamp)"
	@failed=0; for mode in poll epoll ext; do for n in 127 128 129; do \
		echo -n "$$mode "; .build/epoll-churn $$mode burst $$n $(EPOLL_CHURN_LIMIT) || failed=1; \
	done; done; \
	if [ $$failed = 1 ]; then echo "epoll-churn: FAILED: a burst was not answered within $(EPOLL_CHURN_LIMIT) s (docs/libmicrohttpd-epoll-patch.md)"; exit 1; fi; \
	echo "epoll-churn: every burst answered within $(EPOLL_CHURN_LIMIT) s, epoll burst 128 included"

## fuzz: every parser's fuzz target (Sources/LarderFuzzing) built with libFuzzer and AddressSanitizer, run FUZZ_SECONDS (default 60) each on all cores; fails on any crash, leak or broken property, its input saved in Fuzz/reproducers (not in CI)
fuzz: deps
	python3 tools/fuzz/run.py

clean:
	rm -rf .build larder-cache
