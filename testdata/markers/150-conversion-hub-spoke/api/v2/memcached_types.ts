import type { Condition, int32, ObjectMeta } from "@kbts/runtime";

// ImageSpec names a container image.
export interface ImageSpec {
  // repository is the image without its tag.
  // +kubebuilder:validation:MinLength=1
  repository: string;
  // tag is the image tag.
  // +optional
  tag?: string;
}

export interface MemcachedSpec {
  // size is the number of memcached pods.
  // +kubebuilder:validation:Minimum=0
  // +optional
  size?: int32;
  // image is the container image, by repository and tag.
  // +optional
  image?: ImageSpec;
}

export interface MemcachedStatus {
  // conditions represent the current state of the Memcached resource.
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Image",type=string,JSONPath=".spec.image.repository"
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
