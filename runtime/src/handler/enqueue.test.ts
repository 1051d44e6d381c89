import { describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import type { Request } from "../reconcile/types.js";
import type { AddOptions } from "../workqueue/queue.js";
import {
  enqueueRequestForObject,
  enqueueRequestForOwner,
  enqueueRequestsFromMapFunc,
  LowPriority,
} from "./enqueue.js";
import type { RequestQueue } from "./types.js";

function recorder() {
  const added: { req: Request; opts?: AddOptions }[] = [];
  const q: RequestQueue = {
    add: (req, opts) => added.push({ req, opts }),
    addAfter: () => {},
    addRateLimited: () => {},
  };
  return { q, added };
}

const obj = (
  name: string,
  extra: Partial<NonNullable<KubernetesObject["metadata"]>> = {},
): KubernetesObject => ({
  metadata: { name, namespace: "ns", resourceVersion: "1", ...extra },
});

const Widget = defineKind({
  group: "example.com",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});
const Cluster = defineKind({
  group: "example.com",
  version: "v1",
  kind: "Cluster",
  plural: "clusters",
  namespaced: false,
});

describe("enqueueRequestForObject", () => {
  it("enqueues the object; initial-list adds and resyncs get low priority", () => {
    const h = enqueueRequestForObject();
    const { q, added } = recorder();
    h.create({ object: obj("a"), isInInitialList: false }, q);
    h.create({ object: obj("b"), isInInitialList: true }, q);
    h.update({ objectOld: obj("c"), objectNew: obj("c", { resourceVersion: "2" }) }, q);
    h.update({ objectOld: obj("d"), objectNew: obj("d") }, q);
    h.delete({ object: obj("e"), deleteStateUnknown: true }, q);
    expect(added).toEqual([
      { req: { namespace: "ns", name: "a" }, opts: undefined },
      { req: { namespace: "ns", name: "b" }, opts: { priority: LowPriority } },
      { req: { namespace: "ns", name: "c" }, opts: undefined },
      { req: { namespace: "ns", name: "d" }, opts: { priority: LowPriority } },
      { req: { namespace: "ns", name: "e" }, opts: undefined },
    ]);
  });
});

describe("enqueueRequestForOwner", () => {
  const refs = [
    { apiVersion: "example.com/v2", kind: "Widget", name: "w-any-version", uid: "1" },
    { apiVersion: "other.io/v1", kind: "Widget", name: "wrong-group", uid: "2" },
    { apiVersion: "example.com/v1", kind: "Widget", name: "w-controller", uid: "3", controller: true },
    { apiVersion: "example.com/v1", kind: "Gadget", name: "wrong-kind", uid: "4" },
  ];

  it("matches kind and group (not version) of every owner reference by default", () => {
    const { q, added } = recorder();
    enqueueRequestForOwner(Widget).create(
      { object: obj("child", { ownerReferences: refs }), isInInitialList: false },
      q,
    );
    expect(added.map((a) => a.req)).toEqual([
      { namespace: "ns", name: "w-any-version" },
      { namespace: "ns", name: "w-controller" },
    ]);
  });

  it("only the controller reference with onlyControllerOwner; cluster-scoped owners have no namespace", () => {
    const { q, added } = recorder();
    enqueueRequestForOwner(Widget, { onlyControllerOwner: true }).create(
      { object: obj("child", { ownerReferences: refs }), isInInitialList: false },
      q,
    );
    expect(added.map((a) => a.req)).toEqual([{ namespace: "ns", name: "w-controller" }]);
    const c = recorder();
    enqueueRequestForOwner(Cluster).delete(
      {
        object: obj("child", {
          ownerReferences: [{ apiVersion: "example.com/v1", kind: "Cluster", name: "c1", uid: "9" }],
        }),
        deleteStateUnknown: false,
      },
      c.q,
    );
    expect(c.added.map((a) => a.req)).toEqual([{ name: "c1" }]);
  });

  it("update enqueues owners of old and new, once each", () => {
    const { q, added } = recorder();
    const ref = (name: string) => ({
      apiVersion: "example.com/v1",
      kind: "Widget",
      name,
      uid: name,
      controller: true,
    });
    enqueueRequestForOwner(Widget, { onlyControllerOwner: true }).update(
      {
        objectOld: obj("child", { ownerReferences: [ref("old")] }),
        objectNew: obj("child", { ownerReferences: [ref("new")], resourceVersion: "2" }),
      },
      q,
    );
    const same = recorder();
    enqueueRequestForOwner(Widget).update(
      {
        objectOld: obj("child", { ownerReferences: [ref("x")] }),
        objectNew: obj("child", { ownerReferences: [ref("x")], resourceVersion: "2" }),
      },
      same.q,
    );
    expect(added.map((a) => a.req.name)).toEqual(["old", "new"]);
    expect(same.added.map((a) => a.req.name)).toEqual(["x"]);
  });
});

describe("enqueueRequestsFromMapFunc", () => {
  it("maps old and new on update, deduplicated; supports async maps", async () => {
    const { q, added } = recorder();
    const h = enqueueRequestsFromMapFunc(async (o) => [
      { namespace: "ns", name: `for-${o.metadata?.labels?.app}` },
    ]);
    await h.update(
      {
        objectOld: obj("cm", { labels: { app: "a" } }),
        objectNew: obj("cm", { labels: { app: "a" }, resourceVersion: "2" }),
      },
      q,
    );
    await h.update(
      {
        objectOld: obj("cm", { labels: { app: "a" } }),
        objectNew: obj("cm", { labels: { app: "b" }, resourceVersion: "3" }),
      },
      q,
    );
    await h.generic({ object: obj("cm", { labels: { app: "g" } }) }, q);
    expect(added.map((a) => a.req.name)).toEqual(["for-a", "for-a", "for-b", "for-g"]);
  });
});
