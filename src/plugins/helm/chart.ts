/**
 * The chart's files, as Kubebuilder's helm/v2-alpha lays them out in <output>/chart: Chart.yaml
 * (never overwritten: its versions are the user's), values.yaml, .helmignore, templates/_helpers.tpl,
 * NOTES.txt and the default NetworkPolicy/ServiceMonitor templates (kept unless --force), and one
 * folder of templates per config/ folder of the kustomize output (always regenerated).
 */
import { stringify } from "yaml";
import { compareStrings } from "../../compare.js";
import type { Scaffold } from "../../scaffold/scaffold.js";
import type { IfExists, TemplateFile } from "../../scaffold/template.js";
import { chartFolder, type Extraction, extract } from "./extract.js";
import type { InstallManifests, KubeObject } from "./manifests.js";
import { type ChartNames, templatize } from "./templatize.js";

const SET = "plugins/helm";

export interface ChartOptions {
  /** The chart's folder: <output-dir>/chart. */
  chartDir: string;
  projectName: string;
  /** Regenerate values.yaml, .helmignore, _helpers.tpl, NOTES.txt and the default templates too. */
  force: boolean;
}

/** Files every chart has, whose content depends only on the project name (written at init too). */
const BASE_FILES = [".helmignore", "templates/_helpers.tpl", "templates/NOTES.txt"];

function file(path: string, ifExists: IfExists): TemplateFile {
  return { template: `${SET}/{{chartDir}}/${path}.hbs`, set: SET, ifExists };
}

/** Template data of the static chart files. */
function baseData(options: ChartOptions, appVersion = "0.1.0") {
  return {
    chartDir: options.chartDir,
    chartName: options.projectName,
    projectName: options.projectName,
    appVersion,
  };
}

/** Writes Chart.yaml and the files that do not depend on the kustomize output (kbts init). */
export function scaffoldChartBase(scaffold: Scaffold, options: ChartOptions): void {
  const policy: IfExists = options.force ? "overwrite" : "skip";
  const data = baseData(options);
  scaffold.template(file("Chart.yaml", "skip"), data);
  for (const path of BASE_FILES) scaffold.template(file(path, policy), data);
}

/** The whole chart from the kustomize output (kbts edit). */
export function scaffoldChart(
  scaffold: Scaffold,
  install: InstallManifests,
  options: ChartOptions,
): string[] {
  const extraction = extract(install);
  const policy: IfExists = options.force ? "overwrite" : "skip";
  const tag = extraction.manager.image.tag;
  const data = baseData(options, tag && /^v?\d/.test(tag) ? tag.replace(/^v/, "") : "0.1.0");
  scaffold.template(file("Chart.yaml", "skip"), data);
  for (const path of BASE_FILES) scaffold.template(file(path, policy), data);
  scaffold.template(file("values.yaml", policy), { ...data, ...valuesData(extraction) });
  const { features } = extraction;
  if (!features.networkPolicy) {
    scaffold.template(file("templates/network-policy/allow-metrics-traffic.yaml", policy), data);
    if (features.webhooks) {
      scaffold.template(file("templates/network-policy/allow-webhook-traffic.yaml", policy), data);
    }
  }
  if (!features.prometheus) {
    scaffold.template(file("templates/prometheus/controller-manager-metrics-monitor.yaml", policy), data);
  }
  if (features.webhooks) {
    // kbts' certificate rotation without cert-manager: part of the chart's own logic, always current.
    scaffold.template(file("templates/cert-rotation/webhook-cert-rotation.yaml", "overwrite"), {
      ...data,
      conversionCRDs: conversionCRDs(install)
        .map((n) => `"${n}"`)
        .join(", "),
    });
  }
  const names = chartNames(install, options.projectName);
  const written: string[] = [];
  for (const [path, objects] of templateFiles(install)) {
    const body = objects.map((o) => templatize(names, o)).join("---\n");
    const target = `${options.chartDir}/templates/${path}`;
    scaffold.fs.write(target, body);
    written.push(target);
  }
  return written;
}

/** The CRDs whose conversion webhook calls the project's Service: the manager sets their caBundle without cert-manager. */
export function conversionCRDs(install: InstallManifests): string[] {
  return install.objects
    .filter((o) => {
      const conversion = (
        o.spec as
          | { conversion?: { strategy?: string; webhook?: { clientConfig?: { service?: unknown } } } }
          | undefined
      )?.conversion;
      return (
        o.kind === "CustomResourceDefinition" &&
        conversion?.strategy === "Webhook" &&
        conversion.webhook?.clientConfig?.service !== undefined
      );
    })
    .map((o) => o.metadata.name)
    .sort();
}

export function chartNames(install: InstallManifests, chart: string): ChartNames {
  const serviceAccount =
    ((install.manager.spec as { template?: { spec?: { serviceAccountName?: string } } }).template?.spec
      ?.serviceAccountName as string | undefined) ?? `${install.prefix}-controller-manager`;
  const names = [
    ...new Set(
      install.objects
        .filter(
          (o) => o.kind !== "CustomResourceDefinition" && o.metadata.name.startsWith(`${install.prefix}-`),
        )
        .map((o) => o.metadata.name),
    ),
  ].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  return { chart, prefix: install.prefix, namespace: install.namespace, names, serviceAccount };
}

/** templates/<folder>/<file>: one object per file (named without the prefix), the manager in manager/manager.yaml. */
export function templateFiles(install: InstallManifests): Map<string, KubeObject[]> {
  const files = new Map<string, KubeObject[]>();
  for (const o of install.objects) {
    const folder = chartFolder(o);
    let name = o.metadata.name.startsWith(`${install.prefix}-`)
      ? o.metadata.name.slice(install.prefix.length + 1)
      : o.metadata.name;
    if (
      (o.kind === "Role" || o.kind === "RoleBinding") &&
      o.metadata.namespace &&
      o.metadata.namespace !== install.namespace
    ) {
      name = `${name}-${o.metadata.namespace}`;
    }
    const path = folder === "manager" ? "manager/manager.yaml" : `${folder}/${name}.yaml`;
    const list = files.get(path) ?? [];
    // Two objects of one name (a Role and a ClusterRole): the second goes in a file named by kind too.
    if (list.length > 0 && folder !== "manager") {
      files.set(`${folder}/${name}-${o.kind.toLowerCase()}.yaml`, [o]);
      continue;
    }
    list.push(o);
    files.set(path, list);
  }
  return new Map([...files.entries()].sort(([a], [b]) => compareStrings(a, b)));
}

/** values.yaml's data: each extracted block printed as YAML, indented under its key. */
function valuesData(e: Extraction): Record<string, unknown> {
  const block = (value: unknown, indent = "    ") =>
    value === undefined || (Array.isArray(value) && value.length === 0)
      ? ""
      : stringify(value, { indentSeq: false, lineWidth: 0 })
          .trimEnd()
          .split("\n")
          .map((l) => `${indent}${l}`)
          .join("\n");
  const m = e.manager;
  return {
    manager: m,
    features: e.features,
    certManager: e.features.webhooks || e.features.certManager,
    args: block(m.args),
    env: block(m.env),
    imagePullSecrets: block(m.imagePullSecrets),
    podSecurityContext: block(m.podSecurityContext),
    securityContext: block(m.securityContext),
    resources: block(m.resources),
    affinity: block(m.affinity),
    nodeSelector: block(m.nodeSelector),
    tolerations: block(m.tolerations),
    strategy: block(m.strategy),
    topologySpreadConstraints: block(m.topologySpreadConstraints),
    hasTerminationGracePeriod: m.terminationGracePeriodSeconds !== undefined,
  };
}
