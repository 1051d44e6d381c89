import { describe, expect, it } from "vitest";
import { defineKind, type Kind, metadataOnly } from "../api/kind.js";
import type { KubernetesObject, PartialObjectMetadata } from "../api/meta.js";
import type { Cache, Informer, InformerHandler } from "../cache/types.js";
import { enqueueRequestsFromMapFunc } from "../handler/enqueue.js";
import { nopLogger } from "../log/logger.js";
import type { Manager, Runnable } from "../manager/types.js";
import { generationChangedPredicate, labelSelectorPredicate } from "../predicate/predicate.js";
import type { Request } from "../reconcile/types.js";
import { controllerManagedBy } from "./builder.js";

const Widget = defineKind({
  group: "example.com",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});
const Part = defineKind({
  group: "",
  version: "v1",
  kind: "ConfigMap",
  plural: "configmaps",
  namespaced: true,
});
const Other = defineKind({ group: "", version: "v1", kind: "Secret", plural: "secrets", namespaced: true });

/** An in-memory cache whose informers the test drives. */
function fakeCache() {
  const handlers = new Map<string, InformerHandler[]>();
  const requested: Kind[] = [];
  const cache = {
    async getInformer<T extends KubernetesObject>(kind: Kind<T>): Promise<Informer<T>> {
      requested.push(kind);
      const list = handlers.get(kind.kind) ?? [];
      handlers.set(kind.kind, list);
      return {
        addEventHandler(h) {
          list.push(h as InformerHandler);
          return () => list.splice(list.indexOf(h as InformerHandler), 1);
        },
        hasSynced: () => true,
      };
    },
  } as unknown as Cache;
  const emit = (kind: Kind, ev: Parameters<InformerHandler>[0]) => {
    for (const h of handlers.get(kind.kind) ?? []) h(ev);
  };
  return { cache, emit, requested };
}

function fakeManager() {
  const { cache, emit, requested } = fakeCache();
  const runnables: Runnable[] = [];
  const mgr = {
    getCache: () => cache,
    getLogger: () => nopLogger(),
    add: (r: Runnable) => runnables.push(r),
  } as unknown as Manager;
  return { mgr, emit, runnables, requested };
}

let n = 0;
const name = () => `builder_test_${++n}`;
const noop = { reconcile: async () => undefined };

describe("controllerManagedBy", () => {
  it("validates like controller-runtime's builder", () => {
    const { mgr } = fakeManager();
    expect(() => controllerManagedBy(mgr).for(Widget).for(Part)).toThrow(
      /For\(\.\.\.\) should only be called once/,
    );
    expect(() => controllerManagedBy(mgr).owns(Part).named(name()).complete(noop)).toThrow(
      "Owns() can only be used together with For()",
    );
    expect(() =>
      controllerManagedBy(mgr)
        .watches(
          Part,
          enqueueRequestsFromMapFunc(() => []),
        )
        .complete(noop),
    ).toThrow("one of For() or Named() must be called");
    expect(() => controllerManagedBy(mgr).named(name()).complete(noop)).toThrow(
      /there are no watches configured/,
    );
    expect(() => controllerManagedBy(mgr).for(Widget).named("bad name!").complete(noop)).toThrow(
      /controller name/,
    );
  });

  it("names the controller after the lower-case For kind and registers it with the manager", () => {
    const { mgr, runnables } = fakeManager();
    const c = controllerManagedBy(mgr).for(Widget).withOptions({ skipNameValidation: true }).complete(noop);
    expect(c.name).toBe("widget");
    expect(runnables).toEqual([c]);
  });

  it("for / owns / watches each enqueue the right request; event filters apply to all", async () => {
    const { mgr, emit } = fakeManager();
    const seen: Request[] = [];
    const c = controllerManagedBy(mgr)
      .for(Widget, { predicates: [generationChangedPredicate()] })
      .owns(Part)
      .watches(
        Other,
        enqueueRequestsFromMapFunc((s) => [{ namespace: "ns", name: `from-${s.metadata?.name}` }]),
      )
      .withEventFilter(labelSelectorPredicate({ matchLabels: { team: "a" } }))
      .named(name())
      .complete({
        reconcile: async (r) => {
          seen.push(r);
          return undefined;
        },
      });
    const stop = new AbortController();
    const done = c.start(stop.signal);
    await new Promise((r) => setTimeout(r, 10));
    const labels = { team: "a" };
    const widget = { metadata: { name: "w1", namespace: "ns", generation: 1, resourceVersion: "1", labels } };
    emit(Widget, { type: "add", object: widget, isInInitialList: false });
    // status-only update: same generation, filtered by the For predicate
    emit(Widget, {
      type: "update",
      oldObject: widget,
      object: { ...widget, metadata: { ...widget.metadata, resourceVersion: "2" } },
    });
    emit(Part, {
      type: "add",
      isInInitialList: false,
      object: {
        metadata: {
          name: "cm",
          namespace: "ns",
          labels,
          ownerReferences: [
            { apiVersion: "example.com/v1", kind: "Widget", name: "owner", uid: "u", controller: true },
          ],
        },
      },
    });
    emit(Other, {
      type: "add",
      isInInitialList: false,
      object: { metadata: { name: "s", namespace: "ns", labels } },
    });
    // filtered by the global label selector
    emit(Other, {
      type: "add",
      isInInitialList: false,
      object: { metadata: { name: "nolabel", namespace: "ns" } },
    });
    const deadline = Date.now() + 2000;
    while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 30));
    expect(seen.map((r) => r.name).sort()).toEqual(["from-s", "owner", "w1"]);
    stop.abort();
    await done;
  });

  it("asks the cache for metadata-only informers where metadataOnly is set, and full ones elsewhere", async () => {
    const { mgr, requested } = fakeManager();
    const seenByHandler: PartialObjectMetadata[] = [];
    const c = controllerManagedBy(mgr)
      .for(Widget, { metadataOnly: true })
      .owns(Part, { metadataOnly: true, predicates: [{ create: (e) => e.object.metadata.name !== "x" }] })
      .watches(
        Other,
        enqueueRequestsFromMapFunc((o: PartialObjectMetadata) => {
          seenByHandler.push(o);
          return [];
        }),
        { metadataOnly: true },
      )
      .watches(
        Part,
        enqueueRequestsFromMapFunc(() => []),
      )
      .named(name())
      .complete(noop);
    const stop = new AbortController();
    const done = c.start(stop.signal);
    const deadline = Date.now() + 2000;
    while (requested.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(requested).toEqual([metadataOnly(Widget), metadataOnly(Part), metadataOnly(Other), Part]);
    expect(requested.map((k) => k.metadataOnly ?? false)).toEqual([true, true, true, false]);
    stop.abort();
    await done;
  });
});
