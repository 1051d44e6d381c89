package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Endpoint struct {
	Name string `json:"name"`
	Port int32  `json:"port"`
	// +optional
	Protocol string `json:"protocol,omitempty"`
}

// Endpoints is keyed by name and port.
// +k8s:listType=map
// +k8s:listMapKey=name
// +k8s:listMapKey=port
type Endpoints []Endpoint

// TunnelSpec: every marker here is given twice, and each instance counts.
// +kubebuilder:validation:AtMostOneOf=primary;backup
// +kubebuilder:validation:AtMostOneOf=cache;mirror
// +kubebuilder:validation:ExactlyOneOf=region;zone
// +kubebuilder:validation:ExactlyOneOf=tier;grade
// +kubebuilder:validation:AtLeastOneOf=owner;team
// +kubebuilder:validation:AtLeastOneOf=email;pager
// +kubebuilder:validation:XValidation:rule="!has(self.primary) || self.primary != 'none'",message="primary may not be none"
// +kubebuilder:validation:XValidation:rule="!has(self.backup) || self.backup != 'none'",message="backup may not be none"
type TunnelSpec struct {
	// routes is keyed by name and port (+listMapKey twice).
	// +listType=map
	// +listMapKey=name
	// +listMapKey=port
	Routes []Endpoint `json:"routes"`
	// backends is keyed by name and port (+k8s:listMapKey twice).
	// +k8s:listType=map
	// +k8s:listMapKey=name
	// +k8s:listMapKey=port
	Backends []Endpoint `json:"backends"`
	// +optional
	Mirrors Endpoints `json:"mirrors,omitempty"`
	// hostnames: each item is checked by two rules.
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:MaxLength=64
	// +kubebuilder:validation:items:XValidation:rule="self.size() > 1",message="too short"
	// +kubebuilder:validation:items:XValidation:rule="!self.startsWith('-')",message="starts with a dash"
	// +optional
	Hostnames []string `json:"hostnames,omitempty"`
	// +optional
	Primary *string `json:"primary,omitempty"`
	// +optional
	Backup *string `json:"backup,omitempty"`
	// +optional
	Cache *string `json:"cache,omitempty"`
	// +optional
	Mirror *string `json:"mirror,omitempty"`
	// +optional
	Region *string `json:"region,omitempty"`
	// +optional
	Zone *string `json:"zone,omitempty"`
	// +optional
	Tier *string `json:"tier,omitempty"`
	// +optional
	Grade *string `json:"grade,omitempty"`
	// +optional
	Owner *string `json:"owner,omitempty"`
	// +optional
	Team *string `json:"team,omitempty"`
	// +optional
	Email *string `json:"email,omitempty"`
	// +optional
	Pager *string `json:"pager,omitempty"`
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
type Tunnel struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec TunnelSpec `json:"spec,omitempty"`
}
