package v1

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:validation:Type=string
// Flag is a boolean that marshals itself as a string.
type Flag bool

// MarshalJSON implements json.Marshaler.
func (f Flag) MarshalJSON() ([]byte, error) { return json.Marshal(strconv.FormatBool(bool(f))) }

// +kubebuilder:validation:Type=string
// Link is a URL that marshals itself as a string: its parts are not the schema.
type Link struct {
	url.URL
}

// MarshalJSON implements json.Marshaler.
func (l *Link) MarshalJSON() ([]byte, error) { return json.Marshal(l.String()) }

// +kubebuilder:validation:Type=object
// +kubebuilder:pruning:PreserveUnknownFields
// Bag keeps every field it is given: its one known field is not the schema.
type Bag struct {
	Known string            `json:"known"`
	Rest  map[string]string `json:"rest,omitempty"`
}

// MarshalJSON implements json.Marshaler.
func (b *Bag) MarshalJSON() ([]byte, error) {
	full := map[string]any{"known": b.Known}
	for k, v := range b.Rest {
		full[k] = v
	}
	return json.Marshal(full)
}

// +kubebuilder:validation:Type=integer
// +kubebuilder:validation:Format=int64
// Stamp is a time that marshals itself as Unix milliseconds.
type Stamp time.Time

// MarshalJSON implements json.Marshaler.
func (s *Stamp) MarshalJSON() ([]byte, error) {
	return strconv.AppendInt(nil, (*time.Time)(s).UnixMilli(), 10), nil
}

// Span marshals itself but has no Type marker: its fields are the schema.
type Span struct {
	// value is in nanoseconds.
	Value int64 `json:"value"`
}

// MarshalJSON implements json.Marshaler.
func (s Span) MarshalJSON() ([]byte, error) {
	type plain Span
	return json.Marshal(plain(s))
}

// Host is an IPv4 address that serializes itself as text (Go: an encoding.TextMarshaler): a string.
type Host [4]byte

// MarshalText implements encoding.TextMarshaler.
func (h Host) MarshalText() ([]byte, error) {
	return []byte(fmt.Sprintf("%d.%d.%d.%d", h[0], h[1], h[2], h[3])), nil
}

type BeaconSpec struct {
	// +optional
	Enabled *Flag `json:"enabled,omitempty"`
	// link says where.
	// +optional
	Link *Link `json:"link,omitempty"`
	// +optional
	Extra *Bag `json:"extra,omitempty"`
	// +optional
	Stamp *Stamp `json:"stamp,omitempty"`
	// +optional
	Span *Span `json:"span,omitempty"`
	// +optional
	Host *Host `json:"host,omitempty"`
}

// +kubebuilder:object:root=true
// Beacon is a test kind.
type Beacon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +optional
	Spec BeaconSpec `json:"spec,omitempty"`
}
