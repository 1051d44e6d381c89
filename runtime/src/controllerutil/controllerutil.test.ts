import { describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import { ConfigMap, Namespace } from "../api/kinds.js";
import type { KubernetesObject } from "../api/meta.js";
import type { Client } from "../client/types.js";
import { createFakeClient } from "../fake/index.js";
import {
  AlreadyOwnedError,
  addFinalizer,
  containsFinalizer,
  createOrPatch,
  createOrUpdate,
  hasControllerReference,
  hasOwnerReference,
  removeControllerReference,
  removeFinalizer,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from "./index.js";

const owner = (
  name = "owner",
  namespace: string | undefined = "ns",
  apiVersion = "apps/v1",
): KubernetesObject => ({
  apiVersion,
  kind: "Deployment",
  metadata: { name, namespace, uid: `uid-${name}` },
});
const child = (namespace: string | undefined = "ns"): KubernetesObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "child", namespace },
});

describe("owner references", () => {
  it("sets a controller reference with controller and blockOwnerDeletion true", () => {
    const obj = child();
    setControllerReference(owner(), obj);
    expect(obj.metadata?.ownerReferences).toEqual([
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        name: "owner",
        uid: "uid-owner",
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(hasControllerReference(obj)).toBe(true);
  });

  it("replaces the reference to the same owner, ignoring version and uid", () => {
    const obj = child();
    setControllerReference(owner(), obj);
    setControllerReference(
      { ...owner("owner", "ns", "apps/v2"), metadata: { name: "owner", namespace: "ns", uid: "new" } },
      obj,
    );
    expect(obj.metadata?.ownerReferences).toHaveLength(1);
    expect(obj.metadata?.ownerReferences?.[0]).toMatchObject({ apiVersion: "apps/v2", uid: "new" });
  });

  it("refuses a second controller with AlreadyOwnedError", () => {
    const obj = child();
    setControllerReference(owner("first"), obj);
    let err: unknown;
    try {
      setControllerReference(owner("second"), obj);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AlreadyOwnedError);
    expect((err as Error).message).toBe(
      "Object ns/child is already owned by another Deployment controller first",
    );
    setOwnerReference(owner("second"), obj);
    expect(obj.metadata?.ownerReferences?.map((r) => [r.name, r.controller])).toEqual([
      ["first", true],
      ["second", undefined],
    ]);
    expect(hasOwnerReference(obj, owner("second"))).toBe(true);
  });

  it("allows a cluster-scoped owner of a namespaced object and refuses the other scope mismatches", () => {
    setControllerReference(owner("cluster", undefined), child());
    expect(() => setControllerReference(owner(), child(""))).toThrow(
      "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace ns",
    );
    expect(() => setOwnerReference(owner("o", "other"), child())).toThrow(
      /cross-namespace owner references are disallowed/,
    );
  });

  it("needs an owner that has been created (uid) and carries apiVersion/kind", () => {
    expect(() => setControllerReference({ metadata: { name: "x", uid: "u" } }, child())).toThrow(
      /apiVersion\/kind/,
    );
    expect(() =>
      setControllerReference({ apiVersion: "v1", kind: "X", metadata: { name: "x" } }, child()),
    ).toThrow(/uid/);
  });

  it("removes references and complains when there is nothing to remove", () => {
    const obj = child();
    expect(() => removeOwnerReference(owner(), obj)).toThrow(/does not have any owner references/);
    setOwnerReference(owner("a"), obj);
    expect(() => removeOwnerReference(owner("b"), obj)).toThrow(/does not have an owner reference for/);
    removeOwnerReference(owner("a"), obj);
    expect(obj.metadata?.ownerReferences).toBeUndefined();
    setControllerReference(owner("a"), obj);
    expect(() => removeControllerReference(owner("b"), obj)).toThrow(/controller reference/);
    removeControllerReference(owner("a"), obj);
    expect(hasControllerReference(obj)).toBe(false);
  });
});

describe("finalizers", () => {
  it("adds once, removes every occurrence, and reports changes", () => {
    const obj: KubernetesObject = { metadata: { finalizers: ["a", "b", "a"] } };
    expect(addFinalizer(obj, "a")).toBe(false);
    expect(addFinalizer(obj, "c")).toBe(true);
    expect(containsFinalizer(obj, "c")).toBe(true);
    expect(removeFinalizer(obj, "a")).toBe(true);
    expect(obj.metadata?.finalizers).toEqual(["b", "c"]);
    expect(removeFinalizer(obj, "a")).toBe(false);
    expect(containsFinalizer({}, "a")).toBe(false);
    expect(removeFinalizer({}, "a")).toBe(false);
  });
});

interface Widget extends KubernetesObject {
  spec?: { size?: number };
  status?: { ready?: boolean };
}
const Widget = defineKind<Widget>({
  group: "toys.example.com",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});
const widgetCRD = {
  spec: {
    group: "toys.example.com",
    names: { kind: "Widget", plural: "widgets" },
    versions: [
      {
        name: "v1",
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object" as const,
            properties: {
              spec: { type: "object" as const, properties: { size: { type: "integer" as const } } },
              status: { type: "object" as const, properties: { ready: { type: "boolean" as const } } },
            },
          },
        },
      },
    ],
  },
};

describe("createOrUpdate", () => {
  it("creates, then updates only when mutate changes something", async () => {
    const c: Client = createFakeClient();
    const cm = { metadata: { name: "cfg", namespace: "ns" } } as {
      metadata: { name: string; namespace: string };
      data?: Record<string, string>;
    };
    expect(
      await createOrUpdate(c, ConfigMap, cm, (o) => {
        o.data = { a: "1" };
      }),
    ).toBe("created");
    expect(cm).toMatchObject({
      apiVersion: "v1",
      kind: "ConfigMap",
      data: { a: "1" },
      metadata: { uid: expect.any(String) },
    });
    expect(
      await createOrUpdate(c, ConfigMap, cm, (o) => {
        o.data = { a: "1" };
      }),
    ).toBe("unchanged");
    expect(
      await createOrUpdate(c, ConfigMap, cm, (o) => {
        o.data = { a: "2" };
      }),
    ).toBe("updated");
    expect((await c.get(ConfigMap, { namespace: "ns", name: "cfg" })).data).toEqual({ a: "2" });
  });

  it("refuses a mutate that renames the object", async () => {
    const c = createFakeClient({
      objects: [{ apiVersion: "v1", kind: "Namespace", metadata: { name: "n" } }],
    });
    await expect(
      createOrUpdate(c, Namespace, { metadata: { name: "n" } }, (o) => {
        o.metadata!.name = "other";
      }),
    ).rejects.toThrow("MutateFn cannot mutate object name and/or object namespace");
  });

  it("propagates errors other than NotFound", async () => {
    const c = createFakeClient({ crds: [widgetCRD] });
    const Wrong = { ...Widget, version: "v9" };
    await expect(
      createOrUpdate(c, Wrong, { metadata: { name: "w", namespace: "ns" } }, () => {}),
    ).rejects.toThrow(/could not find the requested resource/);
  });
});

describe("createOrPatch", () => {
  it("reports updated, updatedStatus and updatedStatusOnly, writing status through the subresource", async () => {
    const c = createFakeClient({ crds: [widgetCRD] });
    const w: Widget = { metadata: { name: "w", namespace: "ns" } };
    expect(
      await createOrPatch(c, Widget, w, (o) => {
        o.spec = { size: 1 };
      }),
    ).toBe("created");
    expect(
      await createOrPatch(c, Widget, w, (o) => {
        o.spec = { size: 1 };
      }),
    ).toBe("unchanged");
    expect(
      await createOrPatch(c, Widget, w, (o) => {
        o.spec = { size: 2 };
      }),
    ).toBe("updated");
    expect(
      await createOrPatch(c, Widget, w, (o) => {
        o.status = { ready: true };
      }),
    ).toBe("updatedStatusOnly");
    expect(
      await createOrPatch(c, Widget, w, (o) => {
        o.spec = { size: 3 };
        o.status = { ready: false };
      }),
    ).toBe("updatedStatus");
    const stored = await c.get(Widget, { namespace: "ns", name: "w" });
    expect(stored.spec).toEqual({ size: 3 });
    expect(stored.status).toEqual({ ready: false });
    expect(w.status).toEqual({ ready: false });
  });
});
