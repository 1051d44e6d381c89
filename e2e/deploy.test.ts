/**
 * `make deploy` of the scaffolded GPUBudget operator on the local control plane, then the operator run as
 * a host process from its image (the Dockerfile's build, modelled without a container engine by
 * support/dockerfile.ts: the production bundle, node and nothing else) with exactly the identity its
 * Deployment gives it (@kbts/runtime/envtest's
 * startOperatorOnHost, as every project's scaffolded test/e2e runs it): the ServiceAccount's token from
 * the TokenRequest API, the cluster CA and KUBERNETES_SERVICE_HOST/PORT, no kubeconfig. No cert-manager
 * and no container engine exist here, so it is deployed with config/certrotation (the operator keeps its
 * own webhook certificate) and the webhook Service's endpoints point at this machine, as the endpoints
 * controller would point them at the pod. `make undeploy` then removes everything `make deploy` made.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import {
  type Environment,
  type HostOperator,
  scrapeMetrics,
  startEnvironment,
  startOperatorOnHost,
} from "@kbts/runtime/envtest";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { type BuildResult, buildDockerfile } from "./support/dockerfile.js";
import { eventually } from "./support/eventually.js";
import { ENFORCEMENT_LABEL, expectEnforcing } from "./support/gpubudget.js";
import { installDependencies } from "./support/installs.js";
import { nodeLtsBin } from "./support/node-lts.js";
import { budgetManifest, buildProject, gpuPodManifest, scaffoldProject } from "./support/operator.js";
import { run } from "./support/run.js";
import { serviceAccountKubeconfig } from "./support/service-account.js";

const ASSETS = process.env.KUBEBUILDER_ASSETS ?? "";
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-deploy-"));
const project = join(work, "gpubudget");
const imageRoot = mkdtempSync(join(tmpdir(), "kbts-e2e-image-"));
const NS = "gpubudget-system";
const SA = "gpubudget-controller-manager";
const DEPLOY = ["DEPLOY_CONFIG=config/certrotation"];

let env: Environment;
let makeEnv: Record<string, string>;
/** The image the Dockerfile builds, and the Node.js it runs on (its NODE_VERSION). */
let image: BuildResult;
let imageNode: string;
const operators: HostOperator[] = [];

/** Every file of the image with its size and modification time: what a run must leave as it is. */
function imageFiles(): string[] {
  return readdirSync(image.dir, { recursive: true, encoding: "utf8" })
    .sort()
    .map((f) => {
      const st = statSync(join(image.dir, f));
      return `${f} ${st.size} ${st.mtimeMs}`;
    });
}

/** The operator on this host from its image, with its pod's identity, its Deployment's args as JSON logs. */
async function startOperator(): Promise<HostOperator> {
  const op = await startOperatorOnHost({
    kubeconfig: env.kubeconfigPath,
    namespace: NS,
    deployment: SA,
    cwd: image.dir,
    args: ["--zap-devel=false"],
    env: { ...image.env, PATH: `${imageNode}${delimiter}${process.env.PATH ?? ""}` },
  });
  operators.push(op);
  return op;
}

const make = (args: string[], reject = true, timeout?: number) =>
  run("make", args, { cwd: project, env: makeEnv, reject, timeout });
const kubectl = (args: string[], input?: string) =>
  execa(join(ASSETS, "kubectl"), args, { env: makeEnv, input, all: true, reject: false });

async function kubectlOK(args: string[], input?: string): Promise<string> {
  const r = await kubectl(args, input);
  if (r.exitCode !== 0) throw new Error(`kubectl ${args.join(" ")}: ${r.all}`);
  return r.stdout;
}

/** kubectl for the GPUBudget support helpers: throws on a non-zero exit. */
const kubectlThrowing = async (args: string[], input?: string) => ({ stdout: await kubectlOK(args, input) });

/** The team-a budget's status as JSON text. */
const budgetStatus = () =>
  kubectlOK(["get", "gb", "team-a-budget", "-n", "team-a", "-o", "jsonpath={.status}"]);

/** The objects `make deploy` applies: kind, namespace and name of each rendered document. */
async function renderedObjects(): Promise<{ kind: string; namespace?: string; name: string }[]> {
  const text = await kubectlOK(["kustomize", join(project, "config/certrotation")]);
  return parseAllDocuments(text)
    .map((d) => d.toJS() as { kind: string; metadata: { name: string; namespace?: string } })
    .filter(Boolean)
    .map((o) => ({ kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name }));
}

beforeAll(async () => {
  env = await startEnvironment({
    kubeconfigPath: join(work, "kubeconfig"),
  });
  makeEnv = {
    KUBECONFIG: env.kubeconfigPath,
    KUBEBUILDER_ASSETS: ASSETS,
    KUBECTL: join(ASSETS, "kubectl"),
  };
  await scaffoldProject(project);
  await buildProject(project, { install: installDependencies });
  imageNode = await nodeLtsBin();
  // The project links @kbts/runtime and kbts to this checkout (file:), which package-lock.json records
  // relative to the project: the build's stages sit as deep as the project, so npm ci finds them.
  image = await buildDockerfile(project, { root: imageRoot, nodeBin: imageNode });
}, 600_000);

afterAll(async () => {
  for (const op of operators) await op.stop();
  await env?.stop();
  rmSync(work, { recursive: true, force: true });
  rmSync(imageRoot, { recursive: true, force: true });
});

describe.sequential("make deploy, then the operator with its in-cluster identity", () => {
  let op: HostOperator;

  it("the image holds node's entry point for the production bundle and no node_modules", async () => {
    const dockerfile = readFileSync(join(project, "Dockerfile"), "utf8");
    const pinned = /^ARG NODE_VERSION=(\d+)$/m.exec(dockerfile)?.[1];
    const { stdout: version } = await execa(join(imageNode, "node"), ["--version"]);
    expect(`v${pinned}.`, "the Dockerfile's NODE_VERSION is the Node.js this test runs the image on").toBe(
      version.slice(0, `v${pinned}.`.length),
    );
    expect(image.entrypoint).toEqual(["node", "dist/manager/manager.mjs"]);
    const files = readdirSync(image.dir, { recursive: true, encoding: "utf8" });
    expect(files.filter((f) => /node_modules|package\.json/.test(f))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        "dist/manager/manager.mjs",
        "dist/manager/main.mjs",
        "dist/manager/main.mjs.map",
      ]),
    );
    expect(files.some((f) => f.startsWith("dist/manager/compile-cache/"))).toBe(true);
    // Each optional module the bundle leaves out is named, with why.
    expect(image.log.join("\n")).toMatch(/not bundled: bufferutil: ws's optional native/);
  });

  it("make install and make deploy apply server-side on the local control plane", async () => {
    await make(["install"]);
    await make(["deploy", ...DEPLOY]);
    const managers = await kubectlOK([
      "get",
      "deployment",
      SA,
      "-n",
      NS,
      "-o",
      "jsonpath={.metadata.managedFields[*].operation}",
    ]);
    expect(managers).toContain("Apply");
  }, 180_000);

  it("reconciles, takes the leader Lease and serves webhooks and metrics with only the generated RBAC", async () => {
    const before = imageFiles();
    op = await startOperator();
    // The operator issues its webhook certificate into the Secret and injects the CA.
    await eventually(async () => {
      const ca = await kubectlOK([
        "get",
        "validatingwebhookconfiguration",
        "gpubudget-validating-webhook-configuration",
        "-o",
        "jsonpath={.webhooks[0].clientConfig.caBundle}",
      ]);
      expect(ca, op.output()).not.toBe("");
    }, 60_000);
    await kubectlOK(["get", "secret", "webhook-server-cert", "-n", NS]);
    const holder = await eventually(async () => {
      const h = await kubectlOK([
        "get",
        "lease",
        "a4aa2a1b.lab.example.com",
        "-n",
        NS,
        "-o",
        "jsonpath={.spec.holderIdentity}",
      ]);
      expect(h).not.toBe("");
      return h;
    }, 60_000);
    expect(holder).toBeTruthy();

    // The story: exceed, recover, Deny.
    await kubectlOK(["create", "namespace", "team-a"]);
    await kubectlOK(["apply", "-f", "-"], budgetManifest("team-a", "team-a-budget", 4));
    await kubectlOK(["apply", "-f", "-"], gpuPodManifest("team-a", "g1", 6));
    await eventually(async () => {
      const status = await budgetStatus();
      expect(status, op.output()).toContain('"allocatedGPUs":6');
      expect(status).toContain('"reason":"BudgetExceeded"');
    }, 60_000);
    await kubectlOK(["delete", "pod", "g1", "-n", "team-a", "--grace-period=0", "--force"]);
    await eventually(async () => {
      const status = await budgetStatus();
      expect(status).toContain('"allocatedGPUs":0');
      expect(status).toContain('"status":"True"');
    }, 60_000);
    await kubectlOK([
      "patch",
      "gb",
      "team-a-budget",
      "-n",
      "team-a",
      "--type=merge",
      "-p",
      '{"spec":{"enforcement":"Deny"}}',
    ]);
    // Refused only once the namespace carries the enforcement label; a pod admitted before then is
    // deleted, so the next attempt is a create again (not an "unchanged" apply).
    await expectEnforcing(kubectlThrowing, "team-a", "team-a-budget", 60_000);
    const denied = await eventually(async () => {
      const r = await kubectl(["apply", "-f", "-"], gpuPodManifest("team-a", "g2", 5));
      if (r.exitCode === 0) await kubectlOK(["delete", "pod", "g2", "-n", "team-a", "--wait=false"]);
      expect(r.exitCode, `${r.all}\n${op.output()}`).not.toBe(0);
      return r.all;
    }, 60_000);
    expect(denied).toContain('admission webhook "vpod-v1.kb.io" denied the request');
    expect(denied).toContain("GPUBudget team-a/team-a-budget allows 4");

    // Metrics over HTTPS, checked with TokenReview + SubjectAccessReview: refused without a token, served
    // to a service account bound to the metrics-reader role.
    expect((await scrapeMetrics(op.metricsPort)).status).toBe(401);
    await kubectlOK([
      "create",
      "clusterrolebinding",
      "gpubudget-metrics-reader-e2e",
      "--clusterrole=gpubudget-metrics-reader",
      `--serviceaccount=${NS}:${SA}`,
    ]);
    const metrics = await eventually(async () => {
      const r = await scrapeMetrics(op.metricsPort, op.token);
      expect(r.status).toBe(200);
      return r.body;
    });
    expect(metrics).toMatch(/gpubudget_allocated_gpus\{[^}]*name="team-a-budget"/);
    expect(metrics).toContain("controller_runtime_reconcile_total");
    await kubectlOK(["delete", "clusterrolebinding", "gpubudget-metrics-reader-e2e"]);
    await op.stop();
    expect(op.output()).not.toMatch(/forbidden/i);
    // Its root file system can be read-only: the compile cache made at build time is only read.
    expect(imageFiles()).toEqual(before);
  }, 240_000);

  it("the operator's token may change its namespace label and nothing else of a namespace (write guard)", async () => {
    // The operator labelled team-a with this token above, through the guard make deploy installed.
    const labels = JSON.parse(
      await kubectlOK(["get", "namespace", "team-a", "-o", "jsonpath={.metadata.labels}"]),
    );
    expect(labels).toMatchObject({ [ENFORCEMENT_LABEL]: "Deny" });
    const saConfig = join(work, "operator.kubeconfig");
    await serviceAccountKubeconfig(join(ASSETS, "kubectl"), env.kubeconfigPath, NS, SA, saConfig);
    const patchAsOperator = (metadata: unknown) =>
      kubectl([
        "--kubeconfig",
        saConfig,
        "patch",
        "namespace",
        "team-a",
        "--type=merge",
        "-p",
        JSON.stringify({ metadata }),
      ]);
    // Each probe a new value: one admitted before the policy is in effect would make a repeat a no-op.
    let probe = 0;
    const refusal = await eventually(async () => {
      const r = await patchAsOperator({ annotations: { probe: String(++probe) } });
      expect(r.exitCode, r.all).not.toBe(0);
      return r.all;
    }, 60_000);
    expect(refusal).toContain("this request changes metadata.annotations['probe']");
    const psa = await patchAsOperator({ labels: { "pod-security.kubernetes.io/enforce": "privileged" } });
    expect(psa.exitCode).not.toBe(0);
    expect(psa.all).toContain("gpubudget-manager-guard-namespaces");
    expect(psa.all).toContain("this request changes metadata.labels['pod-security.kubernetes.io/enforce']");
    // With the guard in effect, its own label is still its to remove and set (the operator is stopped).
    for (const value of [null, "Deny"]) {
      const own = await patchAsOperator({ labels: { [ENFORCEMENT_LABEL]: value } });
      expect(own.exitCode, own.all).toBe(0);
    }
  }, 120_000);

  it("without the pods RBAC marker, the operator says it is forbidden to list pods", async () => {
    const controller = join(project, "internal/controller/gpubudget_controller.ts");
    const source = readFileSync(controller, "utf8");
    const marker = '// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch;patch\n';
    // The guard on the Queue release's pod patch goes with it: a guard needs the grant it narrows.
    const guard = '// +kbts:guard:groups="",resources=pods,verbs=patch,fields=spec;metadata.finalizers\n';
    expect(source).toContain(marker);
    expect(source).toContain(guard);
    writeFileSync(controller, source.replace(marker, "").replace(guard, ""));
    try {
      await make(["deploy", ...DEPLOY]);
      const rules = await kubectlOK([
        "get",
        "clusterrole",
        "gpubudget-manager-role",
        "-o",
        "jsonpath={.rules}",
      ]);
      expect(rules).not.toContain('"pods"');
      const reduced = await startOperator();
      await eventually(
        async () =>
          expect(reduced.output()).toMatch(
            /pods is forbidden: User \\?"system:serviceaccount:gpubudget-system:gpubudget-controller-manager\\?" cannot (list|watch) resource \\?"pods\\?"/,
          ),
        60_000,
      );
      await reduced.stop();
    } finally {
      writeFileSync(controller, source);
    }
  }, 180_000);

  it("make undeploy removes everything make deploy created", async () => {
    const objects = await renderedObjects();
    expect(objects.length).toBeGreaterThan(15);
    await make(["undeploy", ...DEPLOY]);
    for (const o of objects) {
      const get = ["get", o.kind, o.name, ...(o.namespace ? ["-n", o.namespace] : [])];
      if (o.kind === "Namespace") {
        // Plain envtest runs no namespace controller: the namespace is Terminating, never finalized.
        const deleting = await kubectl([...get, "-o", "jsonpath={.metadata.deletionTimestamp}"]);
        expect(
          deleting.exitCode !== 0 || /\d{4}-/.test(deleting.stdout),
          `${o.kind} ${o.name}: ${deleting.all}`,
        ).toBe(true);
        continue;
      }
      await eventually(async () => {
        const gone = await kubectl(get);
        expect(gone.all, `${o.kind} ${o.namespace ?? ""}/${o.name} is still there`).toMatch(
          /NotFound|not found/,
        );
      }, 30_000);
    }
  }, 120_000);
});

describe("make install with server-side apply", () => {
  it("installs a CRD larger than client-side apply's 262,144-byte annotation limit", async () => {
    const types = join(project, "api/v1alpha1/gpubudget_types.ts");
    const source = readFileSync(types, "utf8");
    // A 300 KB field description: real CRDs with long docs (and many versions) grow this big.
    const long = Array.from(
      { length: 5000 },
      (_, i) => `  // Line ${i} of a very long description of this field, as long CRD documentation grows.`,
    ).join("\n");
    writeFileSync(types, source.replace(/(\n\s*maxGPUs[?]?:)/, `\n${long}$1`));
    const crd = "gpubudgets.capacity.lab.example.com";
    // Each step takes a few seconds. Bounded, a step that hangs fails with its output and the CRD's
    // state instead of the test's timeout (two CI runs spent 180 s in here; the state a bound caught
    // since named the cause, the wait before uninstall below). The bounds add up to less than the limit.
    const state =
      "jsonpath=deleting {.metadata.deletionTimestamp} {.metadata.finalizers} {.status.conditions}";
    const crdState = async () =>
      (await kubectl(["get", "crd", crd, "--request-timeout=10s", "-o", state])).all;
    const bounded = async (args: string[]) => {
      try {
        await make(args, true, 50_000);
      } catch (e) {
        throw new Error(`${(e as Error).message}\nthe CRD now: ${await crdState()}`);
      }
    };
    try {
      await bounded(["install"]);
      const size = (await kubectlOK(["get", "crd", crd, "--request-timeout=20s", "-o", "json"])).length;
      expect(size).toBeGreaterThan(262_144);
      // Served from the watch cache, as an operator's informer would see it, before it goes. Deleted
      // while its storage still initializes, the CRD's cleanup finalizer cannot list the instances
      // ("storage is (re)initializing") and retries with exponential backoff: a cold run's uninstall,
      // one second after the install, waited past 50 s. A resourceVersion=0 list is refused until then.
      await eventually(async () => {
        const cached = await kubectl([
          "get",
          "--raw",
          "/apis/capacity.lab.example.com/v1alpha1/gpubudgets?resourceVersion=0",
          "--request-timeout=10s",
        ]);
        expect(cached.exitCode, `the watch cache of ${crd}: ${cached.all}`).toBe(0);
      }, 40_000);
      await bounded(["uninstall"]);
      // The same CRD through client-side apply is refused: why install applies server-side.
      const rendered = await kubectlOK(["kustomize", join(project, "config/crd")]);
      const clientSide = await kubectl(["apply", "--request-timeout=20s", "-f", "-"], rendered);
      expect(clientSide.all).toMatch(/Too long|too long/);
    } finally {
      writeFileSync(types, source);
    }
  }, 180_000);
});
