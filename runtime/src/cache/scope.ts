/**
 * A kind's cache scope: which namespaces its informer watches, the server-side label and field
 * selectors it lists and watches with, and the transform applied before each object is stored.
 * Resolved from CacheOptions as controller-runtime resolves ByObject against the Default* options:
 * a per-kind field replaces the cache-wide default, it is never merged with it.
 */

import { apiVersionOf, groupKindOf, type Kind } from "../api/kind.js";
import { parseSelector, selectorToString } from "../client/selector.js";
import { dropManagedFields } from "./informer.js";
import type { ByObject, CacheOptions, TransformFunc } from "./types.js";

export interface KindScope {
  /** Namespaces to watch; undefined = all (always for cluster-scoped kinds). */
  namespaces?: string[];
  labelSelector?: string;
  fieldSelector?: string;
  /** KEP-5866's shard selector, read for each list and watch. */
  shardSelector?: () => string | undefined;
  transform: TransformFunc;
  /** The transform is the user's (not the built-in managedFields drop). */
  customTransform: boolean;
}

/** "apps/v1/Deployment", "v1/Pod": the key of CacheOptions.byObject, transforms and selectors. */
export function transformKey(kind: Kind): string {
  return `${apiVersionOf(kind)}/${kind.kind}`;
}

// "[group/]version/Kind": the group is a DNS subdomain, the version a DNS label, the Kind CamelCase.
const KEY = /^(?:[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[a-z][a-z0-9-]*\/[A-Z][A-Za-z0-9]*$/;

/** Throws, naming the option and what to write instead, for options no informer could honour. */
export function validateCacheOptions(options: CacheOptions): void {
  checkNamespaces("CacheOptions.namespaces", options.namespaces);
  if (options.defaultLabelSelector !== undefined) parseSelector(options.defaultLabelSelector);
  const perKind: [string, Record<string, unknown> | undefined][] = [
    ["byObject", options.byObject],
    ["transforms", options.transforms],
    ["selectors", options.selectors],
  ];
  for (const [option, entries] of perKind) {
    for (const key of Object.keys(entries ?? {})) {
      if (!KEY.test(key)) {
        throw new Error(
          `CacheOptions.${option}: "${key}" is not a kind key; write "group/version/Kind" ("v1/Secret" for the core group, "apps/v1/Deployment"), e.g. transformKey(Secret)`,
        );
      }
    }
  }
  for (const [key, by] of Object.entries(options.byObject ?? {})) {
    checkNamespaces(`CacheOptions.byObject["${key}"].namespaces`, by.namespaces);
    if (by.labelSelector !== undefined) parseSelector(by.labelSelector);
    const selectors = options.selectors?.[key];
    const clash =
      (by.transform && options.transforms?.[key] && "transform") ||
      (by.labelSelector !== undefined && selectors?.labelSelector !== undefined && "labelSelector") ||
      (by.fieldSelector !== undefined && selectors?.fieldSelector !== undefined && "fieldSelector");
    if (clash) {
      throw new Error(
        `CacheOptions: "${key}" has a ${clash} in both byObject and ${clash === "transform" ? "transforms" : "selectors"}; give it once, in byObject`,
      );
    }
  }
  for (const s of Object.values(options.selectors ?? {})) {
    if (s.labelSelector !== undefined) parseSelector(s.labelSelector);
  }
}

function checkNamespaces(option: string, namespaces: string[] | undefined): void {
  if (namespaces === undefined) return;
  if (namespaces.length === 0) {
    throw new Error(`${option} is empty; omit it to watch all namespaces, or list the namespaces to watch`);
  }
  if (namespaces.some((ns) => !ns)) {
    throw new Error(`${option} must not contain ""; omit the option to watch all namespaces`);
  }
}

/** The scope of a kind's informer (full or metadata-only: both share it). */
export function scopeFor(kind: Kind, options: CacheOptions): KindScope {
  const key = transformKey(kind);
  const by: ByObject = options.byObject?.[key] ?? {};
  const selectors = options.selectors?.[key];
  if (by.namespaces && !kind.namespaced) {
    throw new Error(
      `CacheOptions.byObject["${key}"].namespaces is set, but ${groupKindOf(kind)} is cluster-scoped; remove namespaces for it`,
    );
  }
  const label = by.labelSelector ?? selectors?.labelSelector ?? options.defaultLabelSelector;
  const labelSelector = label === undefined ? undefined : selectorToString(parseSelector(label));
  const userTransform = by.transform ?? options.transforms?.[key] ?? options.defaultTransform;
  return {
    namespaces: kind.namespaced ? (by.namespaces ?? options.namespaces) : undefined,
    labelSelector: labelSelector || undefined,
    fieldSelector:
      by.fieldSelector ?? selectors?.fieldSelector ?? (options.defaultFieldSelector || undefined),
    shardSelector: by.shardSelector,
    transform: userTransform ?? dropManagedFields,
    customTransform: userTransform !== undefined,
  };
}

/** Kinds whose objects are often many and large, and rarely all needed: Secrets and ConfigMaps. */
const HEAVY_CORE_KINDS = new Set(["Secret", "ConfigMap"]);

/**
 * The start-up warning for a full informer of Secrets or ConfigMaps over the whole cluster with no
 * selector and no transform: it holds every such object of every namespace (the OOMs of
 * cert-manager#4722, k8ssandra-operator#1752, RamenDR/ramen#2711). Undefined when the scope is fine.
 */
export function unscopedCacheWarning(kind: Kind, scope: KindScope): string | undefined {
  if (kind.group !== "" || !HEAVY_CORE_KINDS.has(kind.kind) || kind.metadataOnly) return undefined;
  if (
    scope.namespaces ||
    scope.labelSelector ||
    scope.fieldSelector ||
    scope.shardSelector ||
    scope.customTransform
  )
    return undefined;
  const key = transformKey(kind);
  return (
    `the cache holds every ${kind.kind} in the cluster (all namespaces, no label or field selector, no transform), ` +
    `so its memory grows with every ${kind.kind} anyone creates. Scope it with CacheOptions.byObject["${key}"] ` +
    `(namespaces, labelSelector or fieldSelector), watch it with { metadataOnly: true } if you only need its ` +
    `metadata, add a transform that keeps only what you read, or read it uncached (ClientOptions.uncached)`
  );
}
