import type { int32, ObjectMeta } from "@kbts/runtime";

// Shape has a title of its own.
// +kubebuilder:title="A shape"
export interface Shape {
  // +optional
  sides?: int32;
}

export interface SketchSpec {
  // color shows an example.
  // +kubebuilder:example=teal
  // +kubebuilder:title=Colour
  // +optional
  color?: string;
  // width shows a numeric example.
  // +kubebuilder:example=12
  // +optional
  width?: int32;
  // shape shows an object example and inherits the type title.
  // +kubebuilder:example={sides: 4}
  // +optional
  shape?: Shape;
}

// +kubebuilder:object:root=true
// Sketch is a test kind.
export interface Sketch {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: SketchSpec;
}
