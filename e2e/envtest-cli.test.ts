/**
 * `kbts envtest start` as a user runs it: kubectl works against it (namespaces, a CR of a CRD from --crds,
 * printer columns), SIGTERM and SIGHUP stop everything as Ctrl-C does and remove its temp dirs, a SIGKILL
 * leaves no process and no temp dir either (the children are tethered to it), and bad input (busy port, missing
 * CRD dir) gives one clear error with nothing left running. Each run gets its own TMPDIR, so its temp dirs
 * and processes can be told apart from anything else on the machine.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cmdlineOf, processesMentioning } from "../runtime/src/internal/proc.js";
import { buildCheckout } from "./support/build.js";
import {
  descendantsOf,
  runEnvtestCLI,
  startAndStop,
  startEnvtestCLI,
  stillRunning,
  stopWith,
} from "./support/envtest-cli.js";
import { eventually } from "./support/eventually.js";
import { KBTS, REPO } from "./support/paths.js";

const CRDS = join(REPO, "runtime", "src", "envtest", "testdata", "crds");
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-envtest-"));
let assets = process.env.KUBEBUILDER_ASSETS ?? "";
const started: ChildProcess[] = [];

const startCLI = (args: string[]) => startEnvtestCLI(args, { work, assets, started });
const runCLI = (args: string[]) => runEnvtestCLI(args, { work, assets });

beforeAll(async () => {
  // Type errors elsewhere in the tree still emit JavaScript; the CLI runs below show whether it works.
  await buildCheckout();
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

  it("stops on SIGTERM (5 times) and SIGHUP as on Ctrl-C: exit 0 within 5 s, nothing left", async () => {
    for (const signal of [...Array<NodeJS.Signals>(5).fill("SIGTERM"), "SIGHUP"] as const) {
      const r = await startAndStop([], { work, assets, started }, signal);
      // etcd and kube-apiserver, each with the watchdog that ends it if this CLI dies.
      expect(r.programs, signal).toEqual(["etcd", "kube-apiserver", "sh", "sh"]);
      expect({ code: r.exit.code, signal: r.exit.signal }, `${signal}: ${r.stderr}`).toEqual({
        code: 0,
        signal: null,
      });
      expect(r.exit.ms, signal).toBeLessThan(5_000);
      expect(r.stderr).toContain(`envtest: ${signal}: stopping kube-apiserver and etcd`);
      expect(r.stderr).toContain("envtest: stopped; temp dirs removed");
      expect(r.stderr).not.toContain("error");
      expect(r.left, signal).toEqual([]);
      expect(r.leftDirs, signal).toEqual([]);
    }
  });

  it("leaves no process and no temp dir within 5 s when it is SIGKILLed", async () => {
    const r = await startAndStop([], { work, assets, started }, "SIGKILL", 5_000);
    expect(r.exit.signal).toBe("SIGKILL");
    expect(r.left).toEqual([]);
    expect(r.leftDirs).toEqual([]);
    expect(r.programs).toEqual(["etcd", "kube-apiserver", "sh", "sh"]);
  });

  it("stops on SIGTERM while still starting: exits 143 and leaves no process and no temp dir", async () => {
    const tmp = mkdtempSync(join(work, "tmp-"));
    const child = spawn("node", [KBTS, "envtest", "start"], {
      env: { ...process.env, TMPDIR: tmp, KUBEBUILDER_ASSETS: assets },
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(child);
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    // Its first temp dir exists: the control plane is on its way up, proper-lockfile long loaded.
    await eventually("a temp dir of its control plane", async () => readdirSync(tmp)[0], 60_000, 20);
    const plane = descendantsOf(child.pid ?? 0);
    const exit = await stopWith(child, "SIGTERM");
    expect({ code: exit.code, signal: exit.signal }, stderr).toEqual({ code: 143, signal: null });
    expect(exit.ms).toBeLessThan(5_000);
    expect(stderr).toContain("envtest: SIGTERM while starting: stopped");
    expect(stillRunning(plane)).toEqual([]);
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
    const apiserver = processesMentioning(tmp).find((pid) => cmdlineOf(pid).includes("kube-apiserver"));
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

  it("exits 1 naming etcd within 10 s when etcd crashes: kube-apiserver is not left waiting for it", async () => {
    const { child, tmp, stderr } = await startCLI([]);
    const plane = descendantsOf(child.pid ?? 0);
    const etcd = processesMentioning(tmp).find((pid) => cmdlineOf(pid).split("\0")[0]?.endsWith("/etcd"));
    expect(etcd).toBeDefined();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const t = Date.now();
    process.kill(etcd ?? 0, "SIGKILL");
    expect(await exited).toBe(1);
    // kube-apiserver's graceful shutdown waits on etcd: it used to take the whole 20 s stop timeout.
    expect(Date.now() - t).toBeLessThan(10_000);
    expect(stderr()).toContain(
      "error: the control plane stopped unexpectedly: etcd exited with signal SIGKILL",
    );
    expect(stillRunning(plane)).toEqual([]);
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
