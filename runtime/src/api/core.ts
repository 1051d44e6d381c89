/**
 * JSON-shaped types of the built-in resources operators touch most, as they travel on the wire
 * (timestamps are RFC 3339 strings, quantities strings or numbers). They are deliberately partial:
 * the fields an operator reads and writes, not every field of the Go types. Unknown fields survive
 * a round trip through the client because objects are plain JSON.
 */
import type {
  Condition,
  IntOrString,
  int32,
  int64,
  KubernetesObject,
  LabelSelector,
  LocalObjectReference,
  MicroTime,
  ObjectMeta,
  ObjectReference,
  Quantity,
  Time,
} from "./meta.js";

// ---------------------------------------------------------------------------------------------
// core/v1: pods and their building blocks

export interface ResourceRequirements {
  limits?: Record<string, Quantity>;
  requests?: Record<string, Quantity>;
}

export interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath: string;
}

export interface ResourceFieldSelector {
  containerName?: string;
  resource: string;
  divisor?: Quantity;
}

export interface KeySelector {
  name?: string;
  key: string;
  optional?: boolean;
}

export interface EnvVarSource {
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  configMapKeyRef?: KeySelector;
  secretKeyRef?: KeySelector;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource;
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

export interface ContainerPort {
  name?: string;
  containerPort: int32;
  hostPort?: int32;
  hostIP?: string;
  protocol?: "TCP" | "UDP" | "SCTP";
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  subPath?: string;
  readOnly?: boolean;
  mountPropagation?: string;
}

export interface HTTPGetAction {
  path?: string;
  port: IntOrString;
  host?: string;
  scheme?: "HTTP" | "HTTPS";
  httpHeaders?: { name: string; value: string }[];
}

export interface Probe {
  exec?: { command?: string[] };
  httpGet?: HTTPGetAction;
  tcpSocket?: { port: IntOrString; host?: string };
  grpc?: { port: int32; service?: string };
  initialDelaySeconds?: int32;
  timeoutSeconds?: int32;
  periodSeconds?: int32;
  successThreshold?: int32;
  failureThreshold?: int32;
  terminationGracePeriodSeconds?: int64;
}

export interface Capabilities {
  add?: string[];
  drop?: string[];
}

export interface SeccompProfile {
  type: "RuntimeDefault" | "Unconfined" | "Localhost";
  localhostProfile?: string;
}

export interface SecurityContext {
  capabilities?: Capabilities;
  privileged?: boolean;
  runAsUser?: int64;
  runAsGroup?: int64;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  seccompProfile?: SeccompProfile;
}

export interface PodSecurityContext {
  runAsUser?: int64;
  runAsGroup?: int64;
  runAsNonRoot?: boolean;
  fsGroup?: int64;
  supplementalGroups?: int64[];
  seccompProfile?: SeccompProfile;
}

export interface Lifecycle {
  postStart?: { exec?: { command?: string[] }; httpGet?: HTTPGetAction };
  preStop?: { exec?: { command?: string[] }; httpGet?: HTTPGetAction };
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  resources?: ResourceRequirements;
  volumeMounts?: VolumeMount[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: Lifecycle;
  imagePullPolicy?: "Always" | "IfNotPresent" | "Never";
  securityContext?: SecurityContext;
  restartPolicy?: "Always";
  terminationMessagePath?: string;
  terminationMessagePolicy?: "File" | "FallbackToLogsOnError";
  stdin?: boolean;
  tty?: boolean;
}

export interface KeyToPath {
  key: string;
  path: string;
  mode?: int32;
}

export interface Volume {
  name: string;
  configMap?: { name?: string; items?: KeyToPath[]; defaultMode?: int32; optional?: boolean };
  secret?: { secretName?: string; items?: KeyToPath[]; defaultMode?: int32; optional?: boolean };
  emptyDir?: { medium?: string; sizeLimit?: Quantity };
  hostPath?: { path: string; type?: string };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  projected?: { sources?: Record<string, unknown>[]; defaultMode?: int32 };
  downwardAPI?: { items?: Record<string, unknown>[]; defaultMode?: int32 };
}

export interface Toleration {
  key?: string;
  operator?: "Exists" | "Equal";
  value?: string;
  effect?: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
  tolerationSeconds?: int64;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt";
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey: string;
  namespaceSelector?: LabelSelector;
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] };
    preferredDuringSchedulingIgnoredDuringExecution?: { weight: int32; preference: NodeSelectorTerm }[];
  };
  podAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: { weight: int32; podAffinityTerm: PodAffinityTerm }[];
  };
  podAntiAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: { weight: int32; podAffinityTerm: PodAffinityTerm }[];
  };
}

export interface TopologySpreadConstraint {
  maxSkew: int32;
  topologyKey: string;
  whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway";
  labelSelector?: LabelSelector;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  restartPolicy?: "Always" | "OnFailure" | "Never";
  terminationGracePeriodSeconds?: int64;
  activeDeadlineSeconds?: int64;
  dnsPolicy?: string;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  securityContext?: PodSecurityContext;
  imagePullSecrets?: LocalObjectReference[];
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  tolerations?: Toleration[];
  priorityClassName?: string;
  priority?: int32;
  runtimeClassName?: string;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  /** Set only at creation; the scheduler leaves the pod alone until every gate is removed. */
  schedulingGates?: PodSchedulingGate[];
}

export interface PodSchedulingGate {
  name: string;
}

export interface PodCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastProbeTime?: Time;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: Time };
  terminated?: {
    exitCode: int32;
    signal?: int32;
    reason?: string;
    message?: string;
    startedAt?: Time;
    finishedAt?: Time;
    containerID?: string;
  };
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: int32;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
}

export interface PodStatus {
  phase?: "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown";
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  hostIP?: string;
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: Time;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: "Guaranteed" | "Burstable" | "BestEffort";
  /** The ResourceClaims made from the pod's ResourceClaimTemplates (Dynamic Resource Allocation). */
  resourceClaimStatuses?: { name: string; resourceClaimName?: string }[];
  /** The claim the scheduler made for the pod's DRA-backed extended resources (KEP-5004). */
  extendedResourceClaimStatus?: {
    resourceClaimName: string;
    requestMappings: { containerName: string; resourceName: string; requestName: string }[];
  };
}

export interface Pod extends KubernetesObject {
  spec?: PodSpec;
  status?: PodStatus;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

// ---------------------------------------------------------------------------------------------
// core/v1: other namespaced and cluster-scoped objects

export interface Namespace extends KubernetesObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: "Active" | "Terminating"; conditions?: Condition[] };
}

export interface ConfigMap extends KubernetesObject {
  data?: Record<string, string>;
  /** base64-encoded values. */
  binaryData?: Record<string, string>;
  immutable?: boolean;
}

export interface Secret extends KubernetesObject {
  /** base64-encoded values. */
  data?: Record<string, string>;
  /** Write-only convenience: plain strings merged into data by the API server. */
  stringData?: Record<string, string>;
  type?: string;
  immutable?: boolean;
}

export interface ServicePort {
  name?: string;
  protocol?: "TCP" | "UDP" | "SCTP";
  appProtocol?: string;
  port: int32;
  targetPort?: IntOrString;
  nodePort?: int32;
}

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName";
  externalName?: string;
  externalTrafficPolicy?: "Cluster" | "Local";
  sessionAffinity?: "ClientIP" | "None";
  publishNotReadyAddresses?: boolean;
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
}

export interface Service extends KubernetesObject {
  spec?: ServiceSpec;
  status?: {
    loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] };
    conditions?: Condition[];
  };
}

export interface ServiceAccount extends KubernetesObject {
  secrets?: ObjectReference[];
  imagePullSecrets?: LocalObjectReference[];
  automountServiceAccountToken?: boolean;
}

/** core/v1 Event (what `kubectl describe` shows; events.k8s.io/v1 is a different shape). */
export interface Event extends KubernetesObject {
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: Time;
  lastTimestamp?: Time;
  count?: int32;
  type?: "Normal" | "Warning";
  eventTime?: MicroTime;
  action?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
  series?: { count?: int32; lastObservedTime?: MicroTime };
}

export interface ResourceQuotaSpec {
  hard?: Record<string, Quantity>;
  scopes?: string[];
  scopeSelector?: {
    matchExpressions?: {
      scopeName: string;
      operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
      values?: string[];
    }[];
  };
}

export interface ResourceQuota extends KubernetesObject {
  spec?: ResourceQuotaSpec;
  status?: { hard?: Record<string, Quantity>; used?: Record<string, Quantity> };
}

export interface Taint {
  key: string;
  value?: string;
  effect: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
  timeAdded?: Time;
}

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
}

export interface NodeCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastHeartbeatTime?: Time;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface NodeAddress {
  type: "Hostname" | "ExternalIP" | "InternalIP" | "ExternalDNS" | "InternalDNS";
  address: string;
}

export interface NodeSystemInfo {
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
  kubeletVersion: string;
  operatingSystem: string;
  architecture: string;
}

export interface NodeStatus {
  capacity?: Record<string, Quantity>;
  allocatable?: Record<string, Quantity>;
  phase?: string;
  conditions?: NodeCondition[];
  addresses?: NodeAddress[];
  daemonEndpoints?: { kubeletEndpoint?: { Port: int32 } };
  nodeInfo?: NodeSystemInfo;
  images?: { names?: string[]; sizeBytes?: int64 }[];
}

/** core/v1 Node (cluster-scoped). */
export interface Node extends KubernetesObject {
  spec?: NodeSpec;
  status?: NodeStatus;
}

export interface PersistentVolumeClaimSpec {
  accessModes?: ("ReadWriteOnce" | "ReadOnlyMany" | "ReadWriteMany" | "ReadWriteOncePod")[];
  selector?: LabelSelector;
  resources?: ResourceRequirements;
  volumeName?: string;
  storageClassName?: string;
  volumeMode?: "Block" | "Filesystem";
  dataSource?: { apiGroup?: string; kind: string; name: string };
  volumeAttributesClassName?: string;
}

export interface PersistentVolumeClaim extends KubernetesObject {
  spec?: PersistentVolumeClaimSpec;
  status?: {
    phase?: "Pending" | "Bound" | "Lost";
    accessModes?: string[];
    capacity?: Record<string, Quantity>;
    conditions?: {
      type: string;
      status: "True" | "False" | "Unknown";
      lastProbeTime?: Time;
      lastTransitionTime?: Time;
      reason?: string;
      message?: string;
    }[];
  };
}

/** autoscaling/v1 Scale, served by the `scale` subresource. */
export interface Scale extends KubernetesObject {
  spec?: { replicas?: int32 };
  status?: { replicas: int32; selector?: string };
}

// ---------------------------------------------------------------------------------------------
// apps/v1 and batch/v1

export interface DeploymentSpec {
  replicas?: int32;
  selector: LabelSelector;
  template: PodTemplateSpec;
  strategy?: {
    type?: "Recreate" | "RollingUpdate";
    rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString };
  };
  minReadySeconds?: int32;
  revisionHistoryLimit?: int32;
  paused?: boolean;
  progressDeadlineSeconds?: int32;
}

/** The conditions of workload controllers (apps/v1, batch/v1) have optional reasons and an update time. */
export interface WorkloadCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastUpdateTime?: Time;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: int64;
  replicas?: int32;
  updatedReplicas?: int32;
  readyReplicas?: int32;
  availableReplicas?: int32;
  unavailableReplicas?: int32;
  conditions?: WorkloadCondition[];
}

export interface Deployment extends KubernetesObject {
  spec?: DeploymentSpec;
  status?: DeploymentStatus;
}

export interface PersistentVolumeClaimTemplate {
  metadata?: ObjectMeta;
  spec?: {
    accessModes?: string[];
    resources?: ResourceRequirements;
    storageClassName?: string;
    volumeMode?: string;
  };
}

export interface StatefulSetSpec {
  replicas?: int32;
  selector: LabelSelector;
  template: PodTemplateSpec;
  serviceName?: string;
  volumeClaimTemplates?: PersistentVolumeClaimTemplate[];
  podManagementPolicy?: "OrderedReady" | "Parallel";
  updateStrategy?: { type?: "RollingUpdate" | "OnDelete"; rollingUpdate?: { partition?: int32 } };
  minReadySeconds?: int32;
  revisionHistoryLimit?: int32;
}

export interface StatefulSet extends KubernetesObject {
  spec?: StatefulSetSpec;
  status?: {
    observedGeneration?: int64;
    replicas: int32;
    readyReplicas?: int32;
    currentReplicas?: int32;
    updatedReplicas?: int32;
    availableReplicas?: int32;
    currentRevision?: string;
    updateRevision?: string;
    conditions?: WorkloadCondition[];
  };
}

export interface DaemonSet extends KubernetesObject {
  spec?: {
    selector: LabelSelector;
    template: PodTemplateSpec;
    updateStrategy?: {
      type?: "RollingUpdate" | "OnDelete";
      rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString };
    };
    minReadySeconds?: int32;
    revisionHistoryLimit?: int32;
  };
  status?: {
    currentNumberScheduled: int32;
    numberMisscheduled: int32;
    desiredNumberScheduled: int32;
    numberReady: int32;
    observedGeneration?: int64;
    updatedNumberScheduled?: int32;
    numberAvailable?: int32;
    numberUnavailable?: int32;
    conditions?: WorkloadCondition[];
  };
}

export interface ReplicaSet extends KubernetesObject {
  spec?: {
    replicas?: int32;
    minReadySeconds?: int32;
    selector: LabelSelector;
    template?: PodTemplateSpec;
  };
  status?: {
    replicas: int32;
    fullyLabeledReplicas?: int32;
    readyReplicas?: int32;
    availableReplicas?: int32;
    terminatingReplicas?: int32;
    observedGeneration?: int64;
    conditions?: WorkloadCondition[];
  };
}

export interface JobSpec {
  template: PodTemplateSpec;
  parallelism?: int32;
  completions?: int32;
  activeDeadlineSeconds?: int64;
  backoffLimit?: int32;
  selector?: LabelSelector;
  manualSelector?: boolean;
  ttlSecondsAfterFinished?: int32;
  completionMode?: "NonIndexed" | "Indexed";
  suspend?: boolean;
}

export interface Job extends KubernetesObject {
  spec?: JobSpec;
  status?: {
    conditions?: WorkloadCondition[];
    startTime?: Time;
    completionTime?: Time;
    active?: int32;
    succeeded?: int32;
    failed?: int32;
    ready?: int32;
  };
}

export interface CronJobSpec {
  /** The schedule in Cron format, e.g. "*\/5 * * * *". */
  schedule: string;
  timeZone?: string;
  startingDeadlineSeconds?: int64;
  concurrencyPolicy?: "Allow" | "Forbid" | "Replace";
  suspend?: boolean;
  jobTemplate: { metadata?: ObjectMeta; spec?: JobSpec };
  successfulJobsHistoryLimit?: int32;
  failedJobsHistoryLimit?: int32;
}

export interface CronJob extends KubernetesObject {
  spec?: CronJobSpec;
  status?: {
    active?: ObjectReference[];
    lastScheduleTime?: Time;
    lastSuccessfulTime?: Time;
  };
}

// ---------------------------------------------------------------------------------------------
// networking.k8s.io/v1

export interface IngressBackend {
  service?: { name: string; port?: { name?: string; number?: int32 } };
  resource?: { apiGroup?: string; kind: string; name: string };
}

export interface HTTPIngressPath {
  path?: string;
  pathType: "Exact" | "Prefix" | "ImplementationSpecific";
  backend: IngressBackend;
}

export interface IngressRule {
  host?: string;
  http?: { paths: HTTPIngressPath[] };
}

export interface IngressSpec {
  ingressClassName?: string;
  defaultBackend?: IngressBackend;
  tls?: { hosts?: string[]; secretName?: string }[];
  rules?: IngressRule[];
}

export interface Ingress extends KubernetesObject {
  spec?: IngressSpec;
  status?: {
    loadBalancer?: {
      ingress?: {
        ip?: string;
        hostname?: string;
        ports?: { port: int32; protocol: "TCP" | "UDP" | "SCTP"; error?: string }[];
      }[];
    };
  };
}

// ---------------------------------------------------------------------------------------------
// coordination.k8s.io/v1

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: int32;
  acquireTime?: MicroTime;
  renewTime?: MicroTime;
  leaseTransitions?: int32;
}

export interface Lease extends KubernetesObject {
  spec?: LeaseSpec;
}

// ---------------------------------------------------------------------------------------------
// rbac.authorization.k8s.io/v1

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface RoleRef {
  apiGroup: string;
  kind: "Role" | "ClusterRole";
  name: string;
}

export interface Subject {
  kind: "User" | "Group" | "ServiceAccount";
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface Role extends KubernetesObject {
  rules?: PolicyRule[];
}

export interface ClusterRole extends KubernetesObject {
  rules?: PolicyRule[];
  aggregationRule?: { clusterRoleSelectors?: LabelSelector[] };
}

export interface RoleBinding extends KubernetesObject {
  subjects?: Subject[];
  roleRef: RoleRef;
}

export interface ClusterRoleBinding extends KubernetesObject {
  subjects?: Subject[];
  roleRef: RoleRef;
}

// ---------------------------------------------------------------------------------------------
// admissionregistration.k8s.io/v1

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: int32;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** base64-encoded PEM bundle. */
  caBundle?: string;
}

export interface RuleWithOperations {
  operations?: ("*" | "CREATE" | "UPDATE" | "DELETE" | "CONNECT")[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: "*" | "Cluster" | "Namespaced";
}

export interface MatchCondition {
  name: string;
  expression: string;
}

export interface ValidatingWebhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: "Ignore" | "Fail";
  matchPolicy?: "Exact" | "Equivalent";
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects: "None" | "NoneOnDryRun" | "Some" | "Unknown";
  timeoutSeconds?: int32;
  admissionReviewVersions: string[];
  matchConditions?: MatchCondition[];
}

export interface MutatingWebhook extends ValidatingWebhook {
  reinvocationPolicy?: "Never" | "IfNeeded";
}

export interface ValidatingWebhookConfiguration extends KubernetesObject {
  webhooks?: ValidatingWebhook[];
}

export interface MutatingWebhookConfiguration extends KubernetesObject {
  webhooks?: MutatingWebhook[];
}

// ---------------------------------------------------------------------------------------------
// apiextensions.k8s.io/v1

/** One x-kubernetes-validations entry: a CEL rule and how its failure is reported. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: "FieldValueInvalid" | "FieldValueForbidden" | "FieldValueRequired" | "FieldValueDuplicate";
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/**
 * An OpenAPI v3 schema as a CRD carries it (apiextensions/v1 JSONSchemaProps, JSON names, with the
 * x-kubernetes-* extensions): the one schema type of the runtime's fake API server and of kbts'
 * CRD generator.
 */
export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  title?: string;
  default?: unknown;
  example?: unknown;
  properties?: Record<string, JSONSchemaProps>;
  items?: JSONSchemaProps;
  additionalProperties?: JSONSchemaProps | boolean;
  required?: string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: int64;
  maxLength?: int64;
  minItems?: int64;
  maxItems?: int64;
  uniqueItems?: boolean;
  minProperties?: int64;
  maxProperties?: int64;
  pattern?: string;
  nullable?: boolean;
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  externalDocs?: { description?: string; url: string };
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-list-type"?: "atomic" | "set" | "map";
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: "atomic" | "granular";
  "x-kubernetes-validations"?: ValidationRule[];
}

/** One additional printer column of a CRD version (`kubectl get` output). */
export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
  format?: string;
  priority?: int32;
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: {
    status?: Record<string, never>;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  };
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: { jsonPath: string }[];
}

export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CustomResourceDefinition extends KubernetesObject {
  spec?: {
    group: string;
    names: CustomResourceDefinitionNames;
    scope: "Namespaced" | "Cluster";
    versions: CustomResourceDefinitionVersion[];
    conversion?: Record<string, unknown>;
    preserveUnknownFields?: boolean;
  };
  status?: {
    conditions?: {
      type: string;
      status: "True" | "False" | "Unknown";
      lastTransitionTime?: Time;
      reason?: string;
      message?: string;
    }[];
    acceptedNames?: CustomResourceDefinitionNames;
    storedVersions?: string[];
  };
}

// ---------------------------------------------------------------------------------------------
// meta/v1 Status: what the API server returns for errors and some deletes

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface Status extends KubernetesObject {
  status?: "Success" | "Failure";
  message?: string;
  reason?: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: StatusCause[];
    retryAfterSeconds?: int32;
  };
  code?: int32;
}
