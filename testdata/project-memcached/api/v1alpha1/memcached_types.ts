/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import type { Condition, int32, ListMeta, ObjectMeta } from "@kbts/runtime";

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: fields are serialized under the names they have here; `?` (or +optional) makes a field optional.

// MemcachedSpec defines the desired state of Memcached
export interface MemcachedSpec {
  // INSERT ADDITIONAL SPEC FIELDS - desired state of cluster
  // Important: Run "make manifests" to regenerate code after modifying this file
  // The following markers will use OpenAPI v3 schema to validate the value
  // More info: https://book.kubebuilder.io/reference/markers/crd-validation.html

  // size defines the number of Memcached instances
  // +kubebuilder:default=1
  // +kubebuilder:validation:Minimum=0
  // +optional
  size?: int32;

  // containerPort defines the port that will be used to init the container with the image
  // +required
  containerPort: int32;
}

// MemcachedStatus defines the observed state of Memcached.
export interface MemcachedStatus {
  // For Kubernetes API conventions, see:
  // https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#typical-status-properties

  // conditions represent the current state of the Memcached resource.
  // Each condition has a unique type and reflects the status of a specific aspect of the resource.
  //
  // The controller sets these (from its dependents' workflow):
  // - "Ready": every dependent (the Deployment) is applied and ready
  // - "Progressing": a dependent is applied and not ready yet
  // - "Degraded": a dependent could not be applied
  //
  // The status of each condition is one of True, False, or Unknown.
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// Memcached is the Schema for the memcacheds API
export interface Memcached {
  apiVersion?: string;
  kind?: string;
  // metadata is a standard object metadata
  // +optional
  metadata?: ObjectMeta;
  // spec defines the desired state of Memcached
  // +required
  spec: MemcachedSpec;
  // status defines the observed state of Memcached
  // +optional
  status?: MemcachedStatus;
}

// +kubebuilder:object:root=true
// MemcachedList contains a list of Memcached
export interface MemcachedList {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: Memcached[];
}
