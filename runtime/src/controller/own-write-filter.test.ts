import { describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import type { InformerEvent } from "../cache/types.js";
import { type ObservedWrite, WriteObservers } from "../client/own-writes.js";
import { OwnWriteFilter } from "./own-write-filter.js";

const Widget = defineKind<KubernetesObject>({
  group: "x.io",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});

function obj(rv: string, name = "w"): KubernetesObject {
  return { metadata: { namespace: "ns", name, resourceVersion: rv } };
}
function update(rv: string, relisted = false): InformerEvent {
  return { type: "update", oldObject: obj("1"), object: obj(rv), relisted };
}
function write(subresource: string | undefined, name = "w"): ObservedWrite {
  return {
    kind: Widget,
    key: { namespace: "ns", name },
    subresource,
    verb: "update",
    body: {},
    resourceVersion: undefined,
  };
}

/** Feeds events through the filter and returns the resourceVersions delivered. */
function harness(filter: OwnWriteFilter) {
  const delivered: string[] = [];
  const send = (ev: InformerEvent) =>
    filter.admit(Widget, ev, (e) => delivered.push(e.object.metadata?.resourceVersion ?? ""));
  return { delivered, send };
}

describe("own-write suppression", () => {
  it("suppresses the echo of our status write and delivers someone else's later write", () => {
    const f = new OwnWriteFilter("status");
    const { delivered, send } = harness(f);
    f.willWrite(write("status"))(obj("10"));
    send(update("10"));
    send(update("11"));
    expect(delivered).toEqual(["11"]);
    expect(f.size).toBe(0);
  });

  it("delivers a write by someone else between ours and its echo, and a write before ours", () => {
    const f = new OwnWriteFilter("status");
    const { delivered, send } = harness(f);
    send(update("9")); // theirs, before our write
    f.willWrite(write("status"))(obj("10"));
    f.willWrite(write("status"))(obj("12"));
    send(update("10"));
    send(update("11")); // theirs, between our two writes
    send(update("12"));
    expect(delivered).toEqual(["9", "11"]);
  });

  it("holds events while our write is in flight: an echo that beats the answer is still ours", () => {
    const f = new OwnWriteFilter("status");
    const { delivered, send } = harness(f);
    const done = f.willWrite(write("status"));
    send(update("9")); // someone else's, arriving while ours is in flight
    send(update("10")); // our echo, before our answer
    expect(delivered).toEqual([]);
    done(obj("10"));
    expect(delivered).toEqual(["9"]);
  });

  it("a failed write releases what it held", () => {
    const f = new OwnWriteFilter("status");
    const { delivered, send } = harness(f);
    const done = f.willWrite(write("status"));
    send(update("10"));
    done(undefined);
    expect(delivered).toEqual(["10"]);
  });

  it("'status' leaves spec and metadata writes' echoes alone; 'all' suppresses them; deletes always pass", () => {
    const status = new OwnWriteFilter("status");
    const a = harness(status);
    status.willWrite(write(undefined))(obj("10"));
    a.send(update("10"));
    expect(a.delivered).toEqual(["10"]);

    const all = new OwnWriteFilter("all");
    const b = harness(all);
    all.willWrite(write(undefined))(obj("10"));
    b.send(update("10"));
    all.willWrite(write(undefined))(obj("11"));
    b.send({ type: "delete", object: obj("11"), deleteStateUnknown: false });
    expect(b.delivered).toEqual(["11"]);
  });

  it("an update made up by a relist is delivered even at our version (writes in the gap were never seen)", () => {
    const f = new OwnWriteFilter("status");
    const { delivered, send } = harness(f);
    f.willWrite(write("status"))(obj("10"));
    send(update("10", true));
    expect(delivered).toEqual(["10"]);
  });

  it("other objects are not affected, and a skipped echo is forgotten at the next newer event", () => {
    const f = new OwnWriteFilter("status");
    const { delivered, send } = harness(f);
    f.willWrite(write("status"))(obj("10"));
    f.admit(Widget, { type: "update", oldObject: obj("1", "v"), object: obj("10", "v") }, (e) =>
      delivered.push(`v@${e.object.metadata?.resourceVersion}`),
    );
    send(update("12"));
    send(update("13"));
    expect(delivered).toEqual(["v@10", "12", "13"]);
    expect(f.size).toBe(0);
  });
});

describe("which writes are a reconcile's own", () => {
  it("writes to the reconciled object and to children naming it as owner, only while it reconciles", () => {
    const Child = defineKind<KubernetesObject>({
      group: "",
      version: "v1",
      kind: "ConfigMap",
      plural: "configmaps",
      namespaced: true,
    });
    const observer = { willWrite: () => () => {} };
    const observers = new WriteObservers();
    const stop = observers.observe(Widget, { namespace: "ns", name: "w" }, observer);
    const writeObserversFor = observers.of.bind(observers);
    const owned = {
      metadata: { ownerReferences: [{ apiVersion: "x.io/v1", kind: "Widget", name: "w", uid: "u" }] },
    };
    expect(writeObserversFor(Widget, { namespace: "ns", name: "w" }, {})).toEqual([observer]);
    expect(writeObserversFor(Child, { namespace: "ns", name: "child" }, owned)).toEqual([observer]);
    expect(writeObserversFor(Child, { namespace: "ns", name: "child" }, {})).toEqual([]);
    expect(writeObserversFor(Widget, { namespace: "other", name: "w" }, {})).toEqual([]);
    // A create with only generateName has no key yet: the body's namespace places the owner.
    const generated = { metadata: { ...owned.metadata, generateName: "child-", namespace: "ns" } };
    expect(writeObserversFor(Child, undefined, generated)).toEqual([observer]);
    stop();
    expect(writeObserversFor(Widget, { namespace: "ns", name: "w" }, {})).toEqual([]);
  });
});
