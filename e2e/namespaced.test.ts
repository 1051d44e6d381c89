/**
 * A namespaced operator (`kbts init --namespaced`) with only its generated RBAC, on a real control
 * plane: installed from `make build-installer`, run as its service account with WATCH_NAMESPACE set,
 * it reconciles in its own namespace; pointed at another namespace, its Role gives it nothing there
 * and the permission error is logged while the process keeps running (no crash loop).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCreateApi, runInit } from "../src/commands/index.js";
import { eventually } from "./support/eventually.js";
import { installDependencies } from "./support/installs.js";
import { KUBECTL, runKubectl } from "./support/kubectl.js";
import { runMake } from "./support/make.js";
import { serviceAccountKubeconfig } from "./support/service-account.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-namespaced-"));
const project = join(work, "harbor");
const NS = "harbor-system";
const managers: ChildProcess[] = [];
let env: Environment | undefined;

const kubectl = (args: string[]) => runKubectl(env?.kubeconfigPath ?? "", args);

/** The built manager as the operator's service account, watching `watch`. */
function startManager(kubeconfig: string, watch: string) {
  let output = "";
  const child = spawn("node", ["dist/cmd/main.js", "--health-probe-bind-address=0", "--zap-devel=false"], {
    cwd: project,
    env: { ...process.env, KUBECONFIG: kubeconfig, WATCH_NAMESPACE: watch },
    stdio: ["ignore", "pipe", "pipe"],
  });
  managers.push(child);
  const append = (d: Buffer) => {
    output += d.toString();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  return { child, output: () => output };
}

beforeAll(async () => {
  mkdirSync(project, { recursive: true });
  await runInit(project, { domain: "example.com", repo: "example.com/harbor", namespaced: true });
  await runCreateApi(project, { group: "ship", version: "v1", kind: "Frigate" });
  const install = await installDependencies(project);
  if (install.exitCode !== 0) throw new Error(`npm install failed:\n${install.all}`);
  const make = await runMake(project, ["manifests"], {}, { ci: false });
  if (make.exitCode !== 0) throw new Error(`make manifests failed:\n${make.all}`);
  const build = await execa("npx", ["--no-install", "tsc", "-p", "tsconfig.build.json"], {
    cwd: project,
    reject: false,
    all: true,
  });
  if (build.exitCode !== 0) throw new Error(`the manager did not build:\n${build.all}`);
  env = await startEnvironment({});
  const installer = await runMake(
    project,
    ["build-installer", "IMG=example.com/harbor:v0.0.1"],
    { KUBECTL },
    { ci: false },
  );
  if (installer.exitCode !== 0) throw new Error(`make build-installer failed:\n${installer.all}`);
  for (const ns of [NS, "elsewhere"]) {
    const created = await kubectl(["create", "namespace", ns]);
    if (created.exitCode !== 0) throw new Error(`kubectl create namespace ${ns} failed:\n${created.all}`);
  }
  const applied = await kubectl(["apply", "-f", join(project, "dist/install.yaml")]);
  if (applied.exitCode !== 0) throw new Error(`kubectl apply of dist/install.yaml failed:\n${applied.all}`);
  await eventually(
    "the CRD to be established",
    async () => {
      const got = await kubectl([
        "get",
        "crd",
        "frigates.ship.example.com",
        "-o",
        'jsonpath={.status.conditions[?(@.type=="Established")].status}',
      ]);
      return got.stdout === "True" ? true : undefined;
    },
    60_000,
  );
}, 900_000);

afterAll(async () => {
  for (const m of managers) if (m.exitCode === null) m.kill("SIGKILL");
  await env?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("a namespaced operator with only its generated RBAC", () => {
  it("installs a Role and RoleBinding in its namespace, and no ClusterRole for the manager", async () => {
    const roles = await kubectl(["get", "role,rolebinding", "-n", NS, "-o", "name"]);
    expect(roles.stdout).toContain("role.rbac.authorization.k8s.io/harbor-manager-role");
    expect(roles.stdout).toContain("rolebinding.rbac.authorization.k8s.io/harbor-manager-rolebinding");
    const cluster = await kubectl(["get", "clusterrole", "harbor-manager-role"]);
    expect(cluster.exitCode).not.toBe(0);
  });

  it("reconciles in its own namespace", async () => {
    const kubeconfig = join(work, "sa.kubeconfig");
    await serviceAccountKubeconfig(
      KUBECTL,
      env?.kubeconfigPath ?? "",
      NS,
      "harbor-controller-manager",
      kubeconfig,
    );
    const m = startManager(kubeconfig, NS);
    // The scaffolded sample names the default namespace; this operator's is harbor-system.
    const samplePath = join(work, "frigate.yaml");
    const text = readFileSync(join(project, "config/samples/ship_v1_frigate.yaml"), "utf8");
    writeFileSync(samplePath, text.replace(/namespace: default/, `namespace: ${NS}`));
    const sample = await kubectl(["apply", "-f", samplePath]);
    expect(sample.exitCode, sample.all).toBe(0);
    await eventually(
      "the sample to be Available",
      async () => {
        if (m.child.exitCode !== null) throw new Error(`the manager exited:\n${m.output()}`);
        const got = await kubectl([
          "get",
          "frigates",
          "-n",
          NS,
          "-o",
          "jsonpath={.items[0].status.conditions}",
        ]);
        return got.stdout.includes('"type":"Available"') ? true : undefined;
      },
      120_000,
    );
    expect(m.output()).not.toMatch(/forbidden/i);
    m.child.kill("SIGTERM");
  }, 300_000);

  it("outside its namespace, logs the permission error and keeps running", async () => {
    const kubeconfig = join(work, "sa.kubeconfig");
    const m = startManager(kubeconfig, "elsewhere");
    const line = await eventually(
      "a permission error in the log",
      async () => {
        if (m.child.exitCode !== null)
          throw new Error(`the manager exited (${m.child.exitCode}):\n${m.output()}`);
        return m.output().match(/.*forbidden.*/i)?.[0];
      },
      120_000,
    );
    expect(line).toMatch(/elsewhere/);
    // The list is retried (a second error line) by the same process: no exit, no crash loop.
    await eventually(
      "the refused list to be retried",
      async () => {
        if (m.child.exitCode !== null)
          throw new Error(`the manager exited (${m.child.exitCode}):\n${m.output()}`);
        return (m.output().match(/forbidden/gi)?.length ?? 0) >= 2 ? true : undefined;
      },
      120_000,
    );
    expect(m.child.exitCode).toBeNull();
    m.child.kill("SIGTERM");
  }, 300_000);
});

describe("kubectl's cache", () => {
  it("is the test run's (KUBECACHEDIR): the control plane's port leaves no folder in ~/.kube/cache", async () => {
    // kubectl names a server's discovery cache folder by its host and port: 127.0.0.1_43121.
    const folder = new URL(env?.apiServerURL ?? "").host.replace(":", "_");
    // An earlier run, before KUBECACHEDIR, may have left a folder for the same port: it must stay as it was.
    const inHome = join(homedir(), ".kube/cache/discovery", folder, "servergroups.json");
    const written = () => (existsSync(inHome) ? statSync(inHome).mtimeMs : undefined);
    const before = written();
    expect((await kubectl(["get", "namespaces"])).exitCode).toBe(0);
    expect(process.env.KUBECACHEDIR?.startsWith(tmpdir())).toBe(true);
    expect(existsSync(join(process.env.KUBECACHEDIR ?? "", "discovery", folder, "servergroups.json"))).toBe(
      true,
    );
    expect(written()).toBe(before);
  });
});
