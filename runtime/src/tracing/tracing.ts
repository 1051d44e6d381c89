/**
 * Optional OpenTelemetry spans (issue 17.5): watch event → queue → reconcile → each API call.
 *
 * `@opentelemetry/api` is an optional peer dependency, loaded with a dynamic import when a manager or
 * controller starts (loadTracing) with a tracer provider registered (tracingWanted); without the
 * package, or without a provider, it is not loaded and every hook here runs its function and nothing
 * else. Spans go to the global tracer provider, or to useTracerProvider's.
 *
 * - Each watch event a controller's kind source receives is a CONSUMER span (a root), during which its
 *   predicates and handler run; every request the handler enqueues adds an "enqueued" span event.
 * - Each reconcile is an INTERNAL span (a root) that LINKS to the span contexts that enqueued its
 *   request since it was last taken from the queue: several events coalesced in the queue give
 *   several links, a requeue links to the reconcile that asked for it. It is the active span while
 *   the reconciler runs, so with a context manager (AsyncLocalStorage) registered...
 * - ...each API call the client makes inside it is a CLIENT child span. API calls with no active span
 *   (informer lists, lease renewals) make none.
 */
import type * as otel from "@opentelemetry/api";
import type { Request } from "../reconcile/types.js";
import type { RateLimitingQueue } from "../workqueue/queue.js";

type OtelApi = typeof otel;

/** The part of an OpenTelemetry TracerProvider the runtime uses (so the public types need no OTel package). */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

const TRACER_NAME = "@kbts/runtime";
/** A request whose queue entry keeps growing (a hot loop) keeps at most this many links. */
const MAX_LINKS = 32;

let api: OtelApi | undefined;
let loading: Promise<void> | undefined;
/** loadTracing has settled (api is then the package, or undefined when it is missing). */
let loaded = false;
let provider: TracerProviderLike | undefined;
let tracer: otel.Tracer | undefined;

/**
 * Loads `@opentelemetry/api` once, if installed; resolves either way. `importApi` is for tests that
 * need the package to be missing.
 */
export function loadTracing(
  importApi: () => Promise<OtelApi> = () => import("@opentelemetry/api"),
): Promise<void> {
  loading ??= importApi().then(
    (m) => {
      api = m;
      loaded = true;
    },
    () => {
      api = undefined; // not installed: tracing stays off
      loaded = true;
    },
  );
  return loading;
}

/**
 * Whether spans have somewhere to go: a provider from useTracerProvider, or one registered as
 * OpenTelemetry's global tracer provider (which the API keeps on globalThis under a versioned symbol,
 * so this reads it without loading the API). Managers and controllers call loadTracing only then: with
 * tracing off, @opentelemetry/api is never loaded, though it is installed (prom-client depends on it).
 */
export function tracingWanted(): boolean {
  if (provider) return true;
  const global = globalThis as unknown as Record<symbol, { trace?: unknown } | undefined>;
  return Object.getOwnPropertySymbols(globalThis).some(
    (key) =>
      key.description?.startsWith("opentelemetry.js.api.") === true && global[key]?.trace !== undefined,
  );
}

/** Sends the runtime's spans to this provider instead of the global one (undefined: back to global). */
export function useTracerProvider(p: TracerProviderLike | undefined): void {
  provider = p;
  tracer = undefined;
}

function currentTracer(): otel.Tracer | undefined {
  if (!api) return undefined;
  tracer ??=
    (provider?.getTracer(TRACER_NAME) as otel.Tracer | undefined) ?? api.trace.getTracer(TRACER_NAME);
  return tracer;
}

/** What an event span says about the object (kind as groupKindOf, e.g. "Pod", "Widget.test.kbts.io"). */
export interface EventSpanInfo {
  kind: string;
  type: "add" | "update" | "delete" | "generic";
  namespace?: string;
  name?: string;
  resourceVersion?: string;
  initialList?: boolean;
}

/**
 * Runs `deliver` (predicates and handler of one source) inside a span for the event; returns what it
 * returned, so the source knows how long an asynchronous handler runs.
 */
export function traceEvent(info: EventSpanInfo, deliver: () => void | Promise<void>): void | Promise<void> {
  const t = currentTracer();
  if (!t || !api) return deliver();
  const a = api;
  const attributes: otel.Attributes = { "kbts.event.type": info.type, "kbts.object.kind": info.kind };
  if (info.namespace) attributes["kbts.object.namespace"] = info.namespace;
  if (info.name) attributes["kbts.object.name"] = info.name;
  if (info.resourceVersion) attributes["kbts.object.resource_version"] = info.resourceVersion;
  if (info.initialList) attributes["kbts.event.initial_list"] = true;
  const span = t.startSpan(
    `watch ${info.kind} ${info.type}`,
    { kind: a.SpanKind.CONSUMER, attributes },
    a.ROOT_CONTEXT,
  );
  let pending: void | Promise<void>;
  try {
    pending = a.context.with(a.trace.setSpan(a.ROOT_CONTEXT, span), deliver);
  } catch (err) {
    endWithError(span, err);
    throw err;
  }
  if (pending && typeof pending.then === "function") {
    pending.then(
      () => span.end(),
      (err: unknown) => endWithError(span, err),
    );
  } else {
    span.end();
  }
  return pending;
}

interface Pending {
  links: otel.Link[];
  /** When the first of these links was added (time in queue). */
  since: number;
}

/** Per traced queue: the span contexts that enqueued each request, until a worker takes it. */
const pendingByQueue = new WeakMap<object, Map<string, Pending>>();

const keyOf = (r: Request) => `${r.namespace ?? ""}/${r.name}`;

/**
 * The controller's queue, recording which span enqueued each request (see traceReconcile). The queue
 * itself once the API is known to be missing; while loadTracing is still loading, a wrapper that
 * records nothing until it has loaded.
 */
export function traceQueue(queue: RateLimitingQueue<Request>): RateLimitingQueue<Request> {
  if (loaded && !api) return queue;
  const pending = new Map<string, Pending>();
  const note = (request: Request) => {
    if (!api || !currentTracer()) return;
    const span = api.trace.getSpan(api.context.active());
    const sc = span?.spanContext();
    if (!span || !sc || !api.isSpanContextValid(sc)) return;
    span.addEvent("enqueued", {
      "kbts.request.namespace": request.namespace ?? "",
      "kbts.request.name": request.name,
    });
    const key = keyOf(request);
    let p = pending.get(key);
    if (!p) {
      p = { links: [], since: Date.now() };
      pending.set(key, p);
    }
    if (p.links.length < MAX_LINKS) p.links.push({ context: sc });
  };
  // Delegates by name: the queue is a class instance, whose methods a spread would not copy.
  const traced: RateLimitingQueue<Request> = {
    get: () => queue.get(),
    done: (item) => queue.done(item),
    forget: (item) => queue.forget(item),
    numRequeues: (item) => queue.numRequeues(item),
    len: () => queue.len(),
    shutdown: () => queue.shutdown(),
    shutdownWithDrain: () => queue.shutdownWithDrain(),
    shuttingDown: () => queue.shuttingDown(),
    add(item, options) {
      note(item);
      queue.add(item, options);
    },
    addAfter(item, delayMs, options) {
      note(item);
      queue.addAfter(item, delayMs, options);
    },
    addRateLimited(item, options) {
      note(item);
      queue.addRateLimited(item, options);
    },
  };
  pendingByQueue.set(traced, pending);
  return traced;
}

/** What the controller reports at the end of a reconcile. */
export interface ReconcileOutcome {
  result: string;
  requeueAfterMs?: number;
  error?: unknown;
  reconcileID?: string;
}

/** Lets the reconcile handler report its outcome on the span (no-op when tracing is off). */
export type ReportOutcome = (outcome: ReconcileOutcome) => void;

const noReport: ReportOutcome = () => {};

/**
 * Runs one reconcile (`run`) in a span linked to whatever enqueued the request, as the active span, so
 * the client's API calls become its children.
 */
export async function traceReconcile<R>(
  queue: RateLimitingQueue<Request>,
  controller: string,
  request: Request,
  run: (report: ReportOutcome) => Promise<R>,
): Promise<R> {
  const t = currentTracer();
  const pending = pendingByQueue.get(queue);
  if (!t || !api || !pending) return run(noReport);
  const a = api;
  const key = keyOf(request);
  const taken = pending.get(key);
  pending.delete(key);
  const attributes: otel.Attributes = {
    "kbts.controller": controller,
    "kbts.request.namespace": request.namespace ?? "",
    "kbts.request.name": request.name,
    "kbts.reconcile.triggers": taken?.links.length ?? 0,
  };
  if (taken) attributes["kbts.queue.wait_ms"] = Date.now() - taken.since;
  const span = t.startSpan(
    `reconcile ${controller}`,
    { kind: a.SpanKind.INTERNAL, attributes, links: taken?.links },
    a.ROOT_CONTEXT,
  );
  const report: ReportOutcome = (o) => {
    span.setAttribute("kbts.reconcile.result", o.result);
    if (o.reconcileID) span.setAttribute("kbts.reconcile.id", o.reconcileID);
    if (o.requeueAfterMs) span.setAttribute("kbts.reconcile.requeue_after_ms", o.requeueAfterMs);
    if (o.error !== undefined) markError(span, o.error);
  };
  try {
    return await a.context.with(a.trace.setSpan(a.ROOT_CONTEXT, span), () => run(report));
  } finally {
    span.end();
  }
}

/** Told the answer's HTTP status by the REST client. */
export type ReportStatus = (statusCode: number) => void;

/**
 * One API call (all its retries) as a CLIENT span, a child of the active span; without an active
 * span (or tracing) just `send`.
 */
export async function traceRequest<T>(
  method: string,
  path: string,
  server: URL,
  send: (status?: ReportStatus) => Promise<T>,
): Promise<T> {
  const t = currentTracer();
  if (!t || !api) return send();
  const a = api;
  const parent = a.context.active();
  if (!a.trace.getSpan(parent)) return send();
  const urlPath = path.split("?", 1)[0] as string;
  const span = t.startSpan(
    `${method} ${resourceOf(urlPath)}`,
    {
      kind: a.SpanKind.CLIENT,
      attributes: {
        "http.request.method": method,
        "url.path": urlPath,
        "server.address": server.hostname,
        "server.port": Number(server.port) || (server.protocol === "https:" ? 443 : 80),
      },
    },
    parent,
  );
  try {
    return await a.context.with(a.trace.setSpan(parent, span), () =>
      send((code) => span.setAttribute("http.response.status_code", code)),
    );
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "number" && code > 0) span.setAttribute("http.response.status_code", code);
    markError(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/**
 * A low-cardinality span name from an API path: "/api/v1/namespaces/ns/pods/p/status" → "pods/status",
 * "/apis/apps/v1/deployments" → "deployments", "/api/v1/namespaces/ns" → "namespaces".
 */
export function resourceOf(path: string): string {
  const parts = path.split("/").filter(Boolean);
  let rest = parts[0] === "api" ? parts.slice(2) : parts[0] === "apis" ? parts.slice(3) : parts;
  if (rest[0] === "namespaces" && rest.length > 2) rest = rest.slice(2);
  if (rest.length === 0) return path;
  return rest.length >= 3 ? `${rest[0]}/${rest[2]}` : (rest[0] as string);
}

function markError(span: otel.Span, err: unknown): void {
  if (!api) return;
  const e = err instanceof Error ? err : new Error(String(err));
  span.recordException(e);
  span.setAttribute("error.type", e.name);
  span.setStatus({ code: api.SpanStatusCode.ERROR, message: e.message });
}

function endWithError(span: otel.Span, err: unknown): void {
  markError(span, err);
  span.end();
}
