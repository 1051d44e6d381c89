import type { ObjectMeta } from "@kbts/runtime";

// +kubebuilder:object:root=true
// Policy is a kind with an interesting plural.
export interface Policy {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Index is a kind with an interesting plural.
export interface Index {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Person is a kind with an interesting plural.
export interface Person {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Proxy is a kind with an interesting plural.
export interface Proxy {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Cactus is a kind with an interesting plural.
export interface Cactus {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Bus is a kind with an interesting plural.
export interface Bus {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Quiz is a kind with an interesting plural.
export interface Quiz {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Matrix is a kind with an interesting plural.
export interface Matrix {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Leaf is a kind with an interesting plural.
export interface Leaf {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Knife is a kind with an interesting plural.
export interface Knife {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Analysis is a kind with an interesting plural.
export interface Analysis {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Criterion is a kind with an interesting plural.
export interface Criterion {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Datum is a kind with an interesting plural.
export interface Datum {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Schema is a kind with an interesting plural.
export interface Schema {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Alias is a kind with an interesting plural.
export interface Alias {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Chassis is a kind with an interesting plural.
export interface Chassis {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Series is a kind with an interesting plural.
export interface Series {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Sheep is a kind with an interesting plural.
export interface Sheep {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Ox is a kind with an interesting plural.
export interface Ox {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Mouse is a kind with an interesting plural.
export interface Mouse {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Status is a kind with an interesting plural.
export interface Status {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Address is a kind with an interesting plural.
export interface Address {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Gateway is a kind with an interesting plural.
export interface Gateway {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Ingress is a kind with an interesting plural.
export interface Ingress {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Endpoints is a kind with an interesting plural.
export interface Endpoints {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Lease is a kind with an interesting plural.
export interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Box is a kind with an interesting plural.
export interface Box {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Hero is a kind with an interesting plural.
export interface Hero {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Photo is a kind with an interesting plural.
export interface Photo {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

// +kubebuilder:object:root=true
// Virus is a kind with an interesting plural.
export interface Virus {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}
