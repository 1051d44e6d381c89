import { KbtsError } from "../errors.js";

/**
 * Names a resource is known by, and the checks Kubebuilder applies to them
 * (KB pkg/model/resource/gvk.go), done before anything is written.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const VERSION = /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;
const PASCAL = /^[A-Z][A-Za-z0-9]*$/;

export function isDNS1123Subdomain(value: string): boolean {
  return value.length > 0 && value.length <= 253 && value.split(".").every((l) => DNS1123_LABEL.test(l));
}

export function isDNS1123Label(value: string): boolean {
  return value.length <= 63 && DNS1123_LABEL.test(value);
}

export function validateDomain(domain: string, flag = "--domain"): void {
  if (!isDNS1123Subdomain(domain)) {
    throw new KbtsError(`domain ${JSON.stringify(domain)} is not a DNS-1123 subdomain`, {
      where: flag,
      fix: "use lower-case letters, digits, '-' and '.', e.g. --domain example.com",
    });
  }
}

export function validateProjectName(name: string): void {
  if (!isDNS1123Label(name)) {
    throw new KbtsError(`project name ${JSON.stringify(name)} is invalid: it must be a DNS-1123 label`, {
      where: "--project-name",
      fix: "use lower-case letters, digits and '-', starting and ending with a letter or digit, e.g. --project-name memcached-operator",
    });
  }
}

export function validateGroup(group: string): void {
  if (!isDNS1123Subdomain(group)) {
    throw new KbtsError(`group ${JSON.stringify(group)} is not a DNS-1123 subdomain`, {
      where: "--group",
      fix: "use lower-case letters, digits, '-' and '.', e.g. --group cache",
    });
  }
}

export function validateVersion(version: string, flag = "--version"): void {
  if (!VERSION.test(version)) {
    throw new KbtsError(`version ${JSON.stringify(version)} is not a Kubernetes API version`, {
      where: flag,
      fix: `use v<N>, v<N>alpha<M> or v<N>beta<M>, e.g. ${flag} v1alpha1`,
    });
  }
}

export function validateKind(kind: string): void {
  if (!PASCAL.test(kind) || !DNS1035_LABEL.test(kind.toLowerCase()) || kind.length > 63) {
    throw new KbtsError(
      `kind ${JSON.stringify(kind)} must be PascalCase (an upper-case letter, then letters and digits)`,
      {
        where: "--kind",
        fix: "e.g. --kind Memcached or --kind GPUBudget",
      },
    );
  }
}

export function validatePlural(plural: string): void {
  if (!DNS1035_LABEL.test(plural) || plural.length > 63) {
    throw new KbtsError(`plural ${JSON.stringify(plural)} must be a lower-case DNS-1035 label`, {
      where: "--plural",
      fix: "e.g. --plural memcacheds",
    });
  }
}

/** Groups of the core API whose qualified name has no domain (KB pkg/plugins/golang/options.go). */
const CORE_GROUPS_NO_DOMAIN = new Set(["core", "apps", "autoscaling", "batch", "extensions", "policy"]);
const CORE_GROUPS = new Set([
  ...CORE_GROUPS_NO_DOMAIN,
  "admission",
  "admissionregistration",
  "apiextensions",
  "authentication",
  "authorization",
  "certificates",
  "coordination",
  "discovery",
  "events",
  "networking",
  "node",
  "rbac.authorization",
  "scheduling",
  "storage",
]);

export function isCoreGroup(group: string): boolean {
  return CORE_GROUPS.has(group);
}

/** The domain stored for a core resource: "" for core/apps/batch/..., "k8s.io" for the others. */
export function coreDomain(group: string): string {
  return CORE_GROUPS_NO_DOMAIN.has(group) ? "" : "k8s.io";
}

/** "cache.example.com"; "" for the core group; the group alone when the domain is empty. */
export function qualifiedGroup(group: string, domain: string): string {
  if (group === "core") return "";
  if (!domain) return group;
  return `${group}.${domain}`;
}

/** 32-bit FNV-1a as 8 hex digits: a stable leader-election ID prefix, as Kubebuilder's hashFNV. */
export function fnv32a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * JavaScript's built-in globals as Biome's noShadowRestrictedNames knows them (the PascalCase ones a
 * kind can be named): a file that imports a kind so named carries a biome-ignore for that rule.
 */
const RESTRICTED_GLOBALS = new Set([
  ...["AggregateError", "Array", "ArrayBuffer", "Atomics", "BigInt", "BigInt64Array", "BigUint64Array"],
  ...["Boolean", "DataView", "Date", "Error", "EvalError", "FinalizationRegistry", "Float32Array"],
  ...["Float64Array", "Function", "Infinity", "Int16Array", "Int32Array", "Int8Array", "Intl", "JSON"],
  ...["Map", "Math", "NaN", "Number", "Object", "Promise", "Proxy", "RangeError", "ReferenceError"],
  ...["Reflect", "RegExp", "Set", "SharedArrayBuffer", "String", "Symbol", "SyntaxError", "TypeError"],
  ...["URIError", "Uint16Array", "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap", "WeakRef"],
  "WeakSet",
]);

export const isRestrictedGlobal = (name: string): boolean => RESTRICTED_GLOBALS.has(name);

/** The comment above an import of a kind named like a restricted global (OpenShift's Proxy). */
export const RESTRICTED_IMPORT_COMMENT =
  "// biome-ignore lint/suspicious/noShadowRestrictedNames: the kind is named like JavaScript's global";
