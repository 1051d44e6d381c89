import type { ObjectMeta } from "@kbts/runtime";

// Weekday is a day of the working week.
export type Weekday = "Mon" | "Tue" | "Wed" | "Thu" | "Fri";

export interface RotaSpec {
  // days lists the working days, each from the Weekday union.
  // +listType=set
  // +optional
  days?: Weekday[];
  // shifts maps a day to a shift name.
  // +optional
  shifts?: Record<string, "early" | "late">;
}

// +kubebuilder:object:root=true
// Rota is a test kind.
export interface Rota {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: RotaSpec;
}
