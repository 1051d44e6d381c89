import type { int32, ObjectMeta } from "@kbts/runtime";

// Hostname is a lowercase DNS name.
// +kubebuilder:validation:MinLength=1
// +kubebuilder:validation:MaxLength=253
// +kubebuilder:validation:Pattern=`^[a-z0-9.-]+$`
export type Hostname = string;

// Percent is between 0 and 100.
// +kubebuilder:validation:Minimum=0
// +kubebuilder:validation:Maximum=100
export type Percent = int32;

// HostList holds at most three hostnames.
// +kubebuilder:validation:MaxItems=3
// +listType=set
export type HostList = Hostname[];

export interface RouteSpec {
  // host uses the named type's validation.
  host: Hostname;
  // weight adds a field marker on top of the type's.
  // +kubebuilder:default=50
  // +optional
  weight?: Percent;
  // mirrors uses a named list type.
  // +optional
  mirrors?: HostList;
}

// +kubebuilder:object:root=true
// Route is a test kind.
export interface Route {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: RouteSpec;
}
