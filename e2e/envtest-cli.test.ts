/**
 * `kbts envtest start` as a user runs it: kubectl works against it (namespaces, a CR of a CRD from --crds,
 * printer columns), SIGTERM stops everything and removes its temp dirs, and bad input (busy port, missing
 * CRD dir) gives one clear error with nothing left running. Each run gets its own TMPDIR, so its temp dirs
 * and processes can be told apart from anything else on the machine.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const KBTS = join(REPO, "bin", "kbts.js");
const CRDS = join(REPO, "runtime", "src", "envtest", "testdata", "crds");
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-envtest-"));
let assets = process.env.KUBEBUILDER_ASSETS ?? "";
const started: ChildProcess[] = [];

/** Live (non-zombie) processes whose command line mentions text. */
function processesMentioning(text: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").replace(/^.*\) /, "")[0];
      if (cmdline.includes(text) && state !== "Z") out.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** Starts `kbts envtest start` with its own TMPDIR; resolves once it printed the export line. */
async function startCLI(args: string[]): Promise<{ child: ChildProcess; tmp: string; stdout: () => string }> {
  const tmp = mkdtempSync(join(work, "tmp-"));
  const child = spawn("node", [KBTS, "envtest", "start", ...args], {
    env: { ...process.env, TMPDIR: tmp, KUBEBUILDER_ASSETS: assets },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`envtest start printed no export line in 60s:\n${out}\n${err}`)),
      60_000,
    );
    child.stdout?.on("data", () => {
      if (out.includes("export KUBECONFIG=")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`envtest start exited with ${code}:\n${out}\n${err}`));
    });
  });
  return { child, tmp, stdout: () => out };
}

function runCLI(args: string[]) {
  const tmp = mkdtempSync(join(work, "tmp-"));
  return execa("node", [KBTS, "envtest", "start", ...args], {
    env: { TMPDIR: tmp, KUBEBUILDER_ASSETS: assets },
    reject: false,
    timeout: 60_000,
  }).then((r) => ({ ...r, tmp }));
}

beforeAll(async () => {
  // Type errors elsewhere in the tree still emit JavaScript; the CLI runs below show whether it works.
  await execa("npx", ["tsc", "-b"], { cwd: REPO, reject: false });
  if (!assets) {
    const r = await execa("node", [KBTS, "setup-envtest", "use", "-p", "path"], { cwd: REPO });
    assets = r.stdout;
  }
});

afterAll(() => {
  for (const c of started) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

describe("kbts envtest start", () => {
  it("serves kubectl (namespaces, CRs with printer columns) and cleans up completely on SIGTERM", async () => {
    const kubeconfig = join(work, "kubeconfig");
    const { child, tmp, stdout } = await startCLI(["--kubeconfig", kubeconfig, "--crds", CRDS]);
    expect(stdout()).toContain(`export KUBECONFIG=${kubeconfig}`);
    expect(stdout()).toMatch(
      /Kubernetes v\d+\.\d+\.\d+ control plane is running at https:\/\/127\.0\.0\.1:\d+/,
    );

    const kubectl = (args: string[]) =>
      execa(join(assets, "kubectl"), args, { env: { KUBECONFIG: kubeconfig }, reject: false, all: true });
    const ns = await kubectl(["get", "ns", "default", "-o", "name"]);
    expect(ns.all).toBe("namespace/default");

    const cr = join(work, "widget.yaml");
    writeFileSync(
      cr,
      "apiVersion: test.kbts.io/v1\nkind: Widget\nmetadata:\n  name: w1\n  namespace: default\nspec:\n  minReplicas: 1\n  maxReplicas: 3\n",
    );
    expect((await kubectl(["apply", "-f", cr])).all).toBe("widget.test.kbts.io/w1 created");
    const list = await kubectl(["get", "widgets"]);
    const [header, row] = (list.all ?? "").split("\n");
    expect(header?.split(/\s+/)).toEqual(["NAME", "MIN", "MAX", "PHASE"]);
    expect(row?.split(/\s+/).slice(0, 3)).toEqual(["w1", "1", "3"]);

    // Its etcd and kube-apiserver keep their data and certs under its TMPDIR.
    const pids = processesMentioning(tmp);
    expect(pids.length).toBe(2);
    expect(readdirSync(tmp).filter((d) => d.startsWith("k8s_test_framework_"))).toHaveLength(2);

    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const t = Date.now();
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(Date.now() - t).toBeLessThan(10_000); // stops promptly: nothing lingers after cleanup
    expect(processesMentioning(tmp)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("exits 1 naming the dead process when kube-apiserver crashes, and cleans up the rest", async () => {
    const { child, tmp } = await startCLI([]);
    let stderr = "";
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const apiserver = processesMentioning(tmp).find((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("kube-apiserver"),
    );
    expect(apiserver).toBeDefined();
    process.kill(apiserver ?? 0, "SIGKILL");
    const t = Date.now();
    expect(await exited).toBe(1);
    expect(Date.now() - t).toBeLessThan(10_000);
    expect(stderr).toContain(
      "error: the control plane stopped unexpectedly: kube-apiserver exited with signal SIGKILL",
    );
    expect(processesMentioning(tmp)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("refuses a busy --port in one line and starts nothing", async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const r = await runCLI(["--port", String(port), "--crds", CRDS]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr.split("\n")[0]).toBe(`error: --port: port ${port} on 127.0.0.1 is already in use`);
      expect(r.stdout).toBe("");
      expect(processesMentioning(r.tmp)).toEqual([]);
      expect(readdirSync(r.tmp)).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("names a missing --crds directory in one line and starts nothing", async () => {
    const missing = join(work, "no-such-crds");
    const r = await runCLI(["--crds", missing]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(`error: --crds: CRD path ${missing} does not exist`);
    expect(processesMentioning(r.tmp)).toEqual([]);
    expect(readdirSync(r.tmp)).toEqual([]);
  });
});
