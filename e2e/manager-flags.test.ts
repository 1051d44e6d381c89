/**
 * The scaffolded manager takes Kubebuilder's manager flags with their meanings: the zap flags mapped
 * onto pino (each one run on the built manager, against a real control plane), a bad value stopping
 * it with one line naming the flag and what it accepts (exit 2, as Go's flag package), a webhook's
 * logger (made when its module loads) following them, and --enable-http2 turning on HTTP/2 for the
 * metrics and webhook servers (off by default).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:http2";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCheckout } from "./support/build.js";
import { freePort } from "./support/free-port.js";
import { installDependencies } from "./support/installs.js";
import { KBTS } from "./support/paths.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-flags-"));
const project = join(work, "flags");
const processes: ChildProcess[] = [];
let env: Environment | undefined;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built manager with `args` until its health probe answers (then `whileUp`, then SIGTERM), or
 * until it exits on its own. Either way the result is its exit code and output. The project's Pod
 * webhook is registered only with `webhooks` (otherwise ENABLE_WEBHOOKS=false).
 */
async function runManager(
  args: string[],
  whileUp?: (ports: { metrics: number; webhook: number }) => Promise<void>,
  options: { webhooks?: boolean } = {},
): Promise<Run> {
  const probe = await freePort();
  const metrics = await freePort();
  const webhook = await freePort();
  const child = spawn(
    "node",
    [
      "dist/cmd/main.js",
      `--health-probe-bind-address=127.0.0.1:${probe}`,
      `--metrics-bind-address=127.0.0.1:${metrics}`,
      `--webhook-port=${webhook}`,
      ...args,
    ],
    {
      cwd: project,
      env: {
        ...process.env,
        KUBECONFIG: env?.kubeconfigPath ?? "",
        ENABLE_WEBHOOKS: options.webhooks ? "true" : "false",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  processes.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  let up = false;
  while (!up && child.exitCode === null && Date.now() < deadline) {
    up = await fetch(`http://127.0.0.1:${probe}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) await new Promise((r) => setTimeout(r, 200));
  }
  if (up) {
    try {
      await whileUp?.({ metrics, webhook });
    } finally {
      child.kill("SIGTERM");
    }
  } else if (child.exitCode === null) {
    child.kill("SIGKILL");
    throw new Error(`the manager did not become ready in 60 s:\n${stdout}\n${stderr}`);
  }
  return { code: await exited, stdout, stderr };
}

const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");
const json = (text: string) => lines(text).map((l) => JSON.parse(l) as Record<string, unknown>);

/** One HTTP/2 request; rejects when the server does not speak h2. */
function h2Get(port: number, path: string): Promise<{ status: number; protocol: string | undefined }> {
  return new Promise((resolve, reject) => {
    const session = connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    session.on("error", reject);
    const stream = session.request({ ":path": path });
    stream.on("response", (h) => {
      const protocol = session.alpnProtocol;
      session.close();
      resolve({ status: Number(h[":status"]), protocol });
    });
    stream.on("error", reject);
    stream.end();
  });
}

/** One HTTPS request over HTTP/1.1 (node:https); resolves to the HTTP status. */
function h1Get(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

/** What an HTTP/2 client gets from a TLS server whose ALPN offers no h2: the handshake's alert. */
const NO_H2 = /no application protocol/;

/** Sends the Pod defaulting webhook an AdmissionReview, retrying until its server listens; resolves to the HTTP status. */
async function admitPod(port: number): Promise<number> {
  const review = JSON.stringify({
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: "e2e-1",
      kind: { group: "", version: "v1", kind: "Pod" },
      resource: { group: "", version: "v1", resource: "pods" },
      namespace: "default",
      operation: "CREATE",
      object: { apiVersion: "v1", kind: "Pod", metadata: { name: "logged", namespace: "default" } },
    },
  });
  const post = () =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/mutate--v1-pod",
          method: "POST",
          rejectUnauthorized: false,
          agent: false,
          headers: { "content-type": "application/json" },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.end(review);
    });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await post();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

beforeAll(async () => {
  await buildCheckout();
  mkdirSync(project, { recursive: true });
  const init = await execa(
    "node",
    [KBTS, "init", "--domain", "example.com", "--repo", "example.com/flags", "--skip-install"],
    { cwd: project, reject: false, all: true },
  );
  if (init.exitCode !== 0) throw new Error(`kbts init failed:\n${init.all}`);
  // A defaulting webhook for Pods, whose logger is made when its module loads, before the flags are parsed.
  for (const args of [
    ["create", "webhook", "--group", "core", "--version", "v1", "--kind", "Pod", "--defaulting"],
    ["manifests"],
  ]) {
    const run = await execa("node", [KBTS, ...args], { cwd: project, reject: false, all: true });
    if (run.exitCode !== 0) throw new Error(`kbts ${args.join(" ")} failed:\n${run.all}`);
  }
  const install = await installDependencies(project);
  if (install.exitCode !== 0) throw new Error(`npm install failed:\n${install.all}`);
  const build = await execa("npx", ["--no-install", "tsc", "-p", "tsconfig.build.json"], {
    cwd: project,
    reject: false,
    all: true,
  });
  if (build.exitCode !== 0) throw new Error(`the manager did not build:\n${build.all}`);
  env = await startEnvironment();
}, 600_000);

afterAll(async () => {
  for (const p of processes) if (p.exitCode === null) p.kill("SIGKILL");
  await env?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("the scaffolded manager's zap flags", () => {
  it("logs zap's console lines by default (--zap-devel is on in the scaffold, as Kubebuilder's)", async () => {
    const run = await runManager([]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z\tINFO\tsetup\tstarting manager$/m);
  });

  it("--zap-devel=false writes JSON lines at info", async () => {
    const run = await runManager(["--zap-devel=false"]);
    expect(run.code, run.stderr).toBe(0);
    const entries = json(run.stdout);
    expect(entries).toContainEqual(
      expect.objectContaining({ level: "info", logger: "setup", msg: "starting manager" }),
    );
    expect(entries.filter((e) => e.level === "debug")).toEqual([]);
  });

  it("--zap-encoder=json keeps development's debug level in JSON", async () => {
    const run = await runManager(["--zap-encoder=json"]);
    expect(run.code, run.stderr).toBe(0);
    const entries = json(run.stdout);
    expect(entries).toContainEqual(expect.objectContaining({ msg: "starting manager" }));
  });

  it("--zap-log-level=error silences info; --zap-log-level=debug and an integer verbosity keep it", async () => {
    const quiet = await runManager(["--zap-devel=false", "--zap-log-level=error"]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).not.toContain("starting manager");
    const panic = await runManager(["--zap-devel=false", "--zap-log-level=panic"]);
    expect(panic.code, panic.stderr).toBe(0);
    expect(panic.stdout).toBe("");
    const verbose = await runManager(["--zap-devel=false", "--zap-log-level=2"]);
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(json(verbose.stdout)).toContainEqual(expect.objectContaining({ msg: "starting manager" }));
  });

  it("--zap-stacktrace-level=info puts the caller's stack on info lines", async () => {
    const run = await runManager(["--zap-devel=false", "--zap-stacktrace-level=info"]);
    expect(run.code, run.stderr).toBe(0);
    const start = json(run.stdout).find((e) => e.msg === "starting manager");
    expect(String(start?.stacktrace)).toMatch(/main\.js/);
  });

  it("--zap-time-encoding=epoch writes seconds since the epoch; rfc3339 a second-precision date", async () => {
    const epoch = await runManager(["--zap-devel=false", "--zap-time-encoding=epoch"]);
    expect(epoch.code, epoch.stderr).toBe(0);
    const t = json(epoch.stdout)[0]?.time;
    expect(typeof t).toBe("number");
    expect(Math.abs((t as number) - Date.now() / 1000)).toBeLessThan(120);
    const rfc = await runManager(["--zap-devel=false", "--zap-time-encoding=rfc3339"]);
    expect(String(json(rfc.stdout)[0]?.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it.each([
    [
      "--zap-log-level=verbose",
      /^invalid value "verbose" for flag --zap-log-level: use one of debug, info, error, panic/,
    ],
    ["--zap-encoder=text", /^invalid value "text" for flag --zap-encoder: use one of json, console$/m],
    [
      "--zap-stacktrace-level=warn",
      /^invalid value "warn" for flag --zap-stacktrace-level: use one of info, error, panic$/m,
    ],
    [
      "--zap-time-encoding=unix",
      /^invalid value "unix" for flag --zap-time-encoding: use one of epoch, millis, nano, iso8601, rfc3339, rfc3339nano$/m,
    ],
    ["--bogus-flag", /^Unknown option '--bogus-flag'/],
  ])("%s stops the manager with one line naming the flag (exit 2)", async (flag, message) => {
    const run = await runManager([flag]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stdout).toBe("");
  });
});

describe("a scaffolded webhook's logger", () => {
  it("follows the zap flags: zap's console line by default, nothing below --zap-log-level", async () => {
    const devel = await runManager(
      [],
      async ({ webhook }) => {
        expect(await admitPod(webhook)).toBe(200);
      },
      { webhooks: true },
    );
    expect(devel.code, devel.stderr).toBe(0);
    expect(devel.stdout).toMatch(/^\S+\tINFO\tpod-resource\tDefaulting for Pod\t\{"name": "logged"\}$/m);
    const quiet = await runManager(
      ["--zap-devel=false", "--zap-log-level=error"],
      async ({ webhook }) => {
        expect(await admitPod(webhook)).toBe(200);
      },
      { webhooks: true },
    );
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).not.toContain("Defaulting for Pod");
  });
});

describe("the scaffolded manager's --enable-http2", () => {
  it("is off by default: the metrics server refuses an HTTP/2 client", async () => {
    const run = await runManager(["--zap-devel=false"], async ({ metrics }) => {
      // The same endpoint answers HTTP/1.1 (its authorization filter), so the refusal is HTTP/2's alone.
      expect(await h1Get(metrics, "/metrics")).toBe(401);
      await expect(h2Get(metrics, "/metrics")).rejects.toThrow(NO_H2);
    });
    expect(run.code, run.stderr).toBe(0);
  });

  it("--enable-http2 serves the metrics endpoint over h2 (its authorization filter answers)", async () => {
    const run = await runManager(["--zap-devel=false", "--enable-http2"], async ({ metrics }) => {
      const answer = await h2Get(metrics, "/metrics");
      expect(answer).toEqual({ status: 401, protocol: "h2" });
    });
    expect(run.code, run.stderr).toBe(0);
    expect(json(run.stdout)).toContainEqual(
      expect.objectContaining({ msg: "serving metrics server", protocols: ["h2", "http/1.1"] }),
    );
  });

  it("is off by default for the webhook server too; --enable-http2 serves it over h2 and HTTP/1.1", async () => {
    const off = await runManager(
      ["--zap-devel=false"],
      async ({ webhook }) => {
        expect(await admitPod(webhook)).toBe(200);
        await expect(h2Get(webhook, "/mutate--v1-pod")).rejects.toThrow(NO_H2);
      },
      { webhooks: true },
    );
    expect(off.code, off.stderr).toBe(0);
    const on = await runManager(
      ["--zap-devel=false", "--enable-http2"],
      async ({ webhook }) => {
        expect(await admitPod(webhook)).toBe(200);
        expect((await h2Get(webhook, "/mutate--v1-pod")).protocol).toBe("h2");
      },
      { webhooks: true },
    );
    expect(on.code, on.stderr).toBe(0);
  });
});
