import type { int32, ObjectMeta } from "@kbts/runtime";

export interface LightSpec {
  // color is one of three strings.
  // +kubebuilder:validation:Enum=Red;Amber;Green
  color: string;
  // level uses integer enum values.
  // +kubebuilder:validation:Enum=1;2;3
  // +optional
  level?: int32;
  // answer uses quoted values that look like other types.
  // +kubebuilder:validation:Enum="True";"False";"1"
  // +optional
  answer?: string;
  // mode uses the brace list form.
  // +kubebuilder:validation:Enum={fast,slow}
  // +optional
  mode?: string;
}

// +kubebuilder:object:root=true
// Light is a test kind.
export interface Light {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: LightSpec;
}
