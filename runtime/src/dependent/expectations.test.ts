import { describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import type { Informer, InformerHandler } from "../cache/types.js";
import { ControllerExpectations, controllerOwnerKey, observeExpectations } from "./expectations.js";

function clock(start = 1_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("ControllerExpectations (client-go semantics)", () => {
  it("a key with no expectations is satisfied; expected creations must all be observed", () => {
    const e = new ControllerExpectations();
    expect(e.satisfied("ns/a")).toBe(true);
    e.expectCreations("ns/a", 2);
    expect(e.satisfied("ns/a")).toBe(false);
    e.creationObserved("ns/a");
    expect(e.satisfied("ns/a")).toBe(false);
    e.creationObserved("ns/a");
    expect(e.satisfied("ns/a")).toBe(true);
    expect(e.getExpectations("ns/a")).toEqual({ add: 0, del: 0 });
  });

  it("raise adds to what is expected; lowering an unknown key does nothing", () => {
    const e = new ControllerExpectations();
    e.lowerExpectations("ns/x", 1, 1);
    expect(e.getExpectations("ns/x")).toBeUndefined();
    e.expectDeletions("ns/a", 1);
    e.raiseExpectations("ns/a", 1, 1);
    expect(e.getExpectations("ns/a")).toEqual({ add: 1, del: 2 });
    e.deletionObserved("ns/a");
    e.creationObserved("ns/a");
    expect(e.satisfied("ns/a")).toBe(false);
    e.deletionObserved("ns/a");
    expect(e.satisfied("ns/a")).toBe(true);
  });

  it("a deletion seen twice for the same uid counts once", () => {
    const e = new ControllerExpectations();
    e.expectDeletions("ns/a", 2);
    e.deletionObserved("ns/a", "uid-1");
    e.deletionObserved("ns/a", "uid-1");
    expect(e.satisfied("ns/a")).toBe(false);
    e.deletionObserved("ns/a", "uid-2");
    expect(e.satisfied("ns/a")).toBe(true);
  });

  it("unmet expectations count as satisfied after the timeout, and deleteExpectations forgets", () => {
    const c = clock();
    const e = new ControllerExpectations({ timeoutMs: 5_000, now: c.now });
    e.expectCreations("ns/a", 1);
    c.advance(5_000);
    expect(e.satisfied("ns/a")).toBe(false);
    c.advance(1);
    expect(e.satisfied("ns/a")).toBe(true);
    e.expectCreations("ns/b", 1);
    e.deleteExpectations("ns/b");
    expect(e.satisfied("ns/b")).toBe(true);
  });
});

describe("observeExpectations", () => {
  const Owner = defineKind({
    group: "x.io",
    version: "v1",
    kind: "Owner",
    plural: "owners",
    namespaced: true,
  });
  const owned = (name: string, extra: Record<string, unknown> = {}): KubernetesObject => ({
    metadata: {
      name,
      namespace: "ns",
      uid: `uid-${name}`,
      ownerReferences: [{ apiVersion: "x.io/v1", kind: "Owner", name: "o", uid: "u", controller: true }],
      ...extra,
    },
  });

  it("adds are creations, deletes and newly set deletionTimestamps deletions, per controller owner", () => {
    let handler: InformerHandler | undefined;
    const informer: Informer = {
      addEventHandler: (h) => {
        handler = h;
        return () => {
          handler = undefined;
        };
      },
      hasSynced: () => true,
    };
    const e = new ControllerExpectations();
    const stop = observeExpectations(informer, e, (o) => controllerOwnerKey(o, Owner));
    e.setExpectations("ns/o", 1, 2);
    handler?.({
      type: "add",
      object: { metadata: { name: "stranger", namespace: "ns" } },
      isInInitialList: false,
    });
    expect(e.getExpectations("ns/o")).toEqual({ add: 1, del: 2 });
    handler?.({ type: "add", object: owned("a"), isInInitialList: false });
    const deleting = owned("b", { deletionTimestamp: "2026-01-01T00:00:00Z" });
    handler?.({ type: "update", oldObject: owned("b"), object: deleting });
    handler?.({ type: "delete", object: deleting, deleteStateUnknown: false });
    expect(e.getExpectations("ns/o")).toEqual({ add: 0, del: 1 });
    stop();
    expect(handler).toBeUndefined();
  });

  it("controllerOwnerKey matches kind and group, and drops the namespace for a cluster-scoped owner", () => {
    const obj = owned("a");
    expect(controllerOwnerKey(obj, Owner)).toBe("ns/o");
    expect(controllerOwnerKey(obj, { ...Owner, group: "y.io" })).toBeUndefined();
    expect(controllerOwnerKey(obj, { ...Owner, namespaced: false })).toBe("o");
  });
});
