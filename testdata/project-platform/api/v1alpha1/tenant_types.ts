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

import type { Condition, ListMeta, ObjectMeta } from "@kbts/runtime";

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: fields are serialized under the names they have here; `?` (or +optional) makes a field optional.

// TenantSpec defines the desired state of Tenant
export interface TenantSpec {
  // INSERT ADDITIONAL SPEC FIELDS - desired state of cluster
  // Important: Run "make manifests" to regenerate code after modifying this file
  // The following markers will use OpenAPI v3 schema to validate the value
  // More info: https://book.kubebuilder.io/reference/markers/crd-validation.html

  // foo is an example field of Tenant. Edit tenant_types.ts to remove/update
  // +optional
  foo?: string;
}

// TenantStatus defines the observed state of Tenant.
export interface TenantStatus {
  // INSERT ADDITIONAL STATUS FIELD - define observed state of cluster
  // Important: Run "make manifests" to regenerate code after modifying this file

  // For Kubernetes API conventions, see:
  // https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#typical-status-properties

  // conditions represent the current state of the Tenant resource.
  // Each condition has a unique type and reflects the status of a specific aspect of the resource.
  //
  // Standard condition types include:
  // - "Available": the resource is fully functional
  // - "Progressing": the resource is being created or updated
  // - "Degraded": the resource failed to reach or maintain its desired state
  //
  // The status of each condition is one of True, False, or Unknown.
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// Tenant is the Schema for the tenants API
export interface Tenant {
  apiVersion?: string;
  kind?: string;
  // metadata is a standard object metadata
  // +optional
  metadata?: ObjectMeta;
  // spec defines the desired state of Tenant
  // +required
  spec: TenantSpec;
  // status defines the observed state of Tenant
  // +optional
  status?: TenantStatus;
}

// +kubebuilder:object:root=true
// TenantList contains a list of Tenant
export interface TenantList {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: Tenant[];
}
