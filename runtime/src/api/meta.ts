/**
 * JSON-shaped Kubernetes API types, as they travel on the wire (timestamps are RFC 3339 strings).
 * kbts' manifests generator recognises these names when they are imported from "@kbts/runtime"
 * and maps them exactly as controller-gen maps their Go twins (metav1.ObjectMeta, resource.Quantity, ...).
 */

/** A 32-bit integer field (`type: integer, format: int32` in a CRD). */
export type int32 = number;
/** A 64-bit integer field (`type: integer, format: int64` in a CRD). */
export type int64 = number;
/** Go's `int` (`type: integer` with no format in a CRD, as controller-gen writes it). */
export type int = number;
/** Go's `uint` (`type: integer` with no format, as `int`). */
export type uint = number;
/**
 * A type that marshals itself (Go's json.Marshaler): its CRD schema is only what the markers of the
 * type declaring it say (`+kubebuilder:validation:Type=string`, `+kubebuilder:pruning:PreserveUnknownFields`...),
 * as controller-gen does not look inside such a type; `T` is the value as the program sees it.
 * Without a `+kubebuilder:validation:Type` marker its schema is T's, as controller-gen then walks the Go type.
 *
 * ```ts
 * // +kubebuilder:validation:Type=object
 * // +kubebuilder:pruning:PreserveUnknownFields
 * export type Preserved = JSONMarshaler<{ concreteField: string }>;
 * ```
 */
export type JSONMarshaler<T = unknown> = T;
/**
 * A type that marshals itself as text (Go's encoding.TextMarshaler, e.g. a URL or an address): a string
 * in the CRD (`type: string`, no description of its own, as controller-gen writes it), also as a map key.
 */
export type TextMarshaler = string;
/** A floating-point field; CRDs allow it only with `--allow-dangerous-types`, as controller-gen does. */
export type float64 = number;
/** A float32 field (`type: number, format: float`... only with `--allow-dangerous-types`). */
export type float32 = number;

/** resource.Quantity: "1", "500m", "2Gi"; a number is accepted on input. */
export type Quantity = string | number;
/** intstr.IntOrString. */
export type IntOrString = string | number;
/** metav1.Time: an RFC 3339 timestamp with second precision. */
export type Time = string;
/** metav1.MicroTime: an RFC 3339 timestamp with microsecond precision. */
export type MicroTime = string;
/** metav1.Duration: a Go duration string such as "1m30s". */
export type Duration = string;
/** runtime.RawExtension: any embedded JSON object. */
export type RawExtension = Record<string, unknown>;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: Time;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: int64;
  creationTimestamp?: Time;
  deletionTimestamp?: Time;
  deletionGracePeriodSeconds?: int64;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: int64;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export type ConditionStatus = "True" | "False" | "Unknown";

/** metav1.Condition. */
export interface Condition {
  type: string;
  status: ConditionStatus;
  observedGeneration?: int64;
  lastTransitionTime: Time;
  reason: string;
  message: string;
}

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface LocalObjectReference {
  name?: string;
}

export interface TypedLocalObjectReference {
  apiGroup?: string;
  kind: string;
  name: string;
}

/** Every object the API server serves. */
export interface KubernetesObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/**
 * metav1.PartialObjectMetadata: an object with its metadata only (no spec, no status), what a
 * metadata-only watch caches and a `metadataOnly(Kind)` read returns. apiVersion and kind are those
 * of the object's own kind (e.g. "v1" / "Pod"), as controller-runtime sets them on cache reads.
 */
export interface PartialObjectMetadata extends KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
}

/** A list as the API server returns it. */
export interface KubernetesList<T extends KubernetesObject> {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: T[];
}
