/**
 * What values.yaml starts from: the manager Deployment's settings (image, replicas, args, env,
 * resources, scheduling, security) and which optional parts the kustomize output has (CRDs, webhooks,
 * cert-manager, metrics, Prometheus, network policies), as Kubebuilder's helm/v2-alpha reads them.
 */
import {
  type InstallManifests,
  type JsonMap,
  type KubeObject,
  managerContainer,
  podSpec,
} from "./manifests.js";

export interface ManagerValues {
  replicas: number;
  image: { repository: string; tag: string; pullPolicy: string };
  /** Args other than the ones the chart writes from values (metrics, health probe, webhook, certificates). */
  args: string[];
  env: JsonMap[];
  imagePullSecrets: JsonMap[];
  podSecurityContext?: JsonMap;
  securityContext?: JsonMap;
  resources?: JsonMap;
  affinity?: JsonMap;
  nodeSelector?: JsonMap;
  tolerations: JsonMap[];
  strategy?: JsonMap;
  priorityClassName?: string;
  topologySpreadConstraints: JsonMap[];
  terminationGracePeriodSeconds?: number;
  healthProbePort: number;
}

export interface Features {
  crds: boolean;
  webhooks: boolean;
  /** The output has cert-manager objects (Issuer, Certificates). */
  certManager: boolean;
  metrics: boolean;
  metricsPort: number;
  metricsSecure: boolean;
  webhookPort: number;
  prometheus: boolean;
  networkPolicy: boolean;
  /** The manager's own RBAC is a Role (kbts init --namespaced). */
  namespacedRbac: boolean;
}

export interface Extraction {
  manager: ManagerValues;
  features: Features;
}

/** Args the chart writes itself from metrics/healthProbe/webhook/certManager values. */
export const CHART_ARGS = [
  "--metrics-bind-address",
  "--metrics-secure",
  "--health-probe-bind-address",
  "--webhook-port",
  "--webhook-cert-path",
  "--metrics-cert-path",
  "--webhook-cert-secret",
  "--webhook-service-name",
];

export function argName(arg: string): string {
  return arg.split("=")[0] ?? arg;
}

function argValue(args: string[], name: string): string | undefined {
  const found = args.find((a) => argName(a) === name);
  return found?.includes("=") ? found.slice(found.indexOf("=") + 1) : undefined;
}

function port(address: string | undefined, fallback: number): number {
  const n = Number(address?.split(":").pop());
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function extract(install: InstallManifests): Extraction {
  const container = managerContainer(install.manager) ?? {};
  const spec = podSpec(install.manager) ?? {};
  const deploymentSpec = (install.manager.spec as JsonMap | undefined) ?? {};
  const args = ((container.args as unknown[] | undefined) ?? []).map(String);
  const [repository, tag] = splitImage(String(container.image ?? "controller"));
  const metricsAddress = argValue(args, "--metrics-bind-address");
  const ports = (container.ports as JsonMap[] | undefined) ?? [];
  const webhookPort = ports.find((p) => p.name === "webhook-server")?.containerPort;
  const has = (kind: string) => install.objects.some((o) => o.kind === kind);
  const named = (kind: string, suffix: string) =>
    install.objects.some((o) => o.kind === kind && o.metadata.name.endsWith(suffix));
  const managerRole = install.objects.find(
    (o) =>
      (o.kind === "Role" || o.kind === "ClusterRole") && o.metadata.name === `${install.prefix}-manager-role`,
  );
  return {
    manager: {
      replicas: typeof deploymentSpec.replicas === "number" ? deploymentSpec.replicas : 1,
      image: {
        repository,
        tag: tag === "latest" ? "" : tag,
        pullPolicy:
          typeof container.imagePullPolicy === "string" ? container.imagePullPolicy : "IfNotPresent",
      },
      args: args.filter((a) => !CHART_ARGS.includes(argName(a))),
      env: (container.env as JsonMap[] | undefined) ?? [],
      imagePullSecrets: (spec.imagePullSecrets as JsonMap[] | undefined) ?? [],
      podSecurityContext: spec.securityContext as JsonMap | undefined,
      securityContext: container.securityContext as JsonMap | undefined,
      resources: container.resources as JsonMap | undefined,
      affinity: spec.affinity as JsonMap | undefined,
      nodeSelector: spec.nodeSelector as JsonMap | undefined,
      tolerations: (spec.tolerations as JsonMap[] | undefined) ?? [],
      strategy: deploymentSpec.strategy as JsonMap | undefined,
      priorityClassName: spec.priorityClassName as string | undefined,
      topologySpreadConstraints: (spec.topologySpreadConstraints as JsonMap[] | undefined) ?? [],
      terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds as number | undefined,
      healthProbePort: port(argValue(args, "--health-probe-bind-address"), 8081),
    },
    features: {
      crds: has("CustomResourceDefinition"),
      webhooks:
        has("ValidatingWebhookConfiguration") ||
        has("MutatingWebhookConfiguration") ||
        named("Service", "webhook-service"),
      certManager: install.objects.some((o) => o.apiVersion.startsWith("cert-manager.io/")),
      metrics: named("Service", "metrics-service") && metricsAddress !== undefined && metricsAddress !== "0",
      metricsPort: port(metricsAddress, 8443),
      metricsSecure: argValue(args, "--metrics-secure") !== "false",
      webhookPort: typeof webhookPort === "number" ? webhookPort : 9443,
      prometheus: has("ServiceMonitor"),
      networkPolicy: has("NetworkPolicy"),
      namespacedRbac: managerRole?.kind === "Role",
    },
  };
}

/** "repo:tag" → [repo, tag]; a digest or no tag keeps the whole reference as the repository. */
export function splitImage(image: string): [string, string] {
  if (image.includes("@")) return [image, ""];
  const slash = image.lastIndexOf("/");
  const colon = image.lastIndexOf(":");
  if (colon > slash) return [image.slice(0, colon), image.slice(colon + 1)];
  return [image, ""];
}

/** Objects by the config/ folder they came from: the chart's templates/ mirror it, as Kubebuilder's. */
export function chartFolder(o: KubeObject): string {
  const name = o.metadata.name;
  switch (o.kind) {
    case "CustomResourceDefinition":
      return "crd";
    case "ServiceAccount":
    case "Role":
    case "ClusterRole":
    case "RoleBinding":
    case "ClusterRoleBinding":
    // The write guards of config/rbac/write_guards.yaml (+kbts:guard): part of the manager's permissions.
    case "ValidatingAdmissionPolicy":
    case "ValidatingAdmissionPolicyBinding":
      return "rbac";
    case "Deployment":
      return name.endsWith("-controller-manager") ? "manager" : "extras";
    case "ValidatingWebhookConfiguration":
    case "MutatingWebhookConfiguration":
      return "webhook";
    case "Service":
      if (name.endsWith("webhook-service")) return "webhook";
      if (name.endsWith("metrics-service")) return "metrics";
      return "extras";
    case "Certificate":
    case "Issuer":
      return o.apiVersion.startsWith("cert-manager.io/") ? "cert-manager" : "extras";
    case "ServiceMonitor":
      return "prometheus";
    case "NetworkPolicy":
      return "network-policy";
    default:
      return "extras";
  }
}
