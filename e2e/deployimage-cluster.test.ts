/**
 * A deploy-image/v1-alpha operator on envtest's cluster mode (the scheduler, the controller manager and
 * kwok's simulated nodes): the project is scaffolded by the built CLI with Kubebuilder's example flags
 * and no hand edits, built, and its manager run against the cluster with the image config/manager sets.
 * The controller is one Deployment dependent (dependentsController): the sample's Deployment runs its
 * pods on the kwok nodes, the custom resource reports Ready from the workflow's conditions, with an
 * Applied event, its size drives the replicas (a hand-made scale is taken back, another manager's
 * label kept: server-side apply), and it is deleted at once (no finalizer: the Deployment
 * names it as its controlling owner, so garbage collection removes it). That collection is not waited
 * for: envtest installs CRDs after the controller manager starts, and the garbage collector picks up
 * new kinds every 30 s only.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { eventually } from "./support/eventually.js";
import {
  buildProject,
  type ControlPlane,
  type Operator,
  startControlPlane,
  startOperator,
} from "./support/operator.js";
import { KBTS } from "./support/paths.js";
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
  mkdirSync(project);
  const kbts = (args: string[]) => run("node", [KBTS, ...args], { cwd: project });
  await kbts(["init", "--domain", "testproject.org", "--repo", "example.com/memcached", "--skip-install"]);
  await kbts([
    ...["create", "api", "--group", "example.com", "--version", "v1alpha1", "--kind", "Memcached"],
    ...["--plugins", "deploy-image/v1-alpha", "--image", IMAGE],
    ...["--image-container-command", "memcached,--memory-limit=64,-o,modern,-v"],
    ...["--image-container-port", "11211", "--run-as-user", "1001"],
  ]);
  await buildProject(project);
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

describe.sequential("deploy-image/v1-alpha on a cluster that schedules", () => {
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
    // The garbage collector deletes the Deployment with it: no finalizer.
    expect(memcached.metadata.finalizers).toBeUndefined();
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

  it("deleting it waits for no finalizer: the custom resource is gone at once", async () => {
    await kubectl(["delete", "memcached", "memcached-sample", "-n", "default", "--timeout=60s"]);
    // kubectl delete waits for the object to go.
    const gone = await cp.kubectl(["get", "memcached", "memcached-sample", "-n", "default"], {
      reject: false,
    });
    expect(gone.all).toContain("NotFound");
  });
});
