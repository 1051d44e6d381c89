/**
 * Scaffolding speed, as a user feels it: median wall time of `kbts --help`, `kbts init` and
 * `kbts create api`, each a fresh `node bin/kbts.js` process (run `npx tsc -b` first).
 * Goal: --help under 100 ms (commands load their implementation lazily).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KBTS } from "../../e2e/support/paths.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);

function time(args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, [KBTS, ...args], { cwd, stdio: "ignore" });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** A bare `node -e 0`: the floor under every figure on this machine. */
function nodeStartup(cwd: string): number {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, ["-e", "0"], { cwd, stdio: "ignore" });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const work = mkdtempSync(join(tmpdir(), "kbts-bench-scaffold-"));
const results = {
  node: [] as number[],
  help: [] as number[],
  init: [] as number[],
  createApi: [] as number[],
};
try {
  for (let i = 0; i < RUNS; i++) {
    const dir = join(work, `p${i}`);
    mkdirSync(dir);
    results.node.push(nodeStartup(dir));
    results.help.push(time(["--help"], dir));
    results.init.push(
      time(["init", "--domain", "example.com", "--repo", "example.com/bench", "--runtime", "registry"], dir),
    );
    results.createApi.push(
      time(["create", "api", "--group", "cache", "--version", "v1alpha1", "--kind", "Memcached"], dir),
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// What kbts itself adds to a start: loading the CLI modules and building the command tree, in-process.
const loadStart = performance.now();
const cli = (await import(new URL("../../dist/cli/main.js", import.meta.url).href)) as {
  buildProgram(): { helpInformation(): string };
};
const loadMs = performance.now() - loadStart;
const treeStart = performance.now();
cli.buildProgram().helpInformation();
const treeMs = performance.now() - treeStart;

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
console.log(`kbts scaffold benchmark (${RUNS} runs each, median wall time of a fresh process)`);
console.log(`  node -e 0         ${fmt(median(results.node))}  (Node.js startup alone, for scale)`);
console.log(`  kbts --help       ${fmt(median(results.help))}  (goal < 100 ms)`);
console.log(`  kbts init         ${fmt(median(results.init))}`);
console.log(`  kbts create api   ${fmt(median(results.createApi))}`);
console.log(
  `  CLI modules load  ${fmt(loadMs)} + command tree and help ${fmt(treeMs)} (in-process, first load)`,
);
