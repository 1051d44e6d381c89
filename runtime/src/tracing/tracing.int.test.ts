// Issue 17.5 against a real etcd + kube-apiserver: with an OpenTelemetry SDK (in-memory exporter) and
// the AsyncLocalStorage context manager registered, a watch event's span is linked from the reconcile
// it caused, and the client's API calls inside that reconcile are its children.
import { context, type SpanContext, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMap, Namespace } from "../api/kinds.js";
import { controllerManagedBy } from "../builder/builder.js";
import { createClient } from "../client/client.js";
import { mergePatch } from "../client/patch.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { eventually } from "../internal/testdata/eventually.js";
import { createLogger } from "../log/logger.js";
import { createManager } from "../manager/manager.js";
import { newPredicateFuncs } from "../predicate/predicate.js";

const NS = "traced";
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager().enable();

let env: Environment;
let client: Client;
const stop = new AbortController();
let done: Promise<void> | undefined;
/** Released by the test to let the first reconcile of "coalesce" finish. */
let releaseCoalesce!: () => void;
const coalesceGate = new Promise<void>((r) => {
  releaseCoalesce = r;
});
const failures = new Set(["fails-once"]);

/** Polls `find` (every 20 ms) until it finds something. */
const until = <T>(what: string, find: () => T | undefined, ms = 30_000) => eventually(what, find, ms, 20);

const spans = () => exporter.getFinishedSpans();
const attr = (s: ReadableSpan, key: string) => s.attributes[key];
const sameSpan = (a: SpanContext, b: SpanContext) => a.traceId === b.traceId && a.spanId === b.spanId;
const reconciles = (name: string) =>
  spans().filter((s) => s.name === "reconcile traced" && attr(s, "kbts.request.name") === name);
const events = (name: string, type: string) =>
  spans().filter((s) => attr(s, "kbts.object.name") === name && attr(s, "kbts.event.type") === type);
const childrenOf = (parent: ReadableSpan) =>
  spans().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

beforeAll(async () => {
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(contextManager);
  env = await startEnvironment();
  client = createClient(env.kubeConfig);
  await client.create(Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
  const mgr = createManager({
    kubeConfig: env.kubeConfig,
    logger: createLogger({ level: "silent" }),
    metricsBindAddress: "0",
    healthProbeBindAddress: "0",
  });
  const reader = mgr.getAPIReader();
  const writer = mgr.getClient();
  controllerManagedBy(mgr)
    .for(ConfigMap, { predicates: [newPredicateFuncs((o) => o.metadata?.namespace === NS)] })
    .named("traced")
    .complete({
      async reconcile(req) {
        // An uncached read and a write: two API calls this reconcile makes.
        const cm = await reader.get(ConfigMap, req);
        if (req.name === "coalesce" && !cm.metadata?.annotations?.seen) await coalesceGate;
        if (failures.delete(req.name)) throw new Error("first attempt fails");
        if (req.name === "fails-once") return { requeueAfter: 60_000 };
        if (!cm.metadata?.annotations?.seen) {
          await writer.patch(ConfigMap, req, mergePatch({ metadata: { annotations: { seen: "yes" } } }));
        }
        return undefined;
      },
    });
  done = mgr.start(stop.signal);
  await mgr.elected();
}, 120_000);

afterAll(async () => {
  stop.abort();
  await done?.catch(() => {});
  await env?.stop();
  await provider.shutdown();
  contextManager.disable();
  trace.disable();
  context.disable();
});

async function createConfigMap(name: string): Promise<void> {
  await client.create(ConfigMap, {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: NS },
    data: { a: "1" },
  });
}

describe("tracing with an OpenTelemetry SDK", () => {
  it("links the reconcile to the watch event that caused it, with the client's API calls as children", async () => {
    await createConfigMap("one");
    const reconcile = await until("a reconcile of one that wrote", () =>
      reconciles("one").find((s) => childrenOf(s).some((c) => attr(c, "http.request.method") === "PATCH")),
    );
    const added = events("one", "add");
    expect(added).toHaveLength(1);
    const event = added[0] as ReadableSpan;
    expect(event.name).toBe("watch ConfigMap add");
    expect(attr(event, "kbts.object.namespace")).toBe(NS);
    expect(event.events.map((e) => e.name)).toContain("enqueued");

    // "Why did this reconcile run": it links to the event's span.
    expect(reconcile.links.some((l) => sameSpan(l.context, event.spanContext()))).toBe(true);
    expect(reconcile.parentSpanContext).toBeUndefined();
    expect(attr(reconcile, "kbts.controller")).toBe("traced");
    expect(attr(reconcile, "kbts.request.namespace")).toBe(NS);
    expect(attr(reconcile, "kbts.reconcile.result")).toBe("success");
    expect(typeof attr(reconcile, "kbts.reconcile.id")).toBe("string");

    // The API calls it made are its children, with method, path and status.
    const calls = childrenOf(reconcile).map((c) => ({
      name: c.name,
      method: attr(c, "http.request.method"),
      path: attr(c, "url.path"),
      status: attr(c, "http.response.status_code"),
    }));
    expect(calls).toEqual([
      { name: "GET configmaps", method: "GET", path: `/api/v1/namespaces/${NS}/configmaps/one`, status: 200 },
      {
        name: "PATCH configmaps",
        method: "PATCH",
        path: `/api/v1/namespaces/${NS}/configmaps/one`,
        status: 200,
      },
    ]);
    for (const c of childrenOf(reconcile))
      expect(c.spanContext().traceId).toBe(reconcile.spanContext().traceId);

    // The reconciler's own write comes back as an update event, which links the next reconcile.
    const next = await until("the reconcile caused by the write", () => {
      const update = events("one", "update")[0];
      return update
        ? reconciles("one").find((s) => s.links.some((l) => sameSpan(l.context, update.spanContext())))
        : undefined;
    });
    expect(childrenOf(next).map((c) => c.name)).toEqual(["GET configmaps"]);
  });

  it("several events coalesced in the queue give one reconcile with several links", async () => {
    await createConfigMap("coalesce");
    // Its GET has ended (a child of the still-open reconcile span): the reconcile is waiting at the gate.
    await until("the first reconcile of coalesce to be waiting", () =>
      spans().find((s) => attr(s, "url.path") === `/api/v1/namespaces/${NS}/configmaps/coalesce`),
    );
    // While that reconcile waits, three changes arrive: the queue holds one request for all three.
    for (const v of ["2", "3", "4"]) {
      await client.patch(ConfigMap, { namespace: NS, name: "coalesce" }, mergePatch({ data: { a: v } }));
    }
    const updates = await until("three update events", () => {
      const u = events("coalesce", "update");
      return u.length >= 3 ? u : undefined;
    });
    releaseCoalesce();
    const second = await until("the reconcile after the three updates", () =>
      reconciles("coalesce").find((s) => s.links.length >= 3),
    );
    for (const u of updates.slice(0, 3)) {
      expect(second.links.some((l) => sameSpan(l.context, u.spanContext()))).toBe(true);
    }
    expect(attr(second, "kbts.reconcile.triggers")).toBe(second.links.length);
  });

  it("records a failed reconcile as an error, and links the retry to it; requeueAfter is an attribute", async () => {
    await createConfigMap("fails-once");
    const failed = await until("the failed reconcile", () =>
      reconciles("fails-once").find((s) => attr(s, "kbts.reconcile.result") === "error"),
    );
    expect(failed.status.code).toBe(2); // SpanStatusCode.ERROR
    expect(failed.status.message).toBe("first attempt fails");
    expect(failed.events.some((e) => e.name === "exception")).toBe(true);
    const retry = await until("the retry", () =>
      reconciles("fails-once").find((s) => s.links.some((l) => sameSpan(l.context, failed.spanContext()))),
    );
    expect(attr(retry, "kbts.reconcile.result")).toBe("requeue_after");
    expect(attr(retry, "kbts.reconcile.requeue_after_ms")).toBe(60_000);
  });

  it("makes no client spans outside a reconcile or event (informer lists, plain client calls)", async () => {
    const before = spans().length;
    await client.get(ConfigMap, { namespace: NS, name: "one" });
    expect(
      spans()
        .slice(before)
        .filter((s) => attr(s, "http.request.method") !== undefined),
    ).toEqual([]);
    expect(spans().filter((s) => s.parentSpanContext === undefined && attr(s, "url.path"))).toEqual([]);
  });
});
