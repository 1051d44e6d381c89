package v1

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type PluginSpec struct {
	// name of the plugin.
	Name string `json:"name"`
	// config is any JSON value the plugin understands.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Config *apiextensionsv1.JSON `json:"config,omitempty"`
	// defaults is any JSON value, kept as given.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Defaults apiextensionsv1.JSON `json:"defaults,omitempty"`
}

// +kubebuilder:object:root=true

// Plugin is a test kind.
type Plugin struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec PluginSpec `json:"spec,omitempty"`
}
