/**
 * The kustomize output the chart is made from (`make build-installer`'s dist/install.yaml): its
 * objects, which one is the manager Deployment, and the name prefix and namespace kustomize gave
 * them (config/default's namePrefix and namespace), which the chart turns into release-relative names.
 */
import { LineCounter, parseAllDocuments } from "yaml";
import { KbtsError } from "../../errors.js";
import { yamlErrorText, yamlErrorWhere, yamlLine } from "../../yaml/where.js";

export type JsonMap = Record<string, unknown>;

export interface KubeObject extends JsonMap {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> } & JsonMap;
}

export interface InstallManifests {
  /** Every object except the Namespace (helm install --create-namespace makes it), in file order. */
  objects: KubeObject[];
  /** The controller-manager Deployment. */
  manager: KubeObject;
  /** kustomize's namePrefix without the dash ("project-v1"): the manager is <prefix>-controller-manager. */
  prefix: string;
  /** The manager's namespace (config/default's namespace), which becomes the release namespace. */
  namespace: string;
  /** Custom resources (samples) found in the file: a chart does not ship them. */
  skipped: KubeObject[];
}

const MANAGER_SUFFIX = "-controller-manager";

/** Parses install.yaml text; `file` names it in errors. */
export function parseInstallManifests(text: string, file: string): InstallManifests {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines });
  const objects: KubeObject[] = [];
  const crdKinds = new Set<string>();
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) {
      throw new KbtsError(`not valid YAML: ${yamlErrorText(error)}`, {
        where: yamlErrorWhere(file, error),
        fix: "regenerate it with make build-installer",
      });
    }
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    const line = yamlLine(lines, doc.contents) ?? 1;
    if (!isKubeObject(value)) {
      throw new KbtsError("a document is not a Kubernetes object (apiVersion, kind and metadata.name)", {
        where: `${file}:${line}`,
        fix: "give the chart the output of kustomize (make build-installer writes dist/install.yaml)",
      });
    }
    if (value.kind === "CustomResourceDefinition") {
      const spec = value.spec as { group?: string; names?: { kind?: string } } | undefined;
      crdKinds.add(`${spec?.group}/${spec?.names?.kind}`);
    }
    objects.push(value);
  }
  const deployments = objects.filter((o) => o.kind === "Deployment");
  const manager =
    deployments.find((d) => d.metadata.labels?.["control-plane"] === "controller-manager") ??
    deployments.find((d) => d.metadata.name.endsWith(MANAGER_SUFFIX));
  if (!manager) {
    throw new KbtsError(
      deployments.length === 0
        ? "no Deployment in the kustomize output: the chart has no manager to install"
        : `${deployments.length} Deployments, none of them the controller-manager`,
      {
        where: file,
        fix:
          deployments.length === 0
            ? "run make build-installer (config/default must include ../manager)"
            : 'label the manager Deployment "control-plane: controller-manager" in config/manager/manager.yaml',
      },
    );
  }
  const namespace = manager.metadata.namespace ?? "default";
  const prefix = manager.metadata.name.endsWith(MANAGER_SUFFIX)
    ? manager.metadata.name.slice(0, -MANAGER_SUFFIX.length)
    : manager.metadata.name;
  const skipped: KubeObject[] = [];
  const kept: KubeObject[] = [];
  for (const o of objects) {
    if (o.kind === "Namespace") continue;
    const group = o.apiVersion.includes("/") ? o.apiVersion.split("/")[0] : "";
    if (crdKinds.has(`${group}/${o.kind}`)) skipped.push(o);
    else kept.push(o);
  }
  return { objects: kept, manager, prefix, namespace, skipped };
}

function isKubeObject(value: unknown): value is KubeObject {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const o = value as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } };
  return (
    typeof o.apiVersion === "string" &&
    typeof o.kind === "string" &&
    typeof o.metadata === "object" &&
    o.metadata !== null &&
    typeof o.metadata.name === "string"
  );
}

/** The manager container: the Deployment's default-container annotation, else "manager", else the first. */
export function managerContainer(manager: KubeObject): JsonMap | undefined {
  const spec = podSpec(manager);
  const containers = (spec?.containers as JsonMap[] | undefined) ?? [];
  const template = (manager.spec as JsonMap | undefined)?.template as JsonMap | undefined;
  const annotations = (template?.metadata as JsonMap | undefined)?.annotations as
    | Record<string, string>
    | undefined;
  const wanted = annotations?.["kubectl.kubernetes.io/default-container"] ?? "manager";
  return containers.find((c) => c.name === wanted) ?? containers[0];
}

/** spec.template.spec of a Deployment. */
export function podSpec(deployment: KubeObject): JsonMap | undefined {
  const template = (deployment.spec as JsonMap | undefined)?.template as JsonMap | undefined;
  return template?.spec as JsonMap | undefined;
}
