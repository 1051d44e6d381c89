/**
 * `make demo`: the GPUBudget story from a fresh clone, on a local control plane (no cluster, no Docker).
 * Scaffolds the operator with kbts into a working directory, builds it, starts etcd + kube-apiserver
 * with the CRD and the Pod webhook, runs the operator, plays the story, then stops and cleans up.
 *
 *   npx tsx e2e/demo/gpubudget-demo.ts [--keep] [--workdir DIR] [--project DIR]
 *
 * --project reuses a project this demo (or you) already scaffolded and built, skipping those steps.
 *
 * No kubelet runs, so pods stay Pending: the controller counts what non-terminal pods request.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { eventually } from "../support/eventually.js";
import {
  budgetManifest,
  buildProject,
  type ControlPlane,
  gpuPodManifest,
  metricValue,
  type Operator,
  scaffoldProject,
  startControlPlane,
  startOperator,
  withProgress,
} from "../support/operator.js";
import { run } from "../support/run.js";

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

/** A heading in the demo's output. */
function heading(title: string): void {
  process.stdout.write(`\n${bold(`=== ${title}`)}\n`);
}

const { values } = parseArgs({
  options: {
    keep: { type: "boolean", default: false },
    workdir: { type: "string" },
    project: { type: "string" },
  },
});
const work = values.workdir ?? mkdtempSync(join(tmpdir(), "kbts-gpubudget-demo-"));
// kubectl keeps a cache folder per API server port (~/.kube/cache); the demo's control plane goes when
// the demo ends, so its cache goes with the work dir.
process.env.KUBECACHEDIR ??= join(work, "kubectl-cache");
const project = values.project ?? join(work, "gpubudget");

let cp: ControlPlane | undefined;
let operator: Operator | undefined;

async function budgetRow(): Promise<{ allocated: string; ready: string }> {
  const out = await cp!.kubectl([
    "get",
    "gb",
    "team-a-budget",
    "-n",
    "team-a",
    "-o",
    "jsonpath={.status.allocatedGPUs} {.status.conditions[?(@.type=='Ready')].status}",
  ]);
  const [allocated = "", ready = ""] = out.stdout.trim().split(" ");
  return { allocated, ready };
}

async function waitFor(allocated: string, ready: string): Promise<void> {
  await eventually(async () => {
    const row = await budgetRow();
    if (row.allocated !== allocated || row.ready !== ready)
      throw new Error(
        `budget shows ${JSON.stringify(row)}, waiting for allocated=${allocated} ready=${ready}`,
      );
  }, 30_000);
}

/**
 * Switches team-a's budget to `mode` and waits for its Enforcing condition: only namespaces holding a
 * Deny or Queue budget are sent to the Pod webhooks, and the condition turns True once the operator has
 * labelled team-a so.
 */
async function enforce(mode: "Deny" | "Queue"): Promise<void> {
  await cp!.kubectl(
    [
      "patch",
      "gb",
      "team-a-budget",
      "-n",
      "team-a",
      "--type=merge",
      "-p",
      `{"spec":{"enforcement":"${mode}"}}`,
    ],
    { show: true },
  );
  await cp!.kubectl(
    ["wait", "gb", "team-a-budget", "-n", "team-a", "--for=condition=Enforcing", "--timeout=60s"],
    { show: true },
  );
}

/** A pod finishes: phase Succeeded, through the status subresource (no kubelet here to do it). */
async function finish(pod: string): Promise<void> {
  await cp!.kubectl(
    [
      "patch",
      "pod",
      pod,
      "-n",
      "team-a",
      "--subresource=status",
      "--type=merge",
      "-p",
      '{"status":{"phase":"Succeeded"}}',
    ],
    { show: true },
  );
}

async function main(): Promise<void> {
  const started = Date.now();
  process.stdout.write(`kbts demo on node ${process.version}\n`);
  if (!values.project) {
    heading(`Scaffold the GPUBudget operator with kbts (in ${project})`);
    await scaffoldProject(project, { show: true });

    heading("Install, generate and build the scaffolded project");
    await buildProject(project, { show: true });
  }

  heading("Build the manager as its image does (npm run build-bundle: one esbuild bundle, no node_modules)");
  await run("npm", ["run", "build-bundle"], { cwd: project, show: true });

  heading("Start a local control plane (etcd + kube-apiserver) with the GPUBudget CRD and the Pod webhook");
  cp = await withProgress("starting etcd and kube-apiserver", startControlPlane(project));
  process.stdout.write(`API server ${cp.env.apiServerURL}; KUBECONFIG=${cp.env.kubeconfigPath}\n`);

  heading("Run the operator (node dist/manager/manager.mjs)");
  operator = await withProgress(
    "waiting for /readyz",
    startOperator(project, cp, {
      name: "operator",
      logDir: join(work, "logs"),
      command: [process.execPath, "dist/manager/manager.mjs"],
    }),
  );
  process.stdout.write(
    `metrics on http://127.0.0.1:${operator.metricsPort}/metrics, logs in ${operator.logFile}\n`,
  );

  heading("1. Namespace team-a gets a budget of 4 GPUs");
  await cp.kubectl(["create", "namespace", "team-a"], { show: true });
  await cp.kubectl(["apply", "-f", "-"], { show: true, input: budgetManifest("team-a", "team-a-budget", 4) });
  await waitFor("0", "True");
  await cp.kubectl(["get", "gb", "-n", "team-a"], { show: true });

  heading("2. A pod asks for 6 GPUs (limits only; it stays Pending: no kubelet here)");
  await cp.kubectl(["apply", "-f", "-"], { show: true, input: gpuPodManifest("team-a", "g1", 6) });
  await waitFor("6", "False");
  await cp.kubectl(["get", "gb", "-n", "team-a"], { show: true });
  await cp.kubectl(["get", "events", "-n", "team-a", "--field-selector", "involvedObject.kind=GPUBudget"], {
    show: true,
    reject: false,
  });

  heading("3. The pod finishes (phase Succeeded, via the status subresource): the budget is back to 0");
  await finish("g1");
  await waitFor("0", "True");
  await cp.kubectl(["get", "gb", "-n", "team-a"], { show: true });

  heading("4. Switch the budget to Deny: the Pod webhook refuses a pod over the cap");
  await enforce("Deny");
  await cp.kubectl(["get", "gb", "-n", "team-a", "-o", "wide"], { show: true });
  // The webhook reads budgets from the operator's cache: wait until it has seen Deny.
  let refusal = "";
  await eventually(async () => {
    const res = await cp!.kubectl(["apply", "-f", "-"], {
      reject: false,
      input: gpuPodManifest("team-a", "g2", 6),
    });
    if (res.exitCode === 0) {
      await cp!.kubectl(["delete", "pod", "g2", "-n", "team-a", "--wait=false"]);
      throw new Error("pod g2 was admitted before the operator saw enforcement: Deny");
    }
    refusal = res.all ?? "";
  }, 20_000);
  process.stdout.write(`$ kubectl apply -f g2.yaml   # asks for 6 nvidia.com/gpu\n${refusal}\n`);

  heading("5. Switch the budget to Queue: a pod over the cap waits in line, and goes when GPUs free up");
  await enforce("Queue");
  // The Pod defaulter reads budgets from the operator's cache: wait until a new pod is gated.
  await eventually(async () => {
    await cp!.kubectl(["apply", "-f", "-"], { input: gpuPodManifest("team-a", "g3", 4) });
    const gates = await cp!.kubectl([
      "get",
      "pod",
      "g3",
      "-n",
      "team-a",
      "-o",
      "jsonpath={.metadata.annotations}",
    ]);
    if (!gates.stdout.includes("queued-at")) {
      await cp!.kubectl(["delete", "pod", "g3", "-n", "team-a", "--wait=false"]);
      throw new Error("pod g3 was created before the operator saw enforcement: Queue");
    }
  }, 20_000);
  process.stdout.write("$ kubectl apply -f g3.yaml   # asks for 4 nvidia.com/gpu: fits, released at once\n");
  await waitFor("4", "True");
  await cp.kubectl(["apply", "-f", "-"], { show: true, input: gpuPodManifest("team-a", "g4", 2) });
  await eventually(async () => {
    const out = await cp!.kubectl([
      "get",
      "gb",
      "team-a-budget",
      "-n",
      "team-a",
      "-o",
      "jsonpath={.status.queuedGPUs}",
    ]);
    if (out.stdout.trim() !== "2") throw new Error(`queuedGPUs is "${out.stdout.trim()}", waiting for 2`);
  }, 30_000);
  await cp.kubectl(["get", "gb", "-n", "team-a"], { show: true });
  await cp.kubectl(["get", "pod", "g4", "-n", "team-a", "-o", 'jsonpath={.spec.schedulingGates}{"\\n"}'], {
    show: true,
  });
  await cp.kubectl(["get", "events", "-n", "team-a", "--field-selector", "involvedObject.name=g4"], {
    show: true,
  });
  heading("6. g3 finishes: g4's turn comes, the operator removes its gate");
  await finish("g3");
  await waitFor("2", "True");
  await cp.kubectl(["get", "gb", "-n", "team-a"], { show: true });
  await cp.kubectl(
    ["get", "events", "-n", "team-a", "--field-selector", "involvedObject.name=g4,reason=Released"],
    {
      show: true,
    },
  );

  heading("7. A few metric lines from the operator's /metrics");
  const text = await operator.metrics();
  const lines = text
    .split("\n")
    .filter((l) =>
      /^gpubudget_|^controller_runtime_reconcile_total\{controller="gpubudget"|^workqueue_depth\{.*gpubudget/.test(
        l,
      ),
    );
  process.stdout.write(`${lines.join("\n")}\n`);
  if (metricValue(text, "gpubudget_max_gpus", { namespace: "team-a", name: "team-a-budget" }) !== 4) {
    throw new Error("gpubudget_max_gpus for team-a/team-a-budget is missing");
  }

  heading(`Done in ${((Date.now() - started) / 1000).toFixed(0)}s`);
}

async function cleanup(): Promise<void> {
  heading("Stop everything and clean up");
  await operator?.stop().catch(() => undefined);
  await cp?.stop().catch(() => undefined);
  if (!values.keep && !values.workdir) rmSync(work, { recursive: true, force: true });
  else process.stdout.write(`kept ${work}\n`);
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  process.stderr.write(`\ndemo failed: ${err instanceof Error ? err.message : String(err)}\n`);
  if (operator) process.stderr.write(`operator log: ${operator.logFile} (kept)\n`);
} finally {
  if (failed && operator) values.keep = true;
  await cleanup();
}
process.exit(failed ? 1 : 0);
