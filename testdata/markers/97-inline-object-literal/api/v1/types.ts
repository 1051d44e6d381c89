import type { int32, ObjectMeta } from "@kbts/runtime";

export interface PanelSpec {
  // size is an inline object type.
  size: {
    // width in pixels.
    // +kubebuilder:validation:Minimum=1
    width: int32;
    // +optional
    height?: int32;
  };
  // tags is a list of inline objects.
  // +optional
  tags?: { key: string; value?: string }[];
}

// +kubebuilder:object:root=true
// Panel is a test kind.
export interface Panel {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: PanelSpec;
}
