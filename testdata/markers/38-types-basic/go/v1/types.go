package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Item struct {
	// sku identifies the item.
	SKU string `json:"sku"`
	// +optional
	Count int32 `json:"count,omitempty"`
}

type StoreSpec struct {
	// name is a string.
	Name string `json:"name"`
	// open is a boolean.
	Open bool `json:"open"`
	// floors is a 32-bit integer.
	Floors int32 `json:"floors"`
	// revenue is a 64-bit integer.
	// +optional
	Revenue int64 `json:"revenue,omitempty"`
	// aisles is a list of strings.
	// +optional
	Aisles []string `json:"aisles,omitempty"`
	// items is a list of structs.
	// +optional
	Items []Item `json:"items,omitempty"`
	// featured is a single struct.
	// +optional
	Featured *Item `json:"featured,omitempty"`
	// codes is a list of 64-bit integers.
	// +optional
	Codes []int64 `json:"codes,omitempty"`
}

// +kubebuilder:object:root=true

// Store is a test kind.
type Store struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec StoreSpec `json:"spec,omitempty"`
}
