/**
 * testdata/project-memcached, Kubebuilder's deploy-image Memcached operator on dependent resources
 * (issue 31), passes its own `make test` and runs on envtest's cluster mode (the scheduler, the
 * controller manager and kwok's simulated nodes). The golden project is what `kbts init` and `create
 * api --plugins deploy-image/v1-alpha` write with Kubebuilder's example flags and no hand edits; it is
 * installed with the runtime linked to this checkout, built, and its manager run against the cluster
 * with the image config/manager sets. The controller is one Deployment dependent
 * (DependentsReconciler): the sample's Deployment runs its pods on the kwok nodes, the custom resource
 * reports Ready from the workflow's conditions, with an Applied event, its size drives the replicas (a
 * hand-made scale is taken back, another manager's label kept: server-side apply), and deleting it runs
 * the scaffolded `finalize` (a Deleting event, as Kubebuilder's tutorial records) before its finalizer
 * goes. The Deployment needs no finalizer: it names the custom resource as its controlling owner, so
 * garbage collection removes it. That collection is not waited for: envtest installs CRDs after the
 * controller manager starts, and the garbage collector picks up new kinds every 30 s only.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { eventually } from "./support/eventually.js";
import { installGoldenProject } from "./support/golden-project.js";
import { runMake } from "./support/make.js";
import { type ControlPlane, type Operator, startControlPlane, startOperator } from "./support/operator.js";
import { run } from "./support/run.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-deployimage-"));
const project = join(work, "memcached");
const NODES = ["kwok-0", "kwok-1"];
const IMAGE = "memcached:1.6.26-alpine3.19";
const SAMPLE = "config/samples/example.com_v1alpha1_memcached.yaml";
let cp: ControlPlane;
let op: Operator;

const kubectl = (args: string[]) => cp.kubectl(args);
const getJSON = async <T>(args: string[]): Promise<T> =>
  JSON.parse((await kubectl(["get", ...args, "-o", "json"])).stdout) as T;

interface PodView {
  metadata: { name: string; deletionTimestamp?: string };
  spec: {
    nodeName?: string;
    containers: {
      image: string;
      command?: string[];
      ports?: { containerPort: number }[];
      securityContext?: { runAsUser?: number; runAsNonRoot?: boolean };
    }[];
  };
  status: { phase?: string };
}

interface MemcachedView {
  metadata: { uid: string; finalizers?: string[] };
  status?: { conditions?: { type: string; status: string; reason: string }[] };
}

const pods = async () =>
  (
    await getJSON<{ items: PodView[] }>([
      "pods",
      "-n",
      "default",
      "-l",
      "app.kubernetes.io/managed-by=MemcachedController",
    ])
  ).items;
const memcachedEvents = async () =>
  (
    await getJSON<{ items: { type: string; reason: string; message: string }[] }>([
      ...["events", "-n", "default", "--field-selector", "involvedObject.kind=Memcached"],
    ])
  ).items;
/** The event the controller records when it applies the Deployment. */
const APPLIED = expect.objectContaining({ type: "Normal", reason: "Applied", message: "Deployment applied" });
const running = async () =>
  (await pods()).filter((p) => p.status.phase === "Running" && !p.metadata.deletionTimestamp);

/** The MEMCACHED_IMAGE config/manager/manager.yaml gives the manager container. */
function managerImageEnv(): string | undefined {
  const deployment = parseAllDocuments(readFileSync(join(project, "config/manager/manager.yaml"), "utf8"))
    .map((d) => d.toJS())
    .find((d) => d?.kind === "Deployment");
  const env: { name: string; value?: string }[] = deployment?.spec.template.spec.containers[0].env ?? [];
  return env.find((e) => e.name === "MEMCACHED_IMAGE")?.value;
}

beforeAll(async () => {
  const install = await installGoldenProject("project-memcached", project);
  expect(install.exitCode, install.all).toBe(0);
  const build = await run("npm", ["run", "build"], { cwd: project, reject: false });
  expect(build.exitCode, build.all).toBe(0);
  cp = await startControlPlane(project, { cluster: { nodes: NODES.map((name) => ({ name })) } });
  const image = managerImageEnv();
  expect(image).toBe(IMAGE);
  op = await startOperator(project, cp, {
    name: "memcached",
    logDir: join(work, "logs"),
    env: { MEMCACHED_IMAGE: image ?? "" },
  });
});

afterAll(async () => {
  await op?.kill().catch(() => undefined);
  await cp?.stop();
  if (process.env.KEEP_E2E !== "true") rmSync(work, { recursive: true, force: true });
});

describe.sequential("testdata/project-memcached on a cluster that schedules", () => {
  it("passes its own make test: the controller's workflow on a local control plane", async () => {
    const test = await runMake(project, "test");
    expect(test.exitCode, test.all).toBe(0);
    expect(test.all).toMatch(/memcached_controller\.test\.ts \(4 tests\)/);
  });

  it("deploys the sample's image: its pods run on the kwok nodes as the flags said, and it is Ready", async () => {
    await kubectl(["apply", "-f", join(project, SAMPLE)]);
    const [pod] = await eventually(async () => {
      const now = await running();
      expect(now).toHaveLength(1);
      return now;
    }, 60_000);
    expect(NODES).toContain(pod?.spec.nodeName);
    expect(pod?.spec.containers).toEqual([
      expect.objectContaining({
        image: IMAGE,
        command: ["memcached", "--memory-limit=64", "-o", "modern", "-v"],
        ports: [expect.objectContaining({ containerPort: 11211 })],
        securityContext: expect.objectContaining({ runAsUser: 1001, runAsNonRoot: true }),
      }),
    ]);
    const deployment = await getJSON<{
      metadata: { ownerReferences?: { kind: string; name: string; uid: string; controller?: boolean }[] };
    }>(["deployment", "memcached-sample", "-n", "default"]);
    const memcached = await eventually(async () => {
      const m = await getJSON<MemcachedView>(["memcached", "memcached-sample", "-n", "default"]);
      const condition = (type: string) => m.status?.conditions?.find((c) => c.type === type);
      expect(condition("Ready")).toMatchObject({ status: "True", reason: "DependentsReady" });
      expect(condition("Progressing")).toMatchObject({ status: "False" });
      expect(condition("Degraded")).toMatchObject({ status: "False" });
      return m;
    });
    // The scaffolded finalize() puts DependentsReconciler's finalizer on it.
    expect(memcached.metadata.finalizers).toEqual(["dependents.kbts.io/memcached"]);
    await eventually(async () => expect(await memcachedEvents()).toContainEqual(APPLIED));
    expect(deployment.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        kind: "Memcached",
        name: "memcached-sample",
        uid: memcached.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      }),
    ]);
  });

  it("follows spec.size: two Running pods after a patch", async () => {
    await kubectl([
      "patch",
      "memcached",
      "memcached-sample",
      "-n",
      "default",
      "--type=merge",
      "-p",
      '{"spec":{"size":2}}',
    ]);
    await eventually(async () => {
      const now = await running();
      expect(now).toHaveLength(2);
      for (const p of now) expect(NODES).toContain(p.spec.nodeName);
    }, 60_000);
  });

  it("takes back the replicas someone scaled by hand, and keeps the label someone else added", async () => {
    const at = ["deployment", "memcached-sample", "-n", "default"];
    await kubectl(["label", ...at, "team=cache"]);
    await kubectl(["scale", ...at, "--replicas=5"]);
    await eventually(async () => {
      const d = await getJSON<{ metadata: { labels?: Record<string, string> }; spec: { replicas: number } }>(
        at,
      );
      expect(d.spec.replicas).toBe(2);
      expect(d.metadata.labels).toMatchObject({ team: "cache" });
    }, 30_000);
  });

  it("deleting it runs finalize (a Deleting event), then the custom resource is gone", async () => {
    await kubectl(["delete", "memcached", "memcached-sample", "-n", "default", "--timeout=60s"]);
    // kubectl delete waits for the object to go, hence for the controller to drop its finalizer.
    const gone = await cp.kubectl(["get", "memcached", "memcached-sample", "-n", "default"], {
      reject: false,
    });
    expect(gone.all).toContain("NotFound");
    await eventually(async () =>
      expect(await memcachedEvents()).toContainEqual(
        expect.objectContaining({
          type: "Warning",
          reason: "Deleting",
          message: "Custom Resource is being deleted",
        }),
      ),
    );
  });
});
