import type { ObjectMeta } from "@kbts/runtime";

export interface PluginSpec {
  // name of the plugin.
  name: string;
  // config is any JSON value the plugin understands.
  // +kubebuilder:pruning:PreserveUnknownFields
  // +optional
  config?: unknown;
  // defaults is any JSON value, kept as given.
  // +kubebuilder:pruning:PreserveUnknownFields
  // +optional
  defaults?: unknown;
}

// +kubebuilder:object:root=true
// Plugin is a test kind.
export interface Plugin {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: PluginSpec;
}
