/**
 * The helm/v2-alpha plugin checked with the real helm (built by `make helm`) on one local control
 * plane: the GPUBudget scaffold (CRD, Pod webhook, metrics) goes through `make build-installer` and
 * `kbts edit --plugins helm/v2-alpha`; `helm lint` passes; `helm template` renders, under several
 * value sets, manifests the API server accepts with `kubectl apply --dry-run=server`; and `helm
 * install` creates the same objects as `make deploy` (kind/namespace/name, the manager Deployment,
 * RBAC rules and CRDs). No cert-manager runs here, so both sides use the manager's own certificate
 * rotation: `make deploy DEPLOY_CONFIG=config/certrotation` and the chart's `certManager.enabled=false`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { installDependencies } from "./support/installs.js";
import { scaffoldProject } from "./support/operator.js";
import { KBTS } from "./support/paths.js";
import { cachedHelm } from "./tools/helm.js";

const ASSETS = process.env.KUBEBUILDER_ASSETS ?? "";
const KUBECTL = join(ASSETS, "kubectl");
const work = mkdtempSync(join(tmpdir(), "kbts-e2e-helm-"));
const project = join(work, "gpubudget");
const NS = "gpubudget-system";
const IMG = "example.com/gpubudget:v0.1.0";
const NO_CERT_MANAGER = ["--set", "certManager.enabled=false"];

let env: Environment;
let toolEnv: Record<string, string>;
const HELM = cachedHelm();

const run = async (file: string, args: string[], input?: string) => {
  const r = await execa(file, args, { cwd: project, env: toolEnv, input, all: true, reject: false });
  if (r.exitCode !== 0) throw new Error(`${file} ${args.join(" ")} exited ${r.exitCode}:\n${r.all}`);
  return r.stdout;
};
const helm = (args: string[]) => run(HELM, args);
const kubectl = (args: string[], input?: string) => run(KUBECTL, args, input);

interface Obj {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

const objects = (text: string): Obj[] =>
  parseAllDocuments(text)
    .map((d) => d.toJS() as Obj | null)
    .filter((o): o is Obj => o !== null && typeof o === "object" && typeof o.kind === "string");
const key = (o: Obj) => `${o.kind} ${o.metadata.namespace ?? ""}/${o.metadata.name}`;

/** The live object, as the API server stores it. */
async function live(o: Obj): Promise<Obj> {
  const group = o.apiVersion.includes("/") ? o.apiVersion.split("/")[0] : "";
  const where = o.metadata.namespace ? ["-n", o.metadata.namespace] : [];
  const resource = group ? `${o.kind}.${group}` : o.kind;
  return JSON.parse(await kubectl(["get", resource, o.metadata.name, ...where, "-o", "json"])) as Obj;
}

/** What each side is compared on: the manager's container and pod, RBAC rules and bindings, CRD specs. */
function essence(o: Obj): unknown {
  switch (o.kind) {
    case "Deployment": {
      const spec = (
        o as unknown as {
          spec: { replicas: number; selector: unknown; template: { spec: Record<string, unknown> } };
        }
      ).spec;
      const pod = spec.template.spec;
      const [c] = pod.containers as Record<string, unknown>[];
      // The chart states two flags at their defaults (--webhook-port, --webhook-service-name): the same manager.
      const args = ((c?.args as string[]) ?? []).filter(
        (a) => a !== "--webhook-port=9443" && a !== "--webhook-service-name=gpubudget-webhook-service",
      );
      return {
        replicas: spec.replicas,
        selector: spec.selector,
        serviceAccountName: pod.serviceAccountName,
        securityContext: pod.securityContext,
        terminationGracePeriodSeconds: pod.terminationGracePeriodSeconds,
        volumes: pod.volumes,
        container: {
          ...c,
          args: [...args].sort(),
          env: c?.env ?? [],
        },
      };
    }
    case "Role":
    case "ClusterRole":
      return (o as { rules?: unknown }).rules;
    case "RoleBinding":
    case "ClusterRoleBinding":
      return { roleRef: o.roleRef, subjects: o.subjects };
    case "CustomResourceDefinition":
      return o.spec;
    case "Service":
      return { ...(o.spec as Record<string, unknown>), clusterIP: undefined, clusterIPs: undefined };
    case "ValidatingWebhookConfiguration":
    case "MutatingWebhookConfiguration":
      return (o.webhooks as { clientConfig: Record<string, unknown> }[]).map((w) => ({
        ...w,
        clientConfig: { ...w.clientConfig, caBundle: undefined },
      }));
    default:
      return undefined;
  }
}

beforeAll(async () => {
  env = await startEnvironment({ kubeconfigPath: join(work, "kubeconfig") });
  toolEnv = {
    PATH: process.env.PATH ?? "",
    HOME: work,
    KUBECONFIG: env.kubeconfigPath ?? "",
    KUBEBUILDER_ASSETS: ASSETS,
    KUBECTL,
    HELM_CACHE_HOME: join(work, "helm/cache"),
    HELM_CONFIG_HOME: join(work, "helm/config"),
    HELM_DATA_HOME: join(work, "helm/data"),
  };
  await scaffoldProject(project);
  const install = await installDependencies(project);
  if (install.exitCode !== 0) throw new Error(`npm install exited ${install.exitCode}:\n${install.all}`);
  await run("make", ["build-installer", `IMG=${IMG}`]);
}, 600_000);

afterAll(async () => {
  await env?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe.sequential("a Helm chart from make build-installer, checked with helm on the local control plane", () => {
  it("kbts edit --plugins helm/v2-alpha writes dist/chart, and helm lint passes", async () => {
    const out = await run("node", [KBTS, "edit", "--plugins", "helm/v2-alpha"]);
    expect(out).toContain("wrote dist/chart/values.yaml");
    const values = parse(readFileSync(join(project, "dist/chart/values.yaml"), "utf8"));
    expect(values.manager.image).toEqual({
      repository: "example.com/gpubudget",
      tag: "v0.1.0",
      pullPolicy: "IfNotPresent",
    });
    expect(values.webhook.enabled).toBe(true);
    const lint = await helm(["lint", "dist/chart", "--strict"]);
    expect(lint).toContain("1 chart(s) linted, 0 chart(s) failed");
  }, 120_000);

  it("helm template renders what the API server accepts under server-side dry-run, with each value set", async () => {
    await kubectl(["create", "namespace", NS]);
    const valueSets = [
      NO_CERT_MANAGER,
      [...NO_CERT_MANAGER, "--set", "webhook.enabled=false", "--set", "metrics.enabled=false"],
      [
        ...NO_CERT_MANAGER,
        "--set",
        "rbac.namespaced=true",
        "--set",
        "rbac.helpers.enabled=true",
        "--set",
        "networkPolicy.enabled=true",
        "--set",
        "metrics.secure=false",
        "--set",
        "manager.replicas=2",
        "--set",
        "manager.envOverrides.LOG_LEVEL=debug",
        "--set",
        "manager.nodeSelector.kubernetes\\.io/os=linux",
        "--set",
        "manager.tolerations[0].key=gpu",
        "--set",
        "manager.tolerations[0].operator=Exists",
        "--set",
        "serviceAccount.enabled=false",
        "--set",
        "serviceAccount.name=default",
      ],
    ];
    for (const values of valueSets) {
      const rendered = await helm(["template", "gpubudget", "dist/chart", "--namespace", NS, ...values]);
      const docs = objects(rendered);
      expect(docs.length, values.join(" ")).toBeGreaterThan(5);
      const accepted = await kubectl(["apply", "--server-side", "--dry-run=server", "-f", "-"], rendered);
      for (const o of docs) expect(accepted, `${values.join(" ")}: ${key(o)}`).toContain(o.metadata.name);
    }
    // The overrides reached the manager.
    const custom = objects(
      await helm(["template", "gpubudget", "dist/chart", "-n", NS, ...(valueSets[2] ?? [])]),
    );
    const deployment = custom.find((o) => o.kind === "Deployment") as unknown as {
      spec: {
        replicas: number;
        template: {
          spec: {
            nodeSelector: unknown;
            tolerations: unknown[];
            containers: { env: unknown[]; args: string[] }[];
          };
        };
      };
    };
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.template.spec.nodeSelector).toEqual({ "kubernetes.io/os": "linux" });
    expect(deployment.spec.template.spec.tolerations).toEqual([{ key: "gpu", operator: "Exists" }]);
    expect(deployment.spec.template.spec.containers[0]?.env).toContainEqual({
      name: "LOG_LEVEL",
      value: "debug",
    });
    expect(deployment.spec.template.spec.containers[0]?.args).toContain("--metrics-secure=false");
    expect(custom.some((o) => o.kind === "Role" && o.metadata.name === "gpubudget-manager-role")).toBe(true);
    expect(custom.some((o) => o.kind === "ClusterRole" && o.metadata.name === "gpubudget-manager-role")).toBe(
      false,
    );
  }, 120_000);

  it("helm install creates what make deploy creates", async () => {
    // make deploy, then read back every object it made; then remove them (the namespace stays: plain
    // envtest never finalizes a namespace) and let helm install the chart into the same namespace.
    await run("make", ["deploy", "DEPLOY_CONFIG=config/certrotation", `IMG=${IMG}`]);
    const deployed = objects(await kubectl(["kustomize", "config/certrotation"])).filter(
      (o) => o.kind !== "Namespace",
    );
    const before = new Map<string, unknown>();
    for (const o of deployed) before.set(key(o), essence(await live(o)));
    await kubectl(["delete", "--wait=true", "-f", "-"], deployed.map((o) => JSON.stringify(o)).join("\n"));

    // kustomize's config/rbac installs the admin/editor/viewer helper roles; the chart's rbac.helpers
    // (off by default, as Kubebuilder's) is the only difference in what gets installed.
    const defaults = objects(
      await helm(["template", "gpubudget", "dist/chart", "-n", NS, ...NO_CERT_MANAGER]),
    );
    expect(
      deployed
        .map(key)
        .filter((k) => !defaults.map(key).includes(k))
        .sort(),
    ).toEqual([
      "ClusterRole /gpubudget-gpubudget-admin-role",
      "ClusterRole /gpubudget-gpubudget-editor-role",
      "ClusterRole /gpubudget-gpubudget-viewer-role",
    ]);
    await helm([
      "install",
      "gpubudget",
      "dist/chart",
      "--namespace",
      NS,
      ...NO_CERT_MANAGER,
      "--set",
      "rbac.helpers.enabled=true",
    ]);
    const released = objects(await helm(["get", "manifest", "gpubudget", "--namespace", NS]));
    expect(released.map(key).sort()).toEqual(deployed.map(key).sort());
    for (const o of released) {
      const got = await live(o);
      expect(got.metadata.labels?.["app.kubernetes.io/managed-by"], key(o)).toBe("Helm");
      expect(essence(got), key(o)).toEqual(before.get(key(o)));
    }
    const status = await helm(["status", "gpubudget", "--namespace", NS]);
    expect(status).toContain("STATUS: deployed");
    await helm(["uninstall", "gpubudget", "--namespace", NS]);
    // crd.keep: the CRD outlives the release, as Kubebuilder's chart keeps it.
    await kubectl(["get", "crd", "gpubudgets.capacity.lab.example.com"]);
  }, 240_000);
});
