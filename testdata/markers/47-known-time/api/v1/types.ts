import type { Duration, MicroTime, ObjectMeta, Time } from "@kbts/runtime";

export interface ClockSpec {
  // startedAt is a Time.
  // +optional
  startedAt?: Time;
  // tick is a MicroTime.
  // +optional
  tick?: MicroTime;
  // period is a Duration.
  // +optional
  period?: Duration;
  // history is a list of times.
  // +optional
  history?: Time[];
}

// +kubebuilder:object:root=true
// Clock is a test kind.
export interface Clock {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  // +optional
  spec?: ClockSpec;
}
