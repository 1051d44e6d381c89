import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests run on the TypeScript sources of @kbts/runtime, so no build is needed between edits.
const alias = [
  { find: /^@kbts\/runtime\/envtest$/, replacement: here("./runtime/src/envtest/index.ts") },
  { find: /^@kbts\/runtime\/validation$/, replacement: here("./runtime/src/validation/index.ts") },
  { find: /^@kbts\/runtime\/fake$/, replacement: here("./runtime/src/fake/index.ts") },
  { find: /^@kbts\/runtime$/, replacement: here("./runtime/src/index.ts") },
];

/**
 * e2e files whose assertions are about time or memory: they run after the rest (project e2e-timed), three
 * at a time, never beside the CPU-bound scaffold-and-build files.
 */
const E2E_TIMED = [
  "e2e/breaking.test.ts",
  "e2e/cache-memory.test.ts",
  "e2e/chaos-control-plane.test.ts",
  "e2e/chaos-network.test.ts",
  "e2e/cluster-cli.test.ts",
  "e2e/envtest-cli.test.ts",
  "e2e/envtest-setup.test.ts",
  "e2e/gpubudget-cluster.test.ts",
  "e2e/signals.test.ts",
  "e2e/warm-standby.test.ts",
];

/**
 * The files that take a minute or more (make test prints its 10 slowest), started first in their
 * project, longest first: the classic rule for packing jobs onto workers. Vitest orders files by the
 * durations it cached on earlier runs and, without them (a fresh clone, CI), by size, largest first.
 * That started the chaos e2e (one 19-line file then, 2.5 minutes) last, alone, with the other worker idle, and
 * published.test.ts (3.5 minutes beside three others) among the last of the e2e files. The order only
 * decides when a file starts; a file missing here runs after these, as Vitest orders it.
 */
const LONGEST_FIRST = [
  "runtime/src/cache/network-faults.int.test.ts",
  "runtime/src/manager/manager.int.test.ts",
  "runtime/src/envtest/envtest.int.test.ts",
  "runtime/src/metrics/secure.int.test.ts",
  "testdata/markers/oracle.int.test.ts",
  "e2e/gpubudget.test.ts",
  "e2e/published.test.ts",
  "e2e/scaffold-e2e.test.ts",
  "e2e/readme.test.ts",
  "e2e/global-kinds.test.ts",
  "e2e/installed.test.ts",
  "e2e/chaos-network.test.ts",
  "e2e/gpubudget-cluster.test.ts",
  "e2e/chaos-control-plane.test.ts",
  "e2e/envtest-cli.test.ts",
  "e2e/cluster-cli.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's order keeps each project's files together and the projects in their group order.
    const sorted = await super.sort(files);
    const project = new Map<string, number>();
    for (const [i, f] of sorted.entries()) if (!project.has(f.project.name)) project.set(f.project.name, i);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(relative(f.project.config.root, f.moduleId));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    const key = (f: TestSpecification, i: number) => [project.get(f.project.name) ?? 0, rank(f), i] as const;
    return sorted
      .map((f, i) => ({ f, k: key(f, i) }))
      .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.k[2] - b.k[2])
      .map(({ f }) => f);
  }
}

export default defineConfig({
  resolve: { alias },
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "src/**/*.test.ts",
            "runtime/src/**/*.test.ts",
            "testdata/**/*.test.ts",
            "bench/**/*.test.ts",
            "docs/gen/**/*.test.ts",
          ],
          exclude: [
            "**/*.int.test.ts",
            "**/node_modules/**",
            "testdata/project-*/**",
            "testdata/tutorial-*/**",
          ],
          // Vitest's default is one worker less than the cores: one, on a 2-core machine, where many
          // files wait on a subprocess (biome, tsc, controller-gen) half the time. Every unit file
          // works in its own temp dirs and ephemeral ports; runtime builds take a lock.
          maxWorkers: 2,
          // A test that scaffolds a project and edits it takes 1-2 s alone, but over 5 s (Vitest's
          // default limit) when its neighbour and other jobs load the machine. The limit only catches
          // hangs; no unit test asserts its own speed through it.
          testTimeout: 30_000,
          // Each worker loads the CLI, ts-morph and TypeScript once, not once per file: with isolation
          // the fork and imports cost ~0.6 s of CPU for each of the 122 files, more than half the run
          // for the 70 files whose tests take under 0.5 s. A test that changes process-wide state
          // (cwd, env, stdout, timers, a logger) restores it; one that needs a fresh process spawns one.
          isolate: false,
        },
      },
      {
        // Against a real etcd + kube-apiserver: each file starts its own control plane.
        resolve: { alias },
        test: {
          name: "integration",
          include: ["src/**/*.int.test.ts", "runtime/src/**/*.int.test.ts", "testdata/**/*.int.test.ts"],
          exclude: ["**/node_modules/**", "testdata/project-*/**", "testdata/tutorial-*/**"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Four files at a time: they mostly wait on their control planes (at two, 60% of the CPU
          // was idle; four take about 154 s, not 270 s).
          maxWorkers: 4,
          globalSetup: ["e2e/support/kubectl-cache.ts"],
        },
      },
      {
        // Drives the built CLI (bin/kbts.js) and scaffolded projects, four files at a time: each file
        // works in its own temp dirs, ports and control plane, so they do not interfere. Their hooks
        // (scaffold, npm install, build) leave a core idle between files at two at a time; four keep
        // both busy (4% idle) and take 506 s, not about 620 s.
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          // e2e/fresh-clone.test.ts runs every other test, once, in a fresh clone: only `make test` runs it
          // (KBTS_FRESH_CLONE_RUN=1, which the clone does not inherit). Elsewhere it is not collected at
          // all, so no run counts it as skipped, and a skip in a summary is always a real test's.
          exclude: [
            "**/node_modules/**",
            ...E2E_TIMED,
            ...(process.env.KBTS_FRESH_CLONE_RUN === "1" ? [] : ["e2e/fresh-clone.test.ts"]),
          ],
          testTimeout: 900_000,
          hookTimeout: 900_000,
          maxWorkers: 4,
          // One npm install per dependency set for the whole run (e2e/support/installs.ts).
          globalSetup: ["e2e/support/kubectl-cache.ts", "e2e/support/installs.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The e2e files that assert wall-clock promises (stop within 5 s, warm beats cold, failover
        // recovery) or measure memory run after the rest, so the scaffold-and-build load cannot decide
        // them. They mostly wait (chaos's faults, SIGTERM rounds): one at a time left 68% of the CPU
        // idle for 368 s; two at a time leave 49% idle and take 197 s, three 148 s, four 114 s (at 1.5
        // cores), which is about the longest file, chaos-network.test.ts.
        resolve: { alias },
        test: {
          name: "e2e-timed",
          include: E2E_TIMED,
          exclude: ["**/node_modules/**"],
          testTimeout: 900_000,
          hookTimeout: 900_000,
          maxWorkers: 4,
          globalSetup: ["e2e/support/kubectl-cache.ts", "e2e/support/installs.ts"],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
