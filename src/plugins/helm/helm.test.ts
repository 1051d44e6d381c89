import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readTree } from "../../../testdata/golden.js";
import { runEdit } from "../../commands/edit.js";
import { runInit } from "../../commands/index.js";

const FIXTURE = readFileSync(join(import.meta.dirname, "../../../testdata/helm/install.yaml"), "utf8");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kbts-helm-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string) => readFileSync(join(dir, path), "utf8");
const write = (path: string, text: string) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
};

async function project(install = FIXTURE): Promise<void> {
  await runInit(dir, {
    domain: "example.com",
    repo: "example.com/multiversion",
    projectName: "multiversion",
    runtime: "registry",
  });
  write("dist/install.yaml", install);
}

const edit = (flags: { force?: boolean; manifests?: string; outputDir?: string } = {}) =>
  runEdit(dir, { plugins: ["helm/v2-alpha"], ...flags });

describe("kbts edit --plugins helm/v2-alpha", () => {
  it("needs the kustomize output, names make build-installer, and writes nothing without it", async () => {
    await project();
    rmSync(join(dir, "dist/install.yaml"));
    const before = readTree(dir);
    await expect(edit()).rejects.toMatchObject({
      where: "dist/install.yaml",
      fix: expect.stringContaining("make build-installer"),
    });
    await expect(edit({ manifests: "out/missing.yaml" })).rejects.toMatchObject({ where: "--manifests" });
    expect(readTree(dir)).toEqual(before);
  });

  it("writes Kubebuilder's chart layout and values from the kustomize output", async () => {
    await project();
    const result = await edit();
    const tree = readTree(dir);
    const chart = [...tree.keys()].filter((p) => p.startsWith("dist/chart/")).sort();
    expect(chart).toEqual([
      "dist/chart/.helmignore",
      "dist/chart/Chart.yaml",
      "dist/chart/templates/NOTES.txt",
      "dist/chart/templates/_helpers.tpl",
      "dist/chart/templates/cert-manager/metrics-certs.yaml",
      "dist/chart/templates/cert-manager/selfsigned-issuer.yaml",
      "dist/chart/templates/cert-manager/serving-cert.yaml",
      "dist/chart/templates/cert-rotation/webhook-cert-rotation.yaml",
      "dist/chart/templates/crd/memcacheds.cache.example.com.yaml",
      "dist/chart/templates/manager/manager.yaml",
      "dist/chart/templates/metrics/controller-manager-metrics-service.yaml",
      "dist/chart/templates/network-policy/allow-metrics-traffic.yaml",
      "dist/chart/templates/network-policy/allow-webhook-traffic.yaml",
      "dist/chart/templates/prometheus/controller-manager-metrics-monitor.yaml",
      "dist/chart/templates/rbac/controller-manager.yaml",
      "dist/chart/templates/rbac/leader-election-role.yaml",
      "dist/chart/templates/rbac/leader-election-rolebinding.yaml",
      "dist/chart/templates/rbac/manager-role.yaml",
      "dist/chart/templates/rbac/manager-rolebinding.yaml",
      "dist/chart/templates/rbac/memcached-admin-role.yaml",
      "dist/chart/templates/rbac/memcached-editor-role.yaml",
      "dist/chart/templates/rbac/memcached-viewer-role.yaml",
      "dist/chart/templates/rbac/metrics-auth-role.yaml",
      "dist/chart/templates/rbac/metrics-auth-rolebinding.yaml",
      "dist/chart/templates/rbac/metrics-reader.yaml",
      "dist/chart/templates/webhook/webhook-service.yaml",
      "dist/chart/values.yaml",
    ]);
    expect(result.next).toContain("helm lint dist/chart");

    const values = parse(read("dist/chart/values.yaml")) as Record<string, Record<string, unknown>>;
    expect(Object.keys(values)).toEqual([
      "manager",
      "rbac",
      "serviceAccount",
      "crd",
      "metrics",
      "certManager",
      "webhook",
      "prometheus",
      "networkPolicy",
    ]);
    expect(values.manager).toMatchObject({
      enabled: true,
      replicas: 1,
      image: { repository: "example.com/multiversion", tag: "v0.3.0", pullPolicy: "IfNotPresent" },
      args: ["--leader-elect"],
      healthProbe: { port: 8081 },
      env: [],
      envOverrides: {},
      resources: { limits: { cpu: "500m", memory: "256Mi" }, requests: { cpu: "10m", memory: "96Mi" } },
      affinity: {},
      nodeSelector: {},
      tolerations: [],
      terminationGracePeriodSeconds: 10,
    });
    expect(values.rbac).toEqual({ namespaced: false, helpers: { enabled: false } });
    expect(values.crd).toEqual({ enabled: true, keep: true });
    expect(values.metrics).toEqual({ enabled: true, port: 8443, secure: true });
    expect(values.certManager).toEqual({ enabled: true });
    expect(values.webhook).toEqual({ enabled: true, port: 9443 });
    expect(values.prometheus).toEqual({ enabled: false });
    expect(values.networkPolicy).toEqual({ enabled: false });

    expect(parse(read("dist/chart/Chart.yaml"))).toMatchObject({
      apiVersion: "v2",
      name: "multiversion",
      version: "0.1.0",
      appVersion: "0.3.0",
    });
    // The manager reads image, replicas, env overrides, scheduling and security from values.
    const manager = read("dist/chart/templates/manager/manager.yaml");
    for (const expr of [
      "replicas: {{ .Values.manager.replicas }}",
      ".Values.manager.image.repository",
      "{{ .Values.manager.image.tag | default .Chart.AppVersion }}",
      "imagePullPolicy: {{ .Values.manager.image.pullPolicy }}",
      "{{- with .Values.manager.resources }}",
      "{{- with .Values.manager.nodeSelector }}",
      "{{- with .Values.manager.tolerations }}",
      "{{- with .Values.manager.affinity }}",
      "{{- range $name, $value := $overrides }}",
      'serviceAccountName: {{ include "multiversion.serviceAccountName" . }}',
      "{{- if and .Values.certManager.enabled .Values.webhook.enabled }}\n        - --webhook-cert-path=/tmp/k8s-webhook-server/serving-certs",
      'name: {{ include "multiversion.resourceName" (dict "suffix" "controller-manager" "context" $) }}',
      "namespace: {{ .Release.Namespace }}",
    ]) {
      expect(manager, expr).toContain(expr);
    }
    expect(manager).not.toContain("multiversion-system");
    expect(manager).not.toContain("--leader-elect"); // in values.yaml's manager.args
    // Each optional part renders only when its value enables it.
    expect(read("dist/chart/templates/crd/memcacheds.cache.example.com.yaml")).toMatch(
      /^\{\{- if and \.Values\.crd\.enabled \(not \.Values\.webhook\.enabled\) \}\}\n\{\{- fail [^\n]+\n\{\{- end \}\}\n\{\{- if \.Values\.crd\.enabled \}\}\n/,
    );
    expect(read("dist/chart/templates/crd/memcacheds.cache.example.com.yaml")).toContain(
      '{{- if .Values.crd.keep }}\n    "helm.sh/resource-policy": keep',
    );
    expect(read("dist/chart/templates/rbac/memcached-editor-role.yaml")).toMatch(
      /^\{\{- if \.Values\.rbac\.helpers\.enabled \}\}\n/,
    );
    expect(read("dist/chart/templates/rbac/metrics-auth-role.yaml")).toMatch(
      /^\{\{- if and \.Values\.metrics\.enabled \.Values\.metrics\.secure \}\}\n/,
    );
    expect(read("dist/chart/templates/rbac/manager-role.yaml")).toContain(
      "{{- if .Values.rbac.namespaced }}\nkind: Role\n{{- else }}\nkind: ClusterRole\n{{- end }}",
    );
    expect(read("dist/chart/templates/webhook/webhook-service.yaml")).toMatch(
      /^\{\{- if \.Values\.webhook\.enabled \}\}\n/,
    );
    expect(read("dist/chart/templates/cert-manager/serving-cert.yaml")).toContain(
      '- {{ include "multiversion.resourceName" (dict "suffix" "webhook-service" "context" $) }}.{{ .Release.Namespace }}.svc',
    );
    // Without cert-manager the manager sets the conversion caBundle of the CRD it converts, by name.
    expect(read("dist/chart/templates/cert-rotation/webhook-cert-rotation.yaml")).toContain(
      '- apiGroups: ["apiextensions.k8s.io"]\n  resources: ["customresourcedefinitions"]\n  resourceNames: ["memcacheds.cache.example.com"]\n  verbs: ["get", "update"]\n---\n',
    );
    // PROJECT records the plugin; the Makefile gets the Helm targets; git keeps the chart.
    expect(parse(read("PROJECT")).plugins).toEqual({
      "helm.kbts.dev/v2-alpha": { manifests: "dist/install.yaml", output: "dist" },
    });
    const makefile = read("Makefile");
    for (const target of [
      "install-helm",
      "helm-chart",
      "helm-deploy",
      "helm-uninstall",
      "helm-status",
      "helm-history",
      "helm-rollback",
    ]) {
      expect(makefile).toMatch(new RegExp(`^${target}:`, "m"));
    }
    expect(makefile).toContain("HELM_NAMESPACE ?= multiversion-system");
    expect(read(".gitignore")).toContain("dist/*\n!dist/chart/\n");
  });

  it("regenerates the templates but keeps values.yaml and Chart.yaml the user edited; --force all but Chart.yaml", async () => {
    await project();
    await edit();
    const first = readTree(dir);
    write("dist/chart/values.yaml", "# mine\n");
    write("dist/chart/Chart.yaml", "# my versions\n");
    write("dist/chart/templates/manager/manager.yaml", "# stale\n");
    const again = await edit();
    expect(read("dist/chart/values.yaml")).toBe("# mine\n");
    expect(read("dist/chart/Chart.yaml")).toBe("# my versions\n");
    expect(read("dist/chart/templates/manager/manager.yaml")).toBe(
      first.get("dist/chart/templates/manager/manager.yaml"),
    );
    expect(again.next).toContain("Kept");
    expect(again.next).toContain("dist/chart/values.yaml");
    // The Makefile section is added once.
    expect(read("Makefile").split("##@ Helm Deployment").length).toBe(2);
    await edit({ force: true });
    expect(read("dist/chart/values.yaml")).toBe(first.get("dist/chart/values.yaml"));
    expect(read("dist/chart/Chart.yaml")).toBe("# my versions\n");
    // Deterministic: the same input writes the same chart.
    rmSync(join(dir, "dist/chart"), { recursive: true });
    await edit();
    expect(readTree(dir)).toEqual(first);
  });

  it("escapes template syntax found in the manifests and leaves custom resources out", async () => {
    const withBraces = FIXTURE.replace(
      "description: Memcached is the Schema for the memcacheds API",
      'description: "Memcached is the Schema for the memcacheds API, e.g. {{ .name }}"',
    );
    const sample =
      "---\napiVersion: cache.example.com/v1\nkind: Memcached\nmetadata:\n  name: sample\n  namespace: default\n";
    await project(withBraces + sample);
    const result = await edit();
    expect(read("dist/chart/templates/crd/memcacheds.cache.example.com.yaml")).toContain(
      'e.g. {{ "{{" }} .name {{ "}}" }}',
    );
    expect(result.next).toContain("Memcached sample");
  });

  it("names the file and line of bad YAML, and a missing manager", async () => {
    await project("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n---\nkind: [\n");
    await expect(edit()).rejects.toMatchObject({
      where: expect.stringMatching(/^dist\/install\.yaml:\d+:\d+$/),
    });
    write("dist/install.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
    await expect(edit()).rejects.toMatchObject({
      message: expect.stringContaining("no Deployment"),
      fix: expect.stringContaining("make build-installer"),
    });
  });

  it("reads --manifests and writes to --output-dir, remembered in PROJECT", async () => {
    await project();
    write("out/all.yaml", FIXTURE);
    rmSync(join(dir, "dist/install.yaml"));
    await edit({ manifests: "out/all.yaml", outputDir: "charts" });
    expect(readTree(dir).has("charts/chart/values.yaml")).toBe(true);
    expect(parse(read("PROJECT")).plugins).toEqual({
      "helm.kbts.dev/v2-alpha": { manifests: "out/all.yaml", output: "charts" },
    });
    await expect(edit({ outputDir: "../elsewhere" })).rejects.toMatchObject({ where: "--output-dir" });
  });
});

describe("kbts init --plugins helm/v2-alpha", () => {
  it("scaffolds the base project, the chart files that need no manifests, the Makefile targets and PROJECT", async () => {
    await runInit(dir, {
      domain: "example.com",
      repo: "example.com/fleet",
      projectName: "fleet",
      runtime: "registry",
      plugins: ["helm/v2-alpha"],
    });
    const tree = readTree(dir);
    expect(tree.has("cmd/main.ts")).toBe(true);
    expect([...tree.keys()].filter((p) => p.startsWith("dist/")).sort()).toEqual([
      "dist/chart/.helmignore",
      "dist/chart/Chart.yaml",
      "dist/chart/templates/NOTES.txt",
      "dist/chart/templates/_helpers.tpl",
    ]);
    const config = parse(read("PROJECT"));
    expect(config.layout).toEqual(["typescript.kbts.dev/v1", "helm.kbts.dev/v2-alpha"]);
    expect(config.plugins).toEqual({
      "helm.kbts.dev/v2-alpha": { manifests: "dist/install.yaml", output: "dist" },
    });
    expect(read("Makefile")).toContain("HELM_NAMESPACE ?= fleet-system");
    expect(read("dist/chart/templates/_helpers.tpl")).toContain('{{- define "fleet.resourceName" -}}');
  });

  it("carries the write guards: the policy matches the release's ServiceAccount, the binding its policy", async () => {
    const user = "system:serviceaccount:multiversion-system:multiversion-controller-manager";
    const guards = `---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: multiversion-manager-guard-namespaces
spec:
  failurePolicy: Fail
  matchConditions:
  - expression: request.userInfo.username == '${user}'
    name: manager-service-account
  validations:
  - expression: object.spec == oldObject.spec
    message: spec
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: multiversion-manager-guard-namespaces
spec:
  policyName: multiversion-manager-guard-namespaces
  validationActions:
  - Deny
`;
    await project(`${FIXTURE.trimEnd()}\n${guards}`);
    await edit();
    const policy = read("dist/chart/templates/rbac/manager-guard-namespaces.yaml");
    expect(policy).toContain(
      `- expression: "request.userInfo.username == 'system:serviceaccount:{{ .Release.Namespace }}:{{ include "multiversion.serviceAccountName" . }}'"`,
    );
    expect(policy).not.toContain(user);
    const binding = read(
      "dist/chart/templates/rbac/manager-guard-namespaces-validatingadmissionpolicybinding.yaml",
    );
    expect(binding).toContain(
      `policyName: {{ include "multiversion.resourceName" (dict "suffix" "manager-guard-namespaces" "context" $) }}`,
    );
  });
});
