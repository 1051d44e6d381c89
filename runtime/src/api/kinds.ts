/**
 * Kind descriptors of the built-in resources, each exported as a value (the descriptor passed to the
 * client, cache and builder: `client.get(Pod, key)`) and as a type of the same name (the object type),
 * so `import { Pod } from "@kbts/runtime"` gives both.
 */

import type * as t from "./core.js";
import { defineKind } from "./kind.js";

export type Pod = t.Pod;
export const Pod = defineKind<t.Pod>({
  group: "",
  version: "v1",
  kind: "Pod",
  plural: "pods",
  namespaced: true,
});
export type Namespace = t.Namespace;
export const Namespace = defineKind<t.Namespace>({
  group: "",
  version: "v1",
  kind: "Namespace",
  plural: "namespaces",
  namespaced: false,
});
export type ConfigMap = t.ConfigMap;
export const ConfigMap = defineKind<t.ConfigMap>({
  group: "",
  version: "v1",
  kind: "ConfigMap",
  plural: "configmaps",
  namespaced: true,
});
export type Secret = t.Secret;
export const Secret = defineKind<t.Secret>({
  group: "",
  version: "v1",
  kind: "Secret",
  plural: "secrets",
  namespaced: true,
});
export type Service = t.Service;
export const Service = defineKind<t.Service>({
  group: "",
  version: "v1",
  kind: "Service",
  plural: "services",
  namespaced: true,
});
export type ServiceAccount = t.ServiceAccount;
export const ServiceAccount = defineKind<t.ServiceAccount>({
  group: "",
  version: "v1",
  kind: "ServiceAccount",
  plural: "serviceaccounts",
  namespaced: true,
});
export type Event = t.Event;
export const Event = defineKind<t.Event>({
  group: "",
  version: "v1",
  kind: "Event",
  plural: "events",
  namespaced: true,
});
export type ResourceQuota = t.ResourceQuota;
export const ResourceQuota = defineKind<t.ResourceQuota>({
  group: "",
  version: "v1",
  kind: "ResourceQuota",
  plural: "resourcequotas",
  namespaced: true,
});
export type Node = t.Node;
export const Node = defineKind<t.Node>({
  group: "",
  version: "v1",
  kind: "Node",
  plural: "nodes",
  namespaced: false,
});
export type PersistentVolumeClaim = t.PersistentVolumeClaim;
export const PersistentVolumeClaim = defineKind<t.PersistentVolumeClaim>({
  group: "",
  version: "v1",
  kind: "PersistentVolumeClaim",
  plural: "persistentvolumeclaims",
  namespaced: true,
});
export type Deployment = t.Deployment;
export const Deployment = defineKind<t.Deployment>({
  group: "apps",
  version: "v1",
  kind: "Deployment",
  plural: "deployments",
  namespaced: true,
});
export type StatefulSet = t.StatefulSet;
export const StatefulSet = defineKind<t.StatefulSet>({
  group: "apps",
  version: "v1",
  kind: "StatefulSet",
  plural: "statefulsets",
  namespaced: true,
});
export type DaemonSet = t.DaemonSet;
export const DaemonSet = defineKind<t.DaemonSet>({
  group: "apps",
  version: "v1",
  kind: "DaemonSet",
  plural: "daemonsets",
  namespaced: true,
});
export type ReplicaSet = t.ReplicaSet;
export const ReplicaSet = defineKind<t.ReplicaSet>({
  group: "apps",
  version: "v1",
  kind: "ReplicaSet",
  plural: "replicasets",
  namespaced: true,
});
export type Job = t.Job;
export const Job = defineKind<t.Job>({
  group: "batch",
  version: "v1",
  kind: "Job",
  plural: "jobs",
  namespaced: true,
});
export type CronJob = t.CronJob;
export const CronJob = defineKind<t.CronJob>({
  group: "batch",
  version: "v1",
  kind: "CronJob",
  plural: "cronjobs",
  namespaced: true,
});
export type Ingress = t.Ingress;
export const Ingress = defineKind<t.Ingress>({
  group: "networking.k8s.io",
  version: "v1",
  kind: "Ingress",
  plural: "ingresses",
  namespaced: true,
});
export type Lease = t.Lease;
export const Lease = defineKind<t.Lease>({
  group: "coordination.k8s.io",
  version: "v1",
  kind: "Lease",
  plural: "leases",
  namespaced: true,
});
export type CustomResourceDefinition = t.CustomResourceDefinition;
export const CustomResourceDefinition = defineKind<t.CustomResourceDefinition>({
  group: "apiextensions.k8s.io",
  version: "v1",
  kind: "CustomResourceDefinition",
  plural: "customresourcedefinitions",
  namespaced: false,
});
export type ValidatingWebhookConfiguration = t.ValidatingWebhookConfiguration;
export const ValidatingWebhookConfiguration = defineKind<t.ValidatingWebhookConfiguration>({
  group: "admissionregistration.k8s.io",
  version: "v1",
  kind: "ValidatingWebhookConfiguration",
  plural: "validatingwebhookconfigurations",
  namespaced: false,
});
export type MutatingWebhookConfiguration = t.MutatingWebhookConfiguration;
export const MutatingWebhookConfiguration = defineKind<t.MutatingWebhookConfiguration>({
  group: "admissionregistration.k8s.io",
  version: "v1",
  kind: "MutatingWebhookConfiguration",
  plural: "mutatingwebhookconfigurations",
  namespaced: false,
});
export type Role = t.Role;
export const Role = defineKind<t.Role>({
  group: "rbac.authorization.k8s.io",
  version: "v1",
  kind: "Role",
  plural: "roles",
  namespaced: true,
});
export type RoleBinding = t.RoleBinding;
export const RoleBinding = defineKind<t.RoleBinding>({
  group: "rbac.authorization.k8s.io",
  version: "v1",
  kind: "RoleBinding",
  plural: "rolebindings",
  namespaced: true,
});
export type ClusterRole = t.ClusterRole;
export const ClusterRole = defineKind<t.ClusterRole>({
  group: "rbac.authorization.k8s.io",
  version: "v1",
  kind: "ClusterRole",
  plural: "clusterroles",
  namespaced: false,
});
export type ClusterRoleBinding = t.ClusterRoleBinding;
export const ClusterRoleBinding = defineKind<t.ClusterRoleBinding>({
  group: "rbac.authorization.k8s.io",
  version: "v1",
  kind: "ClusterRoleBinding",
  plural: "clusterrolebindings",
  namespaced: false,
});

/** The built-in descriptors above, for lookups by apiVersion and kind (e.g. when decoding owner references). */
export const builtinKinds = [
  Pod,
  Namespace,
  ConfigMap,
  Secret,
  Service,
  ServiceAccount,
  Event,
  ResourceQuota,
  Node,
  PersistentVolumeClaim,
  Deployment,
  StatefulSet,
  DaemonSet,
  ReplicaSet,
  Job,
  CronJob,
  Ingress,
  Lease,
  CustomResourceDefinition,
  ValidatingWebhookConfiguration,
  MutatingWebhookConfiguration,
  Role,
  RoleBinding,
  ClusterRole,
  ClusterRoleBinding,
] as const;
