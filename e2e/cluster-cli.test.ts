/**
 * `kbts envtest start --nodes 2 --node-capacity nvidia.com/gpu=4` as a user runs it, with the real kubectl:
 * a Deployment asking for GPUs runs on the simulated nodes, a pod no node can hold stays Pending with a
 * FailedScheduling event, `kubectl delete ns` completes, and SIGTERM leaves no process and no temp dir
 * (5 times in a row, each exiting 0 within 5 s), nor does a SIGKILL.
 * Bad cluster flags give one clear error and start nothing.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processesMentioning } from "../runtime/src/internal/proc.js";
import { buildCheckout } from "./support/build.js";
import { runEnvtestCLI, startAndStop, startEnvtestCLI } from "./support/envtest-cli.js";
import { eventually } from "./support/eventually.js";
import { KBTS, REPO } from "./support/paths.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-cluster-cli-"));
let assets = "";
const started: ChildProcess[] = [];

beforeAll(async () => {
  await buildCheckout();
  // The Makefile's tools step has built them; this only finds them in the store.
  const r = await execa("node", [KBTS, "setup-envtest", "use", "--cluster", "-p", "path"], { cwd: REPO });
  assets = r.stdout;
});

afterAll(() => {
  for (const c of started) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

interface PodList {
  items: { metadata: { name: string }; spec: { nodeName?: string }; status: { phase: string } }[];
}

describe("kbts envtest start --nodes", () => {
  it("runs GPU pods on simulated nodes, leaves the one that does not fit Pending, deletes namespaces, and cleans up on SIGTERM", async () => {
    const kubeconfig = join(work, "kubeconfig");
    const { child, tmp, stdout } = await startEnvtestCLI(
      ["--nodes", "2", "--node-capacity", "nvidia.com/gpu=4", "--kubeconfig", kubeconfig],
      { work, assets, started, timeoutMs: 120_000 },
    );
    expect(stdout()).toContain("nodes: kwok-node-0, kwok-node-1 (each nvidia.com/gpu=4)");
    const kubectl = async (args: string[], input?: string) => {
      const r = await execa(join(assets, "kubectl"), args, {
        env: { KUBECONFIG: kubeconfig },
        reject: false,
        all: true,
        input,
      });
      if (r.exitCode !== 0) throw new Error(`kubectl ${args.join(" ")}: ${r.all}`);
      return r.stdout;
    };

    const nodes = await kubectl(["get", "nodes", "--no-headers"]);
    expect(nodes.split("\n").map((l) => l.split(/\s+/).slice(0, 2))).toEqual([
      ["kwok-node-0", "Ready"],
      ["kwok-node-1", "Ready"],
    ]);

    // `kubectl create deployment`, with a GPU request on its container: 5 pods × 1 GPU of the 8 there are.
    await kubectl(["create", "namespace", "gpu-team"]);
    const deployment = JSON.parse(
      await kubectl([
        "create",
        "deployment",
        "train",
        "-n",
        "gpu-team",
        "--image=registry.k8s.io/pause:3.10",
        "--replicas=5",
        "--dry-run=client",
        "-o",
        "json",
      ]),
    );
    deployment.spec.template.spec.containers[0].resources = { limits: { "nvidia.com/gpu": "1" } };
    await kubectl(["apply", "-f", "-"], JSON.stringify(deployment));
    await eventually(async () => {
      const pods = JSON.parse(await kubectl(["get", "pods", "-n", "gpu-team", "-o", "json"])) as PodList;
      expect(pods.items.map((p) => p.status.phase)).toEqual(Array(5).fill("Running"));
      for (const p of pods.items) expect(p.spec.nodeName).toMatch(/^kwok-node-[01]$/);
    }, 60_000);

    // The sixth GPU pod wants 4: only 3 are left, split over two nodes.
    await kubectl(
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "sixth", namespace: "gpu-team" },
        spec: {
          containers: [
            {
              name: "main",
              image: "registry.k8s.io/pause:3.10",
              resources: { limits: { "nvidia.com/gpu": "4" } },
            },
          ],
        },
      }),
    );
    await eventually(async () => {
      const events = await kubectl([
        "get",
        "events",
        "-n",
        "gpu-team",
        "--field-selector",
        "involvedObject.name=sixth,reason=FailedScheduling",
        "-o",
        "jsonpath={.items[*].message}",
      ]);
      expect(events).toContain("Insufficient nvidia.com/gpu");
    }, 30_000);
    expect(await kubectl(["get", "pod", "sixth", "-n", "gpu-team", "-o", "jsonpath={.status.phase}"])).toBe(
      "Pending",
    );

    // kubectl waits for the namespace to be gone: the namespace controller empties it, kwok lets pods go.
    await kubectl(["delete", "namespace", "gpu-team", "--timeout=60s"]);
    expect(await kubectl(["get", "namespaces", "-o", "name"])).not.toContain("gpu-team");

    // Five processes (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok) under its TMPDIR.
    expect(processesMentioning(tmp)).toHaveLength(5);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(processesMentioning(tmp)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  const CLUSTER_PROGRAMS = [
    "etcd",
    "kube-apiserver",
    "kube-controller-manager",
    "kube-scheduler",
    "kwok",
    ...Array<string>(5).fill("sh"), // each one's watchdog, which ends it if this CLI dies
  ];

  it("--nodes 1 stops on SIGTERM (5 times) with exit 0 within 5 s, and leaves nothing after a SIGKILL", async () => {
    const options = { work, assets, started, timeoutMs: 120_000 };
    for (let i = 0; i < 5; i++) {
      const r = await startAndStop(["--nodes", "1"], options, "SIGTERM");
      expect(r.programs).toEqual(CLUSTER_PROGRAMS);
      expect({ code: r.exit.code, signal: r.exit.signal }, r.stderr).toEqual({ code: 0, signal: null });
      expect(r.exit.ms).toBeLessThan(5_000);
      expect(r.stderr).toContain("envtest: stopped; temp dirs removed");
      expect(r.stderr).not.toContain("error");
      expect(r.left).toEqual([]);
      expect(r.leftDirs).toEqual([]);
    }
    const killed = await startAndStop(["--nodes", "1"], options, "SIGKILL", 5_000);
    expect(killed.programs).toEqual(CLUSTER_PROGRAMS);
    expect(killed.left).toEqual([]);
    expect(killed.leftDirs).toEqual([]);
  });

  it("refuses a bad --nodes or --node-capacity in one line and starts nothing", async () => {
    for (const [args, first] of [
      [["--nodes", "two"], 'error: --nodes: invalid node count "two"'],
      [
        ["--nodes", "2", "--node-capacity", "nvidia.com/gpu"],
        'error: --node-capacity: "nvidia.com/gpu" is not a resource=quantity pair',
      ],
      [["--node-capacity", "cpu=4"], "error: --node-capacity: --node-capacity needs --nodes"],
    ] as const) {
      const r = await runEnvtestCLI([...args], { work, assets });
      expect(r.exitCode).toBe(1);
      expect(r.stderr.split("\n")[0]).toBe(first);
      expect(processesMentioning(r.tmp)).toEqual([]);
      expect(readdirSync(r.tmp)).toEqual([]);
    }
  });
});
