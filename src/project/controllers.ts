import { KbtsError } from "../errors.js";
import type { Resource } from "./config.js";

/**
 * Named controllers of one kind (Kubebuilder's `create api --controller-name`, pkg/model/resource
 * controller.go): the name picks the controller's file, its reconciler class and its runtime name.
 * A controller named after the kind (or not named) is the kind's usual one: `<kind>_controller.ts`,
 * `<Kind>Reconciler`, so a project's first controller looks the same either way.
 */

/** A DNS-1035 label, as Kubebuilder requires of a controller name. */
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export function validateControllerName(name: string): void {
  if (name.length > 63 || !DNS1035_LABEL.test(name)) {
    throw new KbtsError(`invalid controller name ${JSON.stringify(name)}`, {
      where: "--controller-name",
      fix: "use a DNS-1035 label: at most 63 lowercase letters, digits and '-', starting with a letter and ending with a letter or digit (e.g. memcached-backup)",
    });
  }
}

/** The names of a resource's controllers: the list, else the kind's name for the legacy `controller: true`. */
export function controllerNames(r: Pick<Resource, "kind" | "controller" | "controllers">): string[] {
  if (r.controllers?.length) return r.controllers.map((c) => c.name);
  return r.controller ? [r.kind.toLowerCase()] : [];
}

/** What two names that would make the same reconciler class have in common. */
export function controllerIdentity(name: string): string {
  return name.replace(/[^a-zA-Z0-9]/g, "").toLowerCase();
}

/** The file's base name: `memcached`, `memcached_backup` (…_controller.ts). */
export function controllerFileName(name: string | undefined, kind: string): string {
  return (name ?? kind.toLowerCase()).replaceAll("-", "_");
}

/** The reconciler class: `MemcachedReconciler`, or `MemcachedBackupReconciler` for memcached-backup. */
export function reconcilerName(name: string | undefined, kind: string): string {
  if (name === undefined || name === kind.toLowerCase()) return `${kind}Reconciler`;
  const pascal = name
    .split("-")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
  return `${pascal}Reconciler`;
}

/** The runtime name (`.named(...)`, logs, metrics): prefixed with the group in a multigroup project. */
export function runtimeControllerName(
  name: string | undefined,
  kind: string,
  group: string,
  multigroup: boolean,
): string {
  const base = name ?? kind.toLowerCase();
  return multigroup && group !== "" ? `${group}-${base}` : base;
}
