import type { int32, ObjectMeta } from "@kbts/runtime";

export interface Settings {
  // host is where to connect.
  host: string;
  // port is where to connect.
  // +kubebuilder:validation:Minimum=1
  port: int32;
  // debug turns on logging.
  debug: boolean;
}

export interface ConfigSpec {
  // overrides are partial settings.
  // +optional
  overrides?: Partial<Settings>;
  // endpoint picks host and port.
  endpoint: Pick<Settings, "host" | "port">;
  // flags omit host and port.
  // +optional
  flags?: Omit<Settings, "host" | "port">;
  // strict makes every setting required.
  // +optional
  strict?: Required<Partial<Settings>>;
}

// +kubebuilder:object:root=true
// Config is a test kind.
export interface Config {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ConfigSpec;
}
