package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Knobs struct {
	// +kubebuilder:default=3
	// +optional
	Retries int32 `json:"retries,omitempty"`
	// +optional
	Mode string `json:"mode,omitempty"`
}

type PanelSpec struct {
	// knobs defaults to an empty object so nested defaults apply.
	// +kubebuilder:default={}
	// +optional
	Knobs Knobs `json:"knobs,omitempty"`
	// preset defaults to an object with values.
	// +kubebuilder:default={retries: 5, mode: fast}
	// +optional
	Preset Knobs `json:"preset,omitempty"`
	// zones defaults to a list.
	// +kubebuilder:default={a,b,c}
	// +optional
	Zones []string `json:"zones,omitempty"`
	// empty defaults to an empty list.
	// +kubebuilder:default={}
	// +optional
	Empty []string `json:"empty,omitempty"`
	// labels defaults to a map.
	// +kubebuilder:default={app: demo, tier: web}
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// steps defaults to a list of objects, in JSON.
	// +default=[{"retries":1},{"retries":2,"mode":"slow"}]
	// +optional
	Steps []Knobs `json:"steps,omitempty"`
}

// +kubebuilder:object:root=true

// Panel is a test kind.
type Panel struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec PanelSpec `json:"spec,omitempty"`
}
