/**
 * kbts manifests vs controller-gen on a synthetic 50-kind API (TS and its Go twin), same run:
 *   npx tsx bench/manifests/main.ts [--runs N] [--kinds N] [--no-build]
 * Prints the median wall and CPU time of `node bin/kbts.js manifests` (a fresh process, as users run
 * it): cold (--no-cache: a full generation; the first run also without V8's code cache), cached (inputs
 * unchanged since the last run), and the latency of `--watch` from a one-file edit to the file written;
 * then the in-process generator and controller-gen when Go is present, and the ratios. The machine's
 * load average is printed first: the figures mean little on a busy machine.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { buildCheckout } from "../../e2e/support/build.js";
import { REPO } from "../../e2e/support/paths.js";
import { withoutExtraCaCerts } from "../../e2e/support/stats.js";
import { BUNDLES, cliBundleIsCurrent } from "../../src/packaging/cli-bundle.js";
import {
  CONTROLLER_GEN_VERSION,
  goVersion,
  installControllerGen,
  readTree,
} from "../../testdata/controller-gen/index.js";
import { normalizeManifest } from "../../testdata/markers/cases.js";
import { writeSyntheticAPI } from "./synth.js";

const run = promisify(execFile);

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const RUNS = flag("--runs", 5);
const KINDS = flag("--kinds", 50);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

interface Timing {
  wall: number;
  cpu: number;
}

/**
 * Runs a command and returns the CPU time (user + system) it and its children used, in ms: the shell
 * that runs it reads its own cutime/cstime from /proc after the wait. On a machine shared with other
 * work, CPU time is steadier than wall time; both are reported.
 */
async function runMeasured(
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<number> {
  const script = '"$0" "$@" >/dev/null; s=$?; cat /proc/$$/stat; exit $s';
  const { stdout } = await run("sh", ["-c", script, cmd, ...args], { ...opts, maxBuffer: 32 * 1024 * 1024 });
  // Fields after the ")" that ends the command name: index 13/14 are cutime/cstime (fields 16/17).
  const fields = stdout
    .slice(stdout.lastIndexOf(")") + 2)
    .trim()
    .split(/\s+/);
  const ticks = Number(fields[13]) + Number(fields[14]);
  return (ticks * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100; // sysconf(_SC_CLK_TCK) on Linux

/** Times fn RUNS times (fn returns its CPU ms); undefined (with the reason printed) if it fails. */
async function time(label: string, fn: () => Promise<number>): Promise<Timing | undefined> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    try {
      cpus.push(await fn());
    } catch (err) {
      const e = err as { stderr?: string; message?: string };
      console.log(
        `${label.padEnd(34)} failed: ${(e.stderr || e.message || String(err)).trim().split("\n")[0]}`,
      );
      return undefined;
    }
    walls.push(performance.now() - t0);
  }
  const t = { wall: median(walls), cpu: median(cpus) };
  const runs = walls.map((w) => w.toFixed(0)).join(", ");
  console.log(
    `${label.padEnd(34)} median wall ${t.wall.toFixed(0).padStart(6)} ms, cpu ${t.cpu.toFixed(0).padStart(6)} ms  (wall runs: ${runs})`,
  );
  return t;
}

/** CPU ms this process spends in fn. */
async function inProcessCpu(fn: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/**
 * `kbts manifests --watch` in a fresh process: after its first run, RUNS one-file edits (a field's
 * description in one kind), each timed from the write to the line saying the CRD was written.
 */
async function watchLatency(root: string): Promise<number | undefined> {
  const child = spawn("node", [join(REPO, "bin/kbts.js"), "manifests", "--watch"], { cwd: root });
  let out = "";
  child.stdout.on("data", (d) => {
    out += String(d);
  });
  child.stderr.on("data", (d) => {
    out += String(d);
  });
  const until = async (seen: (s: string) => boolean, deadline = 60_000): Promise<boolean> => {
    const end = performance.now() + deadline;
    while (performance.now() < end) {
      if (seen(out)) return true;
      await new Promise((r) => setTimeout(r, 2));
    }
    return false;
  };
  try {
    if (!(await until((s) => s.includes("watching for changes")))) {
      console.log(`kbts --watch                        failed: ${out.trim().split("\n").at(-1)}`);
      return undefined;
    }
    const file = join(root, "api/v1/kind01_types.ts");
    const original = readFileSync(file, "utf8");
    const latencies: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await new Promise((r) => setTimeout(r, 300));
      const mark = out.length;
      const t0 = performance.now();
      writeFileSync(file, original.replace("// name of the port.", `// name of the port (edit ${i}).`));
      if (!(await until((s) => s.slice(mark).includes("kind01s.yaml\n")))) {
        console.log(`kbts --watch                        failed: no regeneration after an edit`);
        return undefined;
      }
      latencies.push(performance.now() - t0);
    }
    // Put the file back and let the watcher write the CRD back, so the comparison below sees the same API.
    const mark = out.length;
    writeFileSync(file, original);
    await until((s) => s.slice(mark).includes("kind01s.yaml\n"));
    console.log(
      `${"kbts --watch, one-file edit".padEnd(34)} median wall ${median(latencies).toFixed(0).padStart(6)} ms  (runs: ${latencies.map((l) => l.toFixed(0)).join(", ")})`,
    );
    return median(latencies);
  } finally {
    child.kill("SIGINT");
  }
}

async function main(): Promise<void> {
  const [l1, l5] = loadavg();
  console.log(`load average: ${l1?.toFixed(2)} (1 min), ${l5?.toFixed(2)} (5 min) on ${cpus().length} cores`);
  const dir = mkdtempSync(join(tmpdir(), "kbts-bench-manifests-"));
  try {
    const goMod = readFileSync(join(REPO, "testdata/markers/go.mod"), "utf8");
    const goSum = readFileSync(join(REPO, "testdata/markers/go.sum"), "utf8");
    writeSyntheticAPI(dir, KINDS, goMod, goSum);
    // The TS project resolves @kbts/runtime like a user project would.
    symlinkSync(join(REPO, "node_modules"), join(dir, "ts", "node_modules"), "dir");
    const tsRoot = join(dir, "ts");
    console.log(`synthetic API: ${KINDS} kinds, 5 nested types each, in ${dir}; ${RUNS} runs per tool\n`);

    if (!process.argv.includes("--no-build")) {
      // tsc and the CLI's bundles, as `make build`: a `tsc -b` alone that emits leaves the bundles
      // older than the build, and bin/kbts.js then runs (and this bench times) the unbundled modules.
      try {
        await buildCheckout();
      } catch (err) {
        console.log(
          `build failed, timing whatever dist/ holds: ${String((err as { stdout?: string }).stdout ?? err).split("\n")[0]}`,
        );
      }
    }
    const bundled = BUNDLES.every((bundle) => cliBundleIsCurrent(REPO, bundle));
    console.log(
      `CLI bundles: ${bundled ? "current" : "stale, so bin/kbts.js runs (and this bench times) the unbundled modules"}\n`,
    );
    const kbtsIn =
      (env: NodeJS.ProcessEnv = process.env) =>
      (...args: string[]) =>
        runMeasured("node", [join(REPO, "bin/kbts.js"), "manifests", ...args], { cwd: tsRoot, env });
    const kbts = kbtsIn();
    // The very first run compiles TypeScript's compiler without V8's code cache (then it is kept).
    rmSync(join(REPO, "node_modules/.cache/kbts/v8"), { recursive: true, force: true });
    const t0 = performance.now();
    const firstCpu = await kbts("--no-cache");
    console.log(
      `${"kbts CLI, first run (no code cache)".padEnd(34)} wall ${(performance.now() - t0).toFixed(0).padStart(6)} ms, cpu ${firstCpu.toFixed(0).padStart(6)} ms`,
    );
    const cli = await time("kbts CLI cold (--no-cache)", () => kbts("--no-cache"));
    await kbts();
    const cached = await time("kbts CLI cached (inputs unchanged)", () => kbts());
    // Each kbts run pays NODE_EXTRA_CA_CERTS on Node 20 and controller-gen does not: the same runs without it.
    const noCerts = withoutExtraCaCerts();
    const kbtsWithoutCerts = noCerts && kbtsIn(noCerts);
    const cliWithoutCerts =
      kbtsWithoutCerts &&
      (await time("  cold, no NODE_EXTRA_CA_CERTS", () => kbtsWithoutCerts("--no-cache")));
    if (kbtsWithoutCerts) await kbtsWithoutCerts();
    const cachedWithoutCerts =
      kbtsWithoutCerts && (await time("  cached, no NODE_EXTRA_CA_CERTS", () => kbtsWithoutCerts()));
    const watched = await watchLatency(tsRoot);

    // In-process: the library entry point (src/manifests/index.ts, the generator helper's API).
    const lib = join(REPO, "src/manifests/index.ts");
    let inProcess: Timing | undefined;
    let inProcessFiles: Map<string, string> | undefined;
    if (existsSync(lib)) {
      const mod = (await import(pathToFileURL(lib).href)) as {
        generateManifests?: (o: { root: string }) => Promise<{ files: Map<string, string> }>;
      };
      const generate = mod.generateManifests;
      if (generate) {
        const first = performance.now();
        try {
          const out = await generate({ root: tsRoot });
          inProcessFiles = out.files;
          const ms = (performance.now() - first).toFixed(0).padStart(6);
          console.log(`kbts in-process, first call        ${ms} ms  (${out.files.size} files)`);
          inProcess = await time("kbts in-process, warm", () =>
            inProcessCpu(() => generate({ root: tsRoot })),
          );
        } catch (err) {
          console.log(`kbts in-process                    failed: ${String(err).split("\n")[0]}`);
        }
      } else console.log("kbts in-process: src/manifests/index.ts has no generateManifests yet");
    } else console.log("kbts in-process: skipped, src/manifests/index.ts does not exist yet");

    let cg: Timing | undefined;
    if ((await goVersion()) === undefined) console.log("controller-gen: skipped, Go is not installed");
    else {
      const bin = await installControllerGen();
      if (!bin.ok) console.log(`controller-gen: skipped, ${bin.reason}`);
      else {
        const out = join(dir, "cg-out");
        cg = await time(`controller-gen ${CONTROLLER_GEN_VERSION}`, () =>
          runMeasured(
            bin.bin,
            [
              "crd",
              "rbac:roleName=manager-role",
              "webhook",
              "paths=./...",
              `output:crd:artifacts:config=${join(out, "crd")}`,
              `output:rbac:artifacts:config=${join(out, "rbac")}`,
              `output:webhook:artifacts:config=${join(out, "webhook")}`,
            ],
            { cwd: join(dir, "go"), env: { ...process.env, GOFLAGS: "-mod=mod" } },
          ),
        );
      }
    }

    console.log("");
    if (cg !== undefined) {
      // Same work, same answer? Compare the CRDs (version annotation aside) with whichever kbts run worked.
      const theirs = readTree(join(dir, "cg-out/crd"));
      const ours = new Map<string, string>();
      for (const [p, t] of inProcessFiles ?? []) ours.set(p.replace(/^config\/crd\/bases\//, ""), t);
      for (const [p, t] of readTree(join(tsRoot, "config/crd/bases"))) ours.set(p, t);
      const same = [...theirs].filter(
        ([p, t]) => normalizeManifest(ours.get(p) ?? "") === normalizeManifest(t),
      );
      console.log(`identical CRDs: ${same.length}/${theirs.size} (kbts wrote ${ours.size})`);
    }
    const r = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    if (cg !== undefined && cli !== undefined) {
      console.log(
        `ratio kbts CLI cold / controller-gen: wall ${r(cli.wall, cg.wall)}, cpu ${r(cli.cpu, cg.cpu)}  (goal: <= 1.00)`,
      );
    }
    if (cg !== undefined && cached !== undefined) {
      console.log(
        `ratio kbts CLI cached / controller-gen: wall ${r(cached.wall, cg.wall)}, cpu ${r(cached.cpu, cg.cpu)}  (goal: <= 0.20)`,
      );
    }
    if (cg !== undefined && cliWithoutCerts !== undefined && cachedWithoutCerts !== undefined) {
      console.log(
        `  the same without NODE_EXTRA_CA_CERTS: cold wall ${r(cliWithoutCerts.wall, cg.wall)}, cpu ${r(cliWithoutCerts.cpu, cg.cpu)}; cached wall ${r(cachedWithoutCerts.wall, cg.wall)}, cpu ${r(cachedWithoutCerts.cpu, cg.cpu)}`,
      );
    }
    if (watched !== undefined) {
      const vsCg = cg !== undefined ? `; ${r(watched, cg.wall)} of controller-gen's wall` : "";
      console.log(
        `kbts --watch, edit to file written: median ${watched.toFixed(0)} ms  (goal: <= 300 ms${vsCg})`,
      );
    }
    if (cg !== undefined && inProcess !== undefined) {
      const r = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
      console.log(
        `ratio kbts in-process (warm) / controller-gen: wall ${r(inProcess.wall, cg.wall)}, cpu ${r(inProcess.cpu, cg.cpu)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
