export type * from "./core.js";
export { hours, milliseconds, minutes, parseDuration, seconds, toMilliseconds } from "./duration.js";
export * from "./kinds.js";
// Each kind is both a descriptor (value) and an object type in kinds.ts; naming them here resolves the
// clash with the same-named interfaces in core.ts in favour of kinds.ts, which exports both meanings.
export {
  ClusterRole,
  ClusterRoleBinding,
  ConfigMap,
  CustomResourceDefinition,
  DaemonSet,
  Deployment,
  Event,
  Job,
  Lease,
  MutatingWebhookConfiguration,
  Namespace,
  Pod,
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
