/**
 * The write guards on a real kube-apiserver: the GPUBudget project's generated RBAC and
 * config/rbac/write_guards.yaml, built by kustomize as `make deploy` builds them (namePrefix and
 * namespace applied), then requests made as the operator's ServiceAccount (impersonated: the API
 * server authorizes and admits the impersonated user, so RBAC and the policy see exactly that account).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments, stringify } from "yaml";
import { eventually } from "../../e2e/support/eventually.js";
import { generateManifests } from "../manifests/generate.js";

const run = promisify(execFile);
const golden = new URL("../../testdata/project-gpubudget", import.meta.url).pathname;
const LABEL = "capacity.lab.example.com/gpubudget-enforcement";
const PSA = "pod-security.kubernetes.io/enforce";
const SYSTEM = "gpubudget-system";
const OPERATOR = `system:serviceaccount:${SYSTEM}:gpubudget-controller-manager`;
const OTHER = `system:serviceaccount:${SYSTEM}:other`;
/** What `make deploy` installs that decides who may write namespaces. */
const KINDS = new Set([
  "Namespace",
  "ServiceAccount",
  "ClusterRole",
  "ClusterRoleBinding",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
]);

let env: Environment;
let dir: string;
const kubectl = (...args: string[]) =>
  run(join(process.env.KUBEBUILDER_ASSETS ?? "", "kubectl"), ["--kubeconfig", env.kubeconfigPath, ...args]);
/** A merge patch of one namespace's metadata as `user`: "patched", or the API server's refusal. */
const patchAs = (user: string, ns: string, metadata: Record<string, unknown>) =>
  kubectl("--as", user, "patch", "namespace", ns, "--type=merge", "-p", JSON.stringify({ metadata })).then(
    () => "patched",
    (e: { stderr?: string }) => e.stderr ?? String(e),
  );
const labels = async (ns: string) =>
  (
    JSON.parse((await kubectl("get", "namespace", ns, "-o", "json")).stdout) as {
      metadata: { labels?: Record<string, string> };
    }
  ).metadata.labels ?? {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kbts-guards-"));
  const [started, { files }] = await Promise.all([startEnvironment(), generateManifests({ root: golden })]);
  env = started;
  cpSync(join(golden, "config"), join(dir, "config"), { recursive: true });
  for (const [rel, text] of files) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  const { stdout } = await kubectl("kustomize", join(dir, "config/default"));
  const objects = parseAllDocuments(stdout)
    .map((d) => d.toJS() as { kind: string })
    .filter((o) => KINDS.has(o.kind));
  writeFileSync(join(dir, "deploy.yaml"), objects.map((o) => stringify(o)).join("---\n"));
  await kubectl("apply", "--server-side", "-f", join(dir, "deploy.yaml"));
  // Another account with the operator's very role, which no policy is bound to.
  await kubectl("create", "serviceaccount", "other", "-n", SYSTEM);
  await kubectl(
    "create",
    "clusterrolebinding",
    "other-manager",
    "--clusterrole=gpubudget-manager-role",
    `--serviceaccount=${SYSTEM}:other`,
  );
  for (const ns of ["team-a", "probe"]) await kubectl("create", "namespace", ns);
  // The policy takes effect when the API server's policy informer has it: until a probe is refused.
  // Each probe sets a new value: one admitted before that would make the same value a no-op.
  let probe = 0;
  await eventually("the write guard to refuse the operator's probe", async () => {
    const out = await patchAs(OPERATOR, "probe", { labels: { probe: String(++probe) } });
    return out.includes("ValidatingAdmissionPolicy") ? true : undefined;
  });
}, 180_000);
afterAll(async () => {
  await env?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("write guards: the GPUBudget operator's namespace label", () => {
  it("lets the operator set and remove its own label", async () => {
    expect(await patchAs(OPERATOR, "team-a", { labels: { [LABEL]: "Deny" } })).toBe("patched");
    expect((await labels("team-a"))[LABEL]).toBe("Deny");
    expect(await patchAs(OPERATOR, "team-a", { labels: { [LABEL]: null } })).toBe("patched");
    expect(await labels("team-a")).not.toHaveProperty(LABEL);
  });

  it("refuses the operator any other label, a Pod Security label, or an annotation, naming the field", async () => {
    const psa = await patchAs(OPERATOR, "team-a", { labels: { [PSA]: "privileged" } });
    expect(psa).toContain("gpubudget-manager-guard-namespaces");
    expect(psa).toContain(`this request changes metadata.labels['${PSA}']`);
    expect(psa).toContain(`fields=metadata.labels['${PSA}']`);
    expect(await patchAs(OPERATOR, "team-a", { labels: { team: "a" } })).toContain(
      "this request changes metadata.labels['team']",
    );
    expect(
      await patchAs(OPERATOR, "team-a", { labels: { [LABEL]: "Deny" }, annotations: { owner: "x" } }),
    ).toContain("this request changes metadata.annotations['owner']");
    // Removing a label it does not own is a change too (kubernetes.io/metadata.name would not do:
    // the API server puts that one back itself).
    await kubectl("label", "namespace", "team-a", "cost-center=42");
    expect(await patchAs(OPERATOR, "team-a", { labels: { "cost-center": null } })).toContain(
      "this request changes metadata.labels['cost-center']",
    );
    const now = await labels("team-a");
    expect(now).not.toHaveProperty(PSA);
    expect(now).not.toHaveProperty("team");
    expect(now).not.toHaveProperty(LABEL);
    expect(now["cost-center"]).toBe("42");
  });

  it("leaves another account with the same RBAC, and the admin, unaffected", async () => {
    expect(await patchAs(OTHER, "team-a", { labels: { [PSA]: "baseline" }, annotations: { a: "b" } })).toBe(
      "patched",
    );
    expect((await labels("team-a"))[PSA]).toBe("baseline");
    expect(
      await kubectl("label", "namespace", "team-a", `${PSA}-`).then(
        () => "patched",
        (e: { stderr?: string }) => e.stderr,
      ),
    ).toBe("patched");
  });
});
