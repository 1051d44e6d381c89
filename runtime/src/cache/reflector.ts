/**
 * The reflector: client-go's list-then-watch loop for one kind (and one namespace, or all).
 *
 * Why not client-node's informer: it gives no old object on update (predicates and update events
 * need it), never requests bookmarks (so every reconnect after a quiet period risks a 410 and a full
 * relist), and on any error other than 410 or a timeout it emits `error` and stops for good, which
 * is how Node operators' watches "silently die" (client-node#364, #1933, #2424). This loop:
 *  - gets the initial state as a stream (WatchList, KEP-3157: a watch with sendInitialEvents=true whose
 *    initial ADDED events end with a bookmark annotated k8s.io/initial-events-end), so the API server
 *    never builds the whole list in memory; a server that refuses it (the WatchList feature gate off,
 *    or older than 1.27) answers 400/422, and this reflector then lists in pages from then on (over the
 *    watch connections, so the watch reuses the list's);
 *  - then watches from that resourceVersion (a WatchList stream simply goes on as the watch, one
 *    connection for both) with allowWatchBookmarks=true and a server-side timeout
 *    randomised in [min, 2·min) like client-go (5–10 min), so replicas do not reconnect in lockstep;
 *  - on 410 Gone (HTTP or an ERROR event) or "resource version too large", relists;
 *  - on every other failure or a stream that ends too soon, reconnects with exponential backoff
 *    (800 ms → 30 s, ±25 % jitter, reset after a healthy period; never shorter than the Retry-After
 *    of a 429 or 5xx, which the REST client has already honoured a few times), resuming from the last
 *    resourceVersion it saw; but a watch that worked (lived past minHealthyWatchMs or delivered
 *    events) and then broke is forgiven, as client-go does: the failure count resets and it
 *    reconnects at once. Counting such breaks as failures escalated the delay to 30 s under a
 *    proxy that reset connections every 3 s (issue 19, item 3);
 *  - checks a watch that has been silent (no event, no bookmark) for livenessCheckMs (15 s): a second,
 *    one-second watch from the same resourceVersion over a fresh request must find nothing newer.
 *    If it finds events the first one missed, or gets no answer within livenessProbeTimeoutMs, the
 *    watch is stalled (a frozen or half-open connection never errors on its own): it is reported
 *    (stats.stalled, /readyz), idle pooled connections are dropped, and it reconnects at once. A
 *    watch silent past its own timeout plus a margin is restarted too;
 *  - logs every failure with the kind, namespace and attempt, and stops only when its signal aborts.
 * It keeps no objects: the sink (the informer) owns the store and computes what a relist changed.
 */
import type { Status } from "../api/core.js";
import { groupKindOf, type Kind } from "../api/kind.js";
import type { KubernetesList, KubernetesObject } from "../api/meta.js";
import { ApiError, errorFromStatus, isGone } from "../client/errors.js";
import { acceptFor } from "../client/metadata.js";
import { queryString, resourcePath } from "../client/paths.js";
import { RequestAbortedError, type RestClient, type WatchEvent } from "../client/rest.js";
import { sleepUnlessAborted } from "../internal/sleep.js";
import type { Logger } from "../log/types.js";
import { WatchWatchdog } from "./watchdog.js";

export interface ReflectorSink {
  /**
   * Turns a decoded object into what is stored (transform, freeze). Called for each list item as its
   * page arrives, so a big list never sits in memory untransformed; the other methods get its result.
   */
  prepare?(obj: KubernetesObject): KubernetesObject;
  /** The complete state after a (re)list. */
  replace(items: KubernetesObject[], resourceVersion: string): void;
  /** ADDED and MODIFIED events (the sink tells add from update by what it holds). */
  upsert(obj: KubernetesObject): void;
  remove(obj: KubernetesObject): void;
  /**
   * The reflector has seen everything up to this resourceVersion (after a list, an event or a
   * bookmark): what read-your-own-writes waits on.
   */
  progress?(resourceVersion: string): void;
}

export interface ReflectorTuning {
  /** Items per list page (client-go: 500). */
  pageSize: number;
  /** Watch timeoutSeconds is drawn from [min, 2·min) (client-go: 300 s). */
  minWatchTimeoutSeconds: number;
  /** A watch silent for longer than its timeout plus this margin is restarted. */
  stallMarginMs: number;
  /** After this much silence, verify the watch with a short second watch (0: never). */
  livenessCheckMs: number;
  /** How long that verification may take before the connection counts as dead. */
  livenessProbeTimeoutMs: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** A connection that stayed healthy this long resets the backoff (client-go: 2 min). */
  backoffResetMs: number;
  /**
   * A watch that ends sooner than this with no events counts as a failure (backoff); one that lived
   * longer, or delivered events, worked, and is reopened at once however it ended (client-go: 1 s).
   */
  minHealthyWatchMs: number;
  allowWatchBookmarks: boolean;
  /**
   * Get the initial state by WatchList when the server offers it (default true; false lists in pages,
   * as the environment variable KBTS_WATCH_LIST=false also makes every reflector do, like client-go's
   * KUBE_FEATURE_WatchListClient).
   */
  watchList: boolean;
}

/** The annotation of the bookmark that ends a WatchList stream's initial events. */
export const INITIAL_EVENTS_END_ANNOTATION = "k8s.io/initial-events-end";

export const defaultReflectorTuning: Readonly<ReflectorTuning> = Object.freeze({
  pageSize: 500,
  minWatchTimeoutSeconds: 300,
  stallMarginMs: 30_000,
  livenessCheckMs: 15_000,
  livenessProbeTimeoutMs: 5_000,
  backoffInitialMs: 800,
  backoffMaxMs: 30_000,
  backoffResetMs: 120_000,
  minHealthyWatchMs: 1_000,
  allowWatchBookmarks: true,
  watchList: process.env.KBTS_WATCH_LIST !== "false",
});

export interface ReflectorOptions {
  rest: RestClient;
  kind: Kind;
  /** Watch one namespace; all when absent (or for cluster-scoped kinds). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /**
   * KEP-5866's server-side shard selector (`shardRange(object.metadata.uid, lo, hi)`), read afresh
   * for each list and watch: sharding changes it with membership, then calls relist().
   */
  shardSelector?: () => string | undefined;
  sink: ReflectorSink;
  logger: Logger;
  tuning?: Partial<ReflectorTuning>;
}

/** Counters for tests, benchmarks and debugging. */
export interface ReflectorStats {
  /** Initial states got, by a paged list or a WatchList stream. */
  lists: number;
  /** Of those, the ones streamed by WatchList. */
  streamedLists: number;
  /** Watches opened, WatchList streams included (each goes on as the watch after its initial state). */
  watches: number;
  events: number;
  bookmarks: number;
  /** Relists caused by 410 Gone / too-large resourceVersion. */
  relists: number;
  failures: number;
  /** Failures of watches that had worked first: reconnected at once, without backoff. */
  forgiven: number;
  lastResourceVersion: string;
  /**
   * The listSequence() number of the last completed list, taken when it read its selectors: a list
   * numbered above a moment's listSequence() began after that moment (sharding's readiness for a new
   * range waits for one).
   */
  lastListSeq: number;
  /** The latest list or watch failure, cleared by the next successful list. */
  lastError?: { phase: "list" | "watch"; error: unknown };
  /** Set while the watch is known to be stalled; cleared by the next event, bookmark or list. */
  stalled?: { since: number; reason: string };
}

/** Numbers the lists of every reflector in the process, in the order they read their selectors. */
let listsBegun = 0;

/** The number of the latest list begun: a list completed with a higher lastListSeq began after this call. */
export function listSequence(): number {
  return listsBegun;
}

class StallError extends Error {
  override name = "StallError";
}

export class Reflector {
  readonly stats: ReflectorStats = {
    lists: 0,
    streamedLists: 0,
    watches: 0,
    events: 0,
    bookmarks: 0,
    relists: 0,
    failures: 0,
    forgiven: 0,
    lastResourceVersion: "",
    lastListSeq: 0,
  };
  private readonly tuning: ReflectorTuning;
  private readonly log: Logger;
  private failuresInARow = 0;
  private lastFailureAt = 0;
  /** Set by watchOnce when the watch that just failed had worked first. */
  private lastWatchWorked = false;
  /** Aborts the current list or watch (relist()); replaced each round of run(). */
  private interrupt: AbortController | undefined;
  private relistRequested = false;
  /** Cleared when the server refuses a WatchList request: paged lists from then on. */
  private streamInitialState: boolean;

  constructor(private readonly options: ReflectorOptions) {
    this.tuning = { ...defaultReflectorTuning, ...options.tuning };
    this.streamInitialState = this.tuning.watchList;
    this.log = options.logger.child({
      component: "reflector",
      kind: groupKindOf(options.kind),
      ...(options.namespace ? { namespace: options.namespace } : {}),
    });
  }

  /** The namespace this reflector watches; undefined for all. */
  get namespace(): string | undefined {
    return this.options.namespace;
  }

  /**
   * Ends the current list or watch and lists again (the sink then drops what no longer matches): for
   * a shard selector that changed. A no-op before run.
   */
  relist(): void {
    this.relistRequested = true;
    this.interrupt?.abort();
  }

  /** Runs until `stop` aborts; never rejects. */
  async run(stop: AbortSignal): Promise<void> {
    let needList = true;
    while (!stop.aborted) {
      // A signal of its own that follows `stop` (AbortSignal.any adds no listener to its sources): every
      // request listens for its signal's abort, and a cache with a reflector per namespace and kind on one
      // shared signal would pile those listeners up there (Node warns past ten). relist() aborts it.
      this.interrupt = new AbortController();
      const signal = AbortSignal.any([stop, this.interrupt.signal]);
      if (this.relistRequested) {
        this.relistRequested = false;
        needList = true;
      }
      try {
        if (needList && !this.streamInitialState) {
          await this.pagedList(signal);
          needList = false;
        }
        // With WatchList the watch itself delivers the initial state first (settled there).
        const initial = needList
          ? () => {
              needList = false;
            }
          : undefined;
        const healthy = await this.watchOnce(signal, initial);
        if (needList) throw new Error("the WatchList stream ended before its initial-events-end bookmark");
        if (healthy) {
          this.failuresInARow = 0;
          continue;
        }
        throw new Error("watch closed by the server right after it opened");
      } catch (err) {
        if (stop.aborted) break;
        if (signal.aborted) continue; // relist() interrupted it
        if (needList && this.streamInitialState && refusesWatchList(err)) {
          this.streamInitialState = false;
          this.log.info(
            { err: errorMessage(err) },
            "the API server does not stream lists (WatchList); listing in pages",
          );
          continue;
        }
        const worked = this.lastWatchWorked;
        this.lastWatchWorked = false;
        // A watch that lost its place relists at once; a list that fails that way backs off like any failure.
        if (!needList && (isGone(err) || isTooLargeResourceVersion(err))) {
          this.stats.relists++;
          this.log.info(
            { resourceVersion: this.stats.lastResourceVersion, reason: errorMessage(err) },
            "resourceVersion no longer served; relisting",
          );
          needList = true;
          continue;
        }
        this.stats.failures++;
        this.stats.lastError = { phase: needList ? "list" : "watch", error: err };
        if (worked && !needList) {
          this.failuresInARow = 0;
          this.stats.forgiven++;
          this.log.info({ err: errorMessage(err) }, "watch broke after it worked; reconnecting at once");
          continue;
        }
        const delay = Math.max(this.nextBackoff(), retryAfterMs(err));
        this.log.error(
          {
            attempt: this.failuresInARow,
            retryInMs: Math.round(delay),
            phase: needList ? "list" : "watch",
            err: errorMessage(err),
            ...(err instanceof ApiError ? { code: err.code, reason: err.reason } : {}),
          },
          needList ? "list failed; retrying" : "watch failed; reconnecting",
        );
        await sleepUnlessAborted(delay, signal);
        if (stop.aborted) break;
      }
    }
    this.log.debug("reflector stopped");
  }

  private nextBackoff(): number {
    const now = Date.now();
    if (now - this.lastFailureAt > this.tuning.backoffResetMs) this.failuresInARow = 0;
    this.lastFailureAt = now;
    this.failuresInARow++;
    return backoffDelay(this.failuresInARow, this.tuning);
  }

  private collectionPath(): string {
    const { kind, namespace } = this.options;
    return resourcePath(kind, { namespace: kind.namespaced ? namespace : undefined });
  }

  /** A watch's server-side timeout, drawn from [min, 2·min) so replicas do not reconnect in lockstep. */
  private watchTimeoutSeconds(): number {
    const min = this.tuning.minWatchTimeoutSeconds;
    return Math.floor(min + Math.random() * min);
  }

  /** Lists every page and hands the result to the sink. */
  private async pagedList(signal: AbortSignal): Promise<void> {
    const { rest, labelSelector, fieldSelector, sink } = this.options;
    // One selector for every page: a continue token belongs to the list it came from.
    const seq = ++listsBegun;
    const shardSelector = this.options.shardSelector?.();
    let items: KubernetesObject[] = [];
    let cont: string | undefined;
    let rv = "";
    let paged = true;
    for (;;) {
      const path =
        this.collectionPath() +
        queryString({
          labelSelector,
          fieldSelector,
          shardSelector,
          limit: paged ? this.tuning.pageSize : undefined,
          continue: cont,
        });
      let page: KubernetesList<KubernetesObject>;
      try {
        page = await rest.request<KubernetesList<KubernetesObject>>({
          method: "GET",
          path,
          signal,
          accept: acceptFor(this.options.kind, "list"),
          onWatchConnections: true,
        });
      } catch (err) {
        // An expired continue token (the list took longer than etcd keeps history): list in one go.
        if (cont && isGone(err)) {
          this.log.info("list continue token expired; listing without pages");
          items = [];
          cont = undefined;
          paged = false;
          continue;
        }
        throw err;
      }
      for (const item of page.items ?? []) items.push(sink.prepare ? sink.prepare(item) : item);
      rv = page.metadata?.resourceVersion ?? rv;
      cont = page.metadata?.continue || undefined;
      if (!cont) break;
    }
    this.settle(items, rv, seq);
  }

  /** The initial state is complete at `rv`: the sink gets it, and the watch resumes from there. */
  private settle(items: KubernetesObject[], rv: string, seq: number): void {
    this.stats.lists++;
    this.stats.lastListSeq = seq;
    this.stats.lastError = undefined;
    this.stats.stalled = undefined;
    this.stats.lastResourceVersion = rv;
    this.options.sink.replace(items, rv);
    this.options.sink.progress?.(rv);
  }

  /**
   * One watch until the server ends it. Returns whether it was healthy (it delivered the initial state,
   * lived long enough or delivered something); throws on failure.
   *
   * From the last resourceVersion, or, given `onInitialState`, a WatchList: sendInitialEvents=true from
   * no resourceVersion (resourceVersionMatch NotOlderThan: at least as fresh as a quorum read) delivers
   * every object as ADDED, then a bookmark annotated k8s.io/initial-events-end whose resourceVersion is
   * the state's. The state is settled there and the same stream goes on as the watch, as client-go's
   * reflector keeps it: no second connection, and no event can fall between the two.
   */
  private async watchOnce(signal: AbortSignal, onInitialState?: () => void): Promise<boolean> {
    const { rest, labelSelector, fieldSelector, sink } = this.options;
    const timeoutSeconds = this.watchTimeoutSeconds();
    const streaming = onInitialState !== undefined;
    const path =
      this.collectionPath() +
      queryString({
        watch: "true",
        ...(streaming
          ? { sendInitialEvents: "true", allowWatchBookmarks: "true", resourceVersionMatch: "NotOlderThan" }
          : {
              resourceVersion: this.stats.lastResourceVersion,
              allowWatchBookmarks: this.tuning.allowWatchBookmarks ? "true" : undefined,
            }),
        timeoutSeconds,
        labelSelector,
        fieldSelector,
        shardSelector: this.options.shardSelector?.(),
      });
    const watchAbort = new AbortController();
    const onAbort = () => watchAbort.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    const stallAfterMs = timeoutSeconds * 1000 + this.tuning.stallMarginMs;
    const watchdog = new WatchWatchdog(watchAbort, {
      stallAfterMs,
      livenessCheckMs: this.tuning.livenessCheckMs,
      livenessProbeTimeoutMs: this.tuning.livenessProbeTimeoutMs,
      verify: (verifySignal) => this.verifyWatch(verifySignal),
      onCurrent: () => {
        this.stats.stalled = undefined;
      },
      onDead: (reason) => {
        this.stats.stalled = { since: Date.now(), reason };
        this.log.warn({ reason }, "watch stalled; reconnecting on a fresh connection");
        // Requests unanswered for 5 s while a watch is verified stalled are on the same dead path.
        rest.reportStalledPath(5_000);
      },
    });
    let started = Date.now();
    this.stats.watches++;
    // The initial state while it streams; undefined once settled (or from the start of a plain watch).
    // The watchdogs start once it has settled: a liveness check before then would verify from a
    // resourceVersion this watch has not reached.
    let initial = streaming ? { items: [] as KubernetesObject[], seq: ++listsBegun } : undefined;
    const onInitialEvent = (event: WatchEvent, state: { items: KubernetesObject[]; seq: number }) => {
      const obj = event.object as KubernetesObject;
      if (event.type === "ADDED") state.items.push(sink.prepare ? sink.prepare(obj) : obj);
      else if (event.type === "BOOKMARK") {
        if (obj.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] !== "true") return;
        this.stats.streamedLists++;
        this.settle(state.items, obj.metadata?.resourceVersion ?? "", state.seq);
        initial = undefined;
        started = Date.now();
        onInitialState!();
        watchdog.start();
      } else if (event.type === "ERROR") {
        throw watchError(event);
      } else {
        throw new Error(`unexpected ${event.type} event before the end of a WatchList's initial events`);
      }
    };
    if (!initial) watchdog.start();
    try {
      await rest.watch(
        path,
        (event: WatchEvent) =>
          initial ? onInitialEvent(event, initial) : watchdog.onEvent(() => this.handleEvent(event, sink)),
        watchAbort.signal,
        acceptFor(this.options.kind, "watch"),
      );
    } catch (err) {
      const lived = Date.now() - started;
      // A WatchList stream that delivered the initial state worked, whatever broke it afterwards.
      this.lastWatchWorked =
        !initial && (streaming || watchdog.events > 0 || lived >= this.tuning.minHealthyWatchMs);
      if (watchdog.deadReason) throw new StallError(`watch stalled: ${watchdog.deadReason}`);
      if (watchdog.stalled) {
        throw new StallError(`no event or bookmark for ${stallAfterMs} ms; the connection is presumed dead`);
      }
      if (err instanceof RequestAbortedError && signal.aborted) return true;
      throw err;
    } finally {
      watchdog.stop();
      signal.removeEventListener("abort", onAbort);
    }
    const delivered = watchdog.events;
    const lived = Date.now() - started;
    this.log.debug({ events: delivered, livedMs: lived }, "watch ended; resuming");
    return streaming || delivered > 0 || lived >= this.tuning.minHealthyWatchMs;
  }

  /**
   * Whether a silent watch is current: a one-second watch from the same resourceVersion, on a request
   * of its own, must deliver nothing (bookmarks aside). "missed" when it delivers events (or 410),
   * "unreachable" when it fails or gets no answer in time.
   */
  private async verifyWatch(signal: AbortSignal): Promise<"current" | "missed" | "unreachable"> {
    const { rest, labelSelector, fieldSelector } = this.options;
    const path =
      this.collectionPath() +
      queryString({
        watch: "true",
        resourceVersion: this.stats.lastResourceVersion,
        timeoutSeconds: 1,
        labelSelector,
        fieldSelector,
        shardSelector: this.options.shardSelector?.(),
      });
    const seen = new AbortController();
    let missed = false;
    try {
      await rest.watch(
        path,
        (event) => {
          if (event.type === "BOOKMARK") return;
          missed = true;
          seen.abort();
        },
        AbortSignal.any([signal, seen.signal, AbortSignal.timeout(this.tuning.livenessProbeTimeoutMs)]),
        acceptFor(this.options.kind, "watch"),
      );
    } catch (err) {
      if (missed || isGone(err)) return "missed";
      return "unreachable";
    }
    return missed ? "missed" : "current";
  }

  private handleEvent(event: WatchEvent, sink: ReflectorSink): void {
    const obj = event.object as KubernetesObject;
    this.stats.stalled = undefined;
    switch (event.type) {
      case "ADDED":
      case "MODIFIED":
        this.stats.events++;
        sink.upsert(sink.prepare ? sink.prepare(obj) : obj);
        break;
      case "DELETED":
        this.stats.events++;
        sink.remove(sink.prepare ? sink.prepare(obj) : obj);
        break;
      case "BOOKMARK":
        this.stats.bookmarks++;
        break;
      case "ERROR":
        throw watchError(event);
      default:
        throw new Error(`unknown watch event type "${String((event as { type: unknown }).type)}"`);
    }
    const rv = obj.metadata?.resourceVersion;
    if (rv) {
      this.stats.lastResourceVersion = rv;
      sink.progress?.(rv);
    }
  }
}

/**
 * The wait before retry number `attempt` (1-based): initial·2^(attempt-1), capped, then spread by
 * ±25 % so replicas that failed together do not retry together.
 */
export function backoffDelay(
  attempt: number,
  tuning: Pick<ReflectorTuning, "backoffInitialMs" | "backoffMaxMs">,
  random: () => number = Math.random,
): number {
  const base = Math.min(
    tuning.backoffMaxMs,
    tuning.backoffInitialMs * 2 ** Math.min(Math.max(attempt, 1) - 1, 30),
  );
  return base * (0.75 + random() * 0.5);
}

/**
 * The error an ERROR watch event carries. 410 there means the resourceVersion was compacted away:
 * errorFromStatus makes it a GoneError.
 */
function watchError(event: WatchEvent): ApiError {
  const status = event.object as Status;
  return errorFromStatus({ apiVersion: "v1", kind: "Status", status: "Failure", ...status });
}

/**
 * A server without WatchList refuses its parameters as invalid (422: "sendInitialEvents is forbidden
 * for watch unless the WatchList feature gate is enabled") or, behind some proxies, as a bad request.
 */
function refusesWatchList(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 422 || err.code === 400);
}

/** The wait a 429 or 5xx asked for (Status details.retryAfterSeconds, or the Retry-After header); 0 without. */
function retryAfterMs(err: unknown): number {
  if (!(err instanceof ApiError)) return 0;
  const seconds = err.status.details?.retryAfterSeconds ?? 0;
  return Math.min(seconds, 60) * 1000;
}

function isTooLargeResourceVersion(err: unknown): boolean {
  return (
    err instanceof ApiError &&
    (err.status.details?.causes ?? []).some((c) => c.reason === "ResourceVersionTooLarge")
  );
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
