import { describe, expect, it } from "vitest";
import { type Kind, metadataOnly } from "../api/kind.js";
import { ConfigMap, Namespace, Pod, Secret } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import { dropManagedFields } from "./informer.js";
import { scopeFor, transformKey, unscopedCacheWarning, validateCacheOptions } from "./scope.js";
import type { CacheOptions } from "./types.js";

const keep = (o: KubernetesObject) => o;

describe("a kind's cache scope", () => {
  it("takes the cache-wide defaults when the kind has no byObject entry", () => {
    const scope = scopeFor(Pod, {
      namespaces: ["a"],
      defaultLabelSelector: { team: "x" },
      defaultFieldSelector: "metadata.name!=skip",
    });
    expect(scope).toEqual({
      namespaces: ["a"],
      labelSelector: "team=x",
      fieldSelector: "metadata.name!=skip",
      transform: dropManagedFields,
      customTransform: false,
    });
  });

  it("lets byObject replace each default for its kind only", () => {
    const options = {
      namespaces: ["a"],
      defaultLabelSelector: "team=x",
      defaultTransform: keep,
      byObject: {
        "v1/Secret": {
          namespaces: ["vault"],
          labelSelector: "app in (db,web)",
          fieldSelector: "type=Opaque",
        },
      },
    };
    expect(scopeFor(Secret, options)).toMatchObject({
      namespaces: ["vault"],
      labelSelector: "app in (db,web)",
      fieldSelector: "type=Opaque",
      transform: keep,
      customTransform: true,
    });
    expect(scopeFor(ConfigMap, options)).toMatchObject({ namespaces: ["a"], labelSelector: "team=x" });
    // The metadata-only view shares its kind's scope.
    expect(scopeFor(metadataOnly(Secret), options).namespaces).toEqual(["vault"]);
  });

  it("reads the transforms and selectors shorthands", () => {
    const scope = scopeFor(Pod, {
      transforms: { "v1/Pod": keep },
      selectors: { "v1/Pod": { labelSelector: "a=b", fieldSelector: "spec.nodeName=n1" } },
    });
    expect(scope).toMatchObject({ labelSelector: "a=b", fieldSelector: "spec.nodeName=n1", transform: keep });
  });

  it("watches cluster-scoped kinds everywhere, and refuses namespaces given for one", () => {
    expect(scopeFor(Namespace, { namespaces: ["a"] }).namespaces).toBeUndefined();
    expect(() => scopeFor(Namespace, { byObject: { "v1/Namespace": { namespaces: ["a"] } } })).toThrow(
      /byObject\["v1\/Namespace"\]\.namespaces is set, but Namespace is cluster-scoped/,
    );
  });

  it("refuses options no informer could honour, naming the option", () => {
    expect(() => validateCacheOptions({ byObject: { Secret: {} } })).toThrow(
      /CacheOptions.byObject: "Secret" is not a kind key; write "group\/version\/Kind"/,
    );
    expect(() => validateCacheOptions({ transforms: { "v1/pods": keep } })).toThrow(
      /CacheOptions.transforms/,
    );
    expect(() => validateCacheOptions({ namespaces: [""] })).toThrow(/must not contain ""/);
    expect(() => validateCacheOptions({ byObject: { "v1/Pod": { namespaces: [] } } })).toThrow(
      /byObject\["v1\/Pod"\]\.namespaces is empty/,
    );
    expect(() => validateCacheOptions({ byObject: { "v1/Pod": { labelSelector: "a in (" } } })).toThrow(
      /invalid label selector/,
    );
    expect(() =>
      validateCacheOptions({ byObject: { "v1/Pod": { transform: keep } }, transforms: { "v1/Pod": keep } }),
    ).toThrow(/"v1\/Pod" has a transform in both byObject and transforms/);
    expect(() =>
      validateCacheOptions({ byObject: { "apps/v1/Deployment": {}, "example.com/v1alpha1/GPUBudget": {} } }),
    ).not.toThrow();
  });

  it("keys kinds as group/version/Kind", () => {
    expect(transformKey(Pod)).toBe("v1/Pod");
  });
});

describe("the unscoped Secrets and ConfigMaps warning", () => {
  it("fires for a cluster-wide full informer of Secrets or ConfigMaps with nothing to narrow it", () => {
    const secret = unscopedCacheWarning(Secret, scopeFor(Secret, {}));
    expect(secret).toMatch(/holds every Secret in the cluster/);
    expect(secret).toContain('CacheOptions.byObject["v1/Secret"]');
    expect(secret).toContain("metadataOnly");
    expect(unscopedCacheWarning(ConfigMap, scopeFor(ConfigMap, {}))).toMatch(/every ConfigMap/);
  });

  it("stays silent when the kind is scoped, transformed, metadata-only or another kind", () => {
    const quiet: [Kind, CacheOptions][] = [
      [Secret, { namespaces: ["a"] }],
      [Secret, { byObject: { "v1/Secret": { namespaces: ["a"] } } }],
      [Secret, { byObject: { "v1/Secret": { labelSelector: "app=x" } } }],
      [Secret, { byObject: { "v1/Secret": { fieldSelector: "type=Opaque" } } }],
      [Secret, { byObject: { "v1/Secret": { transform: keep } } }],
      [Secret, { defaultLabelSelector: "app=x" }],
      [metadataOnly(Secret), {}],
      [Pod, {}],
    ];
    for (const [kind, options] of quiet)
      expect(unscopedCacheWarning(kind, scopeFor(kind, options))).toBeUndefined();
  });
});
