/**
 * A Kubebuilder user's first hour, from the built CLI in a temporary directory: `kbts init`,
 * `kbts create api`, `npm install` (registry first, its own empty npm cache),
 * `make manifests`, `make test` against a local control plane, `make run` reconciling a sample,
 * `make build-installer` accepted by the API server, and RBAC that is exactly what the markers say.
 * The steps share one project and run in order; each names what a user would see fail.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processesMentioning } from "../runtime/src/internal/proc.js";
import { buildCheckout } from "./support/build.js";
import { eventually } from "./support/eventually.js";
import { freePort } from "./support/free-port.js";
import { runKbts } from "./support/kbts.js";
import { ASSETS, KUBECTL, runKubectl } from "./support/kubectl.js";
import { runMake } from "./support/make.js";
import { npmInstall } from "./support/npm.js";
import { serviceAccountKubeconfig } from "./support/service-account.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-scaffold-"));
const project = join(work, "memcached");
const processes: ChildProcess[] = [];
let env: Environment | undefined;

const kbts = (args: string[]) => runKbts(args, project);
const make = (target: string[], extra: Record<string, string> = {}) =>
  runMake(project, target, { KUBEBUILDER_ASSETS: ASSETS, KUBECTL, ...extra }, { ci: false });
const kubectl = (args: string[], input?: string) => runKubectl(env?.kubeconfigPath ?? "", args, input);

function snapshot(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, prefix: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === "node_modules") continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full, `${prefix}${e.name}/`);
      else out.set(`${prefix}${e.name}`, readFileSync(full, "utf8"));
    }
  };
  walk(project, "");
  return out;
}

interface Manager {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts a command in its own process group so SIGTERM reaches make and the manager alike. */
function startManager(command: string, args: string[], extraEnv: Record<string, string>): Manager {
  let output = "";
  const child = spawn(command, args, {
    cwd: project,
    detached: true,
    env: { ...process.env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  processes.push(child);
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Like eventually, with the tail of the manager's output in the error (what a user would look at). */
async function eventuallyWith<T>(
  m: Manager,
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
) {
  try {
    return await eventually(what, check, timeoutMs);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- manager output (tail) ---\n${m.output().slice(-3000)}`);
  }
}

function stop(m: Manager, signal: NodeJS.Signals = "SIGTERM"): void {
  if (m.child.pid !== undefined && m.child.exitCode === null) {
    try {
      process.kill(-m.child.pid, signal);
    } catch {
      // already gone
    }
  }
}

async function condition(name: string, type: string): Promise<string | undefined> {
  const out = await kubectl(["get", "memcached", name, "-n", "default", "-o", "json"]);
  if (out.exitCode !== 0) return undefined;
  const obj = JSON.parse(out.stdout) as { status?: { conditions?: { type: string; status: string }[] } };
  return obj.status?.conditions?.find((c) => c.type === type)?.status;
}

beforeAll(async () => {
  // The CLI under test is the built one; runtime/dist is what the scaffolded project links.
  await buildCheckout();
  mkdirSync(project, { recursive: true });
}, 300_000);

afterAll(async () => {
  for (const p of processes) {
    if (p.pid !== undefined && p.exitCode === null) {
      try {
        process.kill(-p.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  await env?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe.sequential("a scaffolded Memcached operator", () => {
  it("kbts init and kbts create api write the project; a second create api fails and changes nothing", async () => {
    const init = await kbts([
      "init",
      "--domain",
      "example.com",
      "--repo",
      "example.com/memcached",
      "--skip-install",
    ]);
    expect(init.exitCode, init.all).toBe(0);
    const api = await kbts([
      "create",
      "api",
      "--group",
      "cache",
      "--version",
      "v1alpha1",
      "--kind",
      "Memcached",
    ]);
    expect(api.exitCode, api.all).toBe(0);

    const before = snapshot();
    const again = await kbts([
      "create",
      "api",
      "--group",
      "cache",
      "--version",
      "v1alpha1",
      "--kind",
      "Memcached",
    ]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(
      /^error: PROJECT: API resource already exists: cache\/v1alpha1, Kind=Memcached/,
    );
    expect(snapshot()).toEqual(before);

    const bad = await kbts(["create", "api", "--group", "cache", "--version", "v1", "--kind", "memcached"]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('--kind: kind "memcached" must be PascalCase');
    expect(snapshot()).toEqual(before);
  });

  it("npm install works from the registry with an empty npm cache", async () => {
    const install = await npmInstall(project);
    expect(install.exitCode, install.all).toBe(0);
  });

  it("make manifests and make generate write the CRD, the RBAC role and the Kind descriptors", async () => {
    const manifests = await make(["manifests"]);
    expect(manifests.exitCode, manifests.all).toBe(0);
    const crd = readFileSync(join(project, "config/crd/bases/cache.example.com_memcacheds.yaml"), "utf8");
    expect(crd).toContain("kind: CustomResourceDefinition");
    const role = readFileSync(join(project, "config/rbac/role.yaml"), "utf8");
    expect(role).toContain("memcacheds/status");
    const generate = await make(["generate"]);
    expect(generate.exitCode, generate.all).toBe(0);
  });

  it("make test: the project's own tests pass against the local control plane", async () => {
    const test = await make(["test"]);
    expect(test.exitCode, test.all).toBe(0);
    // Every one of the scaffolded controller and its envtest suite runs and passes: a skipped or missing test fails here.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips vitest's colours
    expect(test.all.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/Tests\s+2 passed \(2\)/);
  });

  it("make run reconciles a sample, serves /metrics and /healthz, and stops cleanly on SIGTERM", async () => {
    env = await startEnvironment({
      crdDirectoryPaths: [join(project, "config/crd/bases")],
      errorIfPathMissing: true,
    });
    const metrics = await freePort();
    const health = await freePort();
    const mgr = startManager(
      "make",
      [
        "run",
        `ARGS=--metrics-bind-address=127.0.0.1:${metrics} --metrics-secure=false --health-probe-bind-address=127.0.0.1:${health}`,
      ],
      { KUBECONFIG: env.kubeconfigPath, KUBEBUILDER_ASSETS: ASSETS },
    );
    const applied = await kubectl([
      "apply",
      "-f",
      join(project, "config/samples/cache_v1alpha1_memcached.yaml"),
    ]);
    expect(applied.exitCode, applied.all).toBe(0);

    await eventuallyWith(
      mgr,
      "the Available condition",
      async () => ((await condition("memcached-sample", "Available")) === "True" ? true : undefined),
      120_000,
    );
    try {
      // Logs are written by a worker thread: wait for the line rather than expect it at once.
      await eventuallyWith(
        mgr,
        "the reconcile log line",
        async () => (mgr.output().includes("Reconciled Memcached") ? true : undefined),
        30_000,
      );

      const healthz = await fetch(`http://127.0.0.1:${health}/healthz`);
      expect(healthz.status).toBe(200);
      const body = await (await fetch(`http://127.0.0.1:${metrics}/metrics`)).text();
      expect(body).toMatch(/controller_runtime_reconcile_total\{[^}]*controller="memcached"[^}]*\} [1-9]/);
    } finally {
      // Never leave this admin-credentialed manager running into the RBAC step. SIGTERM goes to the
      // manager alone, as a user's kill or the kubelet sends it, so make run exits with the manager's
      // status (make itself, signalled too, would exit 2 whatever the manager did).
      const managers = processesMentioning(`--metrics-bind-address=127.0.0.1:${metrics}`).filter(
        (pid) => pid !== mgr.child.pid,
      );
      for (const pid of managers) process.kill(pid, "SIGTERM");
      if (managers.length === 0) stop(mgr);
    }
    const code = await Promise.race([mgr.exited, new Promise((r) => setTimeout(() => r("timeout"), 20_000))]);
    expect(code, mgr.output()).toBe(0);
    expect(mgr.output()).not.toContain("problem running manager");
  });

  it("make build-installer writes dist/install.yaml and the API server accepts it (server dry run)", async () => {
    const build = await make(["build-installer", "IMG=example.com/memcached:v0.0.1"]);
    expect(build.exitCode, build.all).toBe(0);
    const installer = readFileSync(join(project, "dist/install.yaml"), "utf8");
    expect(installer).toContain("image: example.com/memcached:v0.0.1");
    expect(installer).toContain("name: memcacheds.cache.example.com");
    // A server-side dry run does not create the namespace, so the namespaced objects need it first.
    const ns = await kubectl(["create", "namespace", "memcached-system"]);
    expect(ns.exitCode, ns.all).toBe(0);
    const dry = await kubectl(["apply", "--dry-run=server", "-f", join(project, "dist/install.yaml")]);
    expect(dry.exitCode, dry.all).toBe(0);
  });

  it("runs with only its generated roles, and fails with a permission error when a marker is removed", async () => {
    if (!env) throw new Error("the control plane of the previous step is not running");
    const install = await kubectl(["apply", "-f", join(project, "dist/install.yaml")]);
    expect(install.exitCode, install.all).toBe(0);

    const runAs = async (sample: string): Promise<Manager> => {
      const path = join(work, `sa-${sample}.kubeconfig`);
      await serviceAccountKubeconfig(
        KUBECTL,
        env?.kubeconfigPath ?? "",
        "memcached-system",
        "memcached-controller-manager",
        path,
      );
      const health = await freePort();
      const mgr = startManager(
        "node",
        ["dist/cmd/main.js", `--health-probe-bind-address=127.0.0.1:${health}`],
        {
          KUBECONFIG: path,
        },
      );
      const sampleYaml = readFileSync(join(project, "config/samples/cache_v1alpha1_memcached.yaml"), "utf8");
      const created = await kubectl(
        ["apply", "-f", "-"],
        sampleYaml.replace("name: memcached-sample", `name: ${sample}`),
      );
      expect(created.exitCode, created.all).toBe(0);
      return mgr;
    };

    const allowed = await runAs("rbac-allowed");
    try {
      await eventuallyWith(
        allowed,
        "reconcile as the service account",
        async () => ((await condition("rbac-allowed", "Available")) === "True" ? true : undefined),
        90_000,
      );
    } finally {
      stop(allowed);
      await allowed.exited;
    }

    // Drop the status permission from the markers: the regenerated role no longer grants it.
    const controller = join(project, "internal/controller/memcached_controller.ts");
    const source = readFileSync(controller, "utf8");
    writeFileSync(controller, source.replace(/^\/\/ \+kubebuilder:rbac:.*memcacheds\/status.*\n/m, ""));
    const rebuilt = await make(["build-installer", "IMG=example.com/memcached:v0.0.1"]);
    expect(rebuilt.exitCode, rebuilt.all).toBe(0);
    expect(readFileSync(join(project, "config/rbac/role.yaml"), "utf8")).not.toContain("memcacheds/status");
    const reapplied = await kubectl(["apply", "-f", join(project, "dist/install.yaml")]);
    expect(reapplied.exitCode, reapplied.all).toBe(0);
    const rebuild = await make(["build"]);
    expect(rebuild.exitCode, rebuild.all).toBe(0);

    const denied = await runAs("rbac-denied");
    try {
      await eventuallyWith(
        denied,
        "a permission error in the manager's logs",
        async () => (/forbidden/i.test(denied.output()) ? true : undefined),
        90_000,
      );
      expect(await condition("rbac-denied", "Available")).toBeUndefined();
    } finally {
      stop(denied);
      await denied.exited;
    }
    writeFileSync(controller, source);
  });
});
