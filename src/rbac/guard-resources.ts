import type { JSONSchemaProps } from "@kbts/runtime";

/**
 * The top-level fields of the built-in resources a guard may narrow: a guard compares every field it
 * does not allow, so kbts must know them all. Nested fields of built-in kinds are not known here (a
 * guard allows such a field as a whole); a project's own kinds are known to the leaf from their CRD.
 */
const opaque: JSONSchemaProps = {};
const fields = (...names: string[]): JSONSchemaProps => ({
  type: "object",
  properties: Object.fromEntries(names.map((n) => [n, opaque])),
});
const specStatus = fields("spec", "status");

export const BUILTIN_RESOURCES: Record<string, Record<string, JSONSchemaProps>> = {
  "": {
    namespaces: specStatus,
    nodes: specStatus,
    services: specStatus,
    pods: specStatus,
    persistentvolumes: specStatus,
    persistentvolumeclaims: specStatus,
    configmaps: fields("data", "binaryData", "immutable"),
    secrets: fields("data", "stringData", "type", "immutable"),
    serviceaccounts: fields("secrets", "imagePullSecrets", "automountServiceAccountToken"),
    endpoints: fields("subsets"),
  },
  apps: {
    deployments: specStatus,
    statefulsets: specStatus,
    daemonsets: specStatus,
    replicasets: specStatus,
  },
  batch: { jobs: specStatus, cronjobs: specStatus },
  "networking.k8s.io": { ingresses: specStatus, networkpolicies: fields("spec") },
  "coordination.k8s.io": { leases: fields("spec") },
  policy: { poddisruptionbudgets: specStatus },
};

/** The metadata fields a write can change; the rest are server-managed or immutable. */
export const WRITABLE_METADATA = ["labels", "annotations", "finalizers", "ownerReferences"];
