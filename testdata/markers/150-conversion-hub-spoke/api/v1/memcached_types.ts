import type { Condition, int32, ObjectMeta } from "@kbts/runtime";

export interface MemcachedSpec {
  // size is the number of memcached pods (replicas in v1alpha1).
  // +kubebuilder:validation:Minimum=0
  // +optional
  size?: int32;
  // image is the container image, e.g. memcached:1.6.26.
  // +optional
  image?: string;
}

export interface MemcachedStatus {
  // conditions represent the current state of the Memcached resource.
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Size",type=integer,JSONPath=".spec.size"
// Memcached is a kind in three versions: v1 is the conversion hub, v1alpha1 and v2 its spokes.
export interface Memcached {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: MemcachedSpec;
  // +optional
  status?: MemcachedStatus;
}
