/**
 * `kbts envtest start` as a user runs it: kubectl works against it (namespaces, a CR of a CRD from --crds,
 * printer columns), SIGTERM stops everything and removes its temp dirs, and bad input (busy port, missing
 * CRD dir) gives one clear error with nothing left running. Each run gets its own TMPDIR, so its temp dirs
 * and processes can be told apart from anything else on the machine.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KBTS, processesMentioning, REPO, runEnvtestCLI, startEnvtestCLI } from "./support/envtest-cli.js";

const CRDS = join(REPO, "runtime", "src", "envtest", "testdata", "crds");
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-envtest-"));
let assets = process.env.KUBEBUILDER_ASSETS ?? "";
const started: ChildProcess[] = [];

const startCLI = (args: string[]) => startEnvtestCLI(args, { work, assets, started });
const runCLI = (args: string[]) => runEnvtestCLI(args, { work, assets });

beforeAll(async () => {
  // Type errors elsewhere in the tree still emit JavaScript; the CLI runs below show whether it works.
  await execa("npx", ["tsc", "-b"], { cwd: REPO });
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
