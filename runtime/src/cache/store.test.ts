import { describe, expect, it } from "vitest";
import type { KubernetesObject } from "../api/meta.js";
import { NAMESPACE_INDEX, Store, storeKey } from "./store.js";

const obj = (
  ns: string | undefined,
  name: string,
  node = "",
): KubernetesObject & { spec: { nodeName: string } } => ({
  metadata: { namespace: ns, name },
  spec: { nodeName: node },
});

describe("Store", () => {
  it("keys namespaced objects ns/name and cluster-scoped ones by name", () => {
    expect(storeKey(obj("a", "x"))).toBe("a/x");
    expect(storeKey(obj(undefined, "x"))).toBe("x");
  });

  it("indexes by namespace and keeps indexes right across update and delete", () => {
    const s = new Store<ReturnType<typeof obj>>();
    s.addIndex("node", (o) => (o.spec.nodeName ? [o.spec.nodeName] : []));
    s.set(obj("a", "p1", "n1"));
    s.set(obj("a", "p2", "n1"));
    s.set(obj("b", "p1", "n2"));
    expect(s.byIndex(NAMESPACE_INDEX, "a").map(storeKey).sort()).toEqual(["a/p1", "a/p2"]);
    expect(s.byIndex("node", "n1").map(storeKey).sort()).toEqual(["a/p1", "a/p2"]);

    const old = s.set(obj("a", "p1", "n2"));
    expect(old?.spec.nodeName).toBe("n1");
    expect(s.byIndex("node", "n1").map(storeKey)).toEqual(["a/p2"]);
    expect(s.byIndex("node", "n2").map(storeKey).sort()).toEqual(["a/p1", "b/p1"]);
    // Every index hands out the newest version, also one whose value did not change (the namespace).
    const p1 = s.get("a/p1");
    expect(s.byIndex(NAMESPACE_INDEX, "a").filter((o) => o.metadata?.name === "p1")).toEqual([p1]);
    expect(s.byIndex(NAMESPACE_INDEX, "a").find((o) => o.metadata?.name === "p1")).toBe(p1);

    expect(s.delete("a/p2")?.metadata?.name).toBe("p2");
    expect(s.byIndex("node", "n1")).toEqual([]);
    expect(s.delete("a/p2")).toBeUndefined();
    expect(s.size).toBe(2);
  });

  it("indexes objects already stored when an index is added late", () => {
    const s = new Store<ReturnType<typeof obj>>();
    s.set(obj("a", "p1", "n1"));
    s.addIndex("node", (o) => [o.spec.nodeName]);
    expect(s.byIndex("node", "n1")).toHaveLength(1);
  });

  it("refuses duplicate and unknown indexes", () => {
    const s = new Store();
    expect(() => s.addIndex(NAMESPACE_INDEX, () => [])).toThrow(/already registered/);
    expect(() => s.byIndex("nope", "x")).toThrow(/no index "nope"/);
  });
});
