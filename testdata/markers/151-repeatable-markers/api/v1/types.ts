import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Endpoint {
  name: string;
  port: int32;
  // +optional
  protocol?: string;
}

// Endpoints is keyed by name and port.
// +k8s:listType=map
// +k8s:listMapKey=name
// +k8s:listMapKey=port
export type Endpoints = Endpoint[];

// TunnelSpec: every marker here is given twice, and each instance counts.
// +kubebuilder:validation:AtMostOneOf=primary;backup
// +kubebuilder:validation:AtMostOneOf=cache;mirror
// +kubebuilder:validation:ExactlyOneOf=region;zone
// +kubebuilder:validation:ExactlyOneOf=tier;grade
// +kubebuilder:validation:AtLeastOneOf=owner;team
// +kubebuilder:validation:AtLeastOneOf=email;pager
// +kubebuilder:validation:XValidation:rule="!has(self.primary) || self.primary != 'none'",message="primary may not be none"
// +kubebuilder:validation:XValidation:rule="!has(self.backup) || self.backup != 'none'",message="backup may not be none"
export interface TunnelSpec {
  // routes is keyed by name and port (+listMapKey twice).
  // +listType=map
  // +listMapKey=name
  // +listMapKey=port
  routes: Endpoint[];
  // backends is keyed by name and port (+k8s:listMapKey twice).
  // +k8s:listType=map
  // +k8s:listMapKey=name
  // +k8s:listMapKey=port
  backends: Endpoint[];
  // +optional
  mirrors?: Endpoints;
  // hostnames: each item is checked by two rules.
  // +kubebuilder:validation:MaxItems=16
  // +kubebuilder:validation:items:MaxLength=64
  // +kubebuilder:validation:items:XValidation:rule="self.size() > 1",message="too short"
  // +kubebuilder:validation:items:XValidation:rule="!self.startsWith('-')",message="starts with a dash"
  // +optional
  hostnames?: string[];
  // +optional
  primary?: string;
  // +optional
  backup?: string;
  // +optional
  cache?: string;
  // +optional
  mirror?: string;
  // +optional
  region?: string;
  // +optional
  zone?: string;
  // +optional
  tier?: string;
  // +optional
  grade?: string;
  // +optional
  owner?: string;
  // +optional
  team?: string;
  // +optional
  email?: string;
  // +optional
  pager?: string;
}

// +kubebuilder:object:root=true
// +kubebuilder:printcolumn:name="Region",type=string,JSONPath=".spec.region"
// +kubebuilder:printcolumn:name="Zone",type=string,JSONPath=".spec.zone"
// +kubebuilder:metadata:annotations="example.com/a=1";"example.com/b=2"
// +kubebuilder:metadata:annotations="example.com/c=3"
// +kubebuilder:metadata:labels="tier=edge"
// +kubebuilder:selectablefield:JSONPath=`.spec.region`
// +kubebuilder:selectablefield:JSONPath=`.spec.zone`
// Tunnel is a test kind.
export interface Tunnel {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: TunnelSpec;
}
