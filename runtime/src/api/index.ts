export type * from "./core.js";
export { hours, milliseconds, minutes, parseDuration, seconds, toMilliseconds } from "./duration.js";
export * from "./kinds.js";
// Each kind is both a descriptor (value) and an object type in kinds.ts; naming them here resolves the
// clash with the same-named interfaces in core.ts in favour of kinds.ts, which exports both meanings.
export {
  ClusterRole,
  ClusterRoleBinding,
  ConfigMap,
  CronJob,
  CustomResourceDefinition,
  DaemonSet,
  Deployment,
  Event,
  Ingress,
  Job,
  Lease,
  MutatingWebhookConfiguration,
  Namespace,
  Node,
  PersistentVolumeClaim,
  Pod,
  ReplicaSet,
  ResourceQuota,
  Role,
  RoleBinding,
  Secret,
  Service,
  ServiceAccount,
  StatefulSet,
  ValidatingWebhookConfiguration,
} from "./kinds.js";
export type * from "./meta.js";
