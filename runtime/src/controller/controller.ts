import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { toMilliseconds } from "../api/duration.js";
import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import { isWriteObservable, type WriteObservable, type WriteObserver } from "../client/own-writes.js";
import type { Client, Reader } from "../client/types.js";
import type { RequestQueue } from "../handler/types.js";
import { nopLogger } from "../log/logger.js";
import type { Logger } from "../log/types.js";
import type { Manager, Runnable } from "../manager/types.js";
import {
  controllerRuntimeActiveWorkers,
  controllerRuntimeReconcileErrors,
  controllerRuntimeReconcilePanics,
  controllerRuntimeReconcileTime,
  controllerRuntimeReconcileTimeouts,
  controllerRuntimeReconcileTotal,
  controllerRuntimeTerminalReconcileErrors,
  initControllerMetrics,
  type ReconcileResultLabel,
} from "../metrics/controller.js";
import {
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  TerminalError,
} from "../reconcile/types.js";
import {
  loadTracing,
  type ReportOutcome,
  traceQueue,
  traceReconcile,
  tracingWanted,
} from "../tracing/tracing.js";
import { createRateLimitingQueue, type RateLimitingQueue } from "../workqueue/queue.js";
import type { RateLimiter } from "../workqueue/ratelimiter.js";
import { HotLoopDetector, type HotLoopOptions, type WriteRecord, writeRecord } from "./hot-loop.js";
import { claimControllerName } from "./names.js";
import { OwnWriteFilter, type OwnWriteSuppression } from "./own-write-filter.js";
import type { Source } from "./source.js";

export interface ControllerOptions {
  reconciler: Reconciler;
  /** Workers reconciling different keys at once; default 1. A key is never reconciled twice at once. */
  maxConcurrentReconciles?: number;
  /** Aborts the reconcile's signal after this many ms and counts controller_runtime_reconcile_timeouts_total; default none. */
  reconcileTimeoutMs?: number;
  /** Default: per-item exponential backoff 5 ms → 1000 s (controller-runtime ≥ 0.23). */
  rateLimiter?: RateLimiter;
  /** How long sources may take to sync before start fails; default 2 minutes. */
  cacheSyncTimeoutMs?: number;
  /** Start only on the leader (default true). */
  needLeaderElection?: boolean;
  /**
   * Start this controller's informers before this replica leads, so a failover needs no relist
   * (controller-runtime's EnableWarmup). Default: the manager's enableWarmup (false).
   */
  enableWarmup?: boolean;
  /** Allow a name already used in this process (metrics will then be shared). */
  skipNameValidation?: boolean;
  logger?: Logger;
  /** The kind this controller reconciles; adds controllerGroup and controllerKind to its log lines (the builder sets it). */
  forKind?: Kind;
  /**
   * Watch events caused only by this controller's own writes do not enqueue it again (see
   * own-write-filter.ts): "status" for its writes to status subresources, "all" for every write but
   * deletes. A write is the controller's own when a reconcile makes it to the object it reconciles,
   * or to an object whose ownerReferences name that object (needs forKind, which the builder's
   * for() sets). Default off; the scaffold turns "status" on. Applies to the builder's sources.
   */
  suppressOwnWrites?: OwnWriteSuppression | false;
  /**
   * Hot-loop detection (see hot-loop.ts): a metric and a rate-limited warning when one object is
   * reconciled `reconciles` times within `windowMs` with the same generation and the same writes.
   * Default on (20 in 60 s); false turns it off.
   */
  hotLoop?: HotLoopOptions | false;
}

export interface Controller extends Runnable {
  readonly name: string;
  readonly needLeaderElection: boolean;
  /** Adds an event source; sources added after start are started at once. */
  watch(source: Source): void;
  /** Starts every source's informer without delivering events (see Runnable.warmUp). */
  warmUp(signal: AbortSignal): Promise<void>;
  /** Set when suppressOwnWrites is on: the builder passes its sources' events through it. */
  readonly ownWriteFilter: OwnWriteFilter | undefined;
  /** Starts sources, waits for them to sync, runs the workers; resolves after the signal aborts and workers finish. */
  start(signal: AbortSignal): Promise<void>;
}

const DEFAULT_CACHE_SYNC_TIMEOUT_MS = 2 * 60_000;

/** A controller registered with the manager, which starts it (once leader, by default). */
export function createController(mgr: Manager, name: string, options: ControllerOptions): Controller {
  const controller = createUnmanagedController(
    name,
    { logger: mgr.getLogger(), ...options },
    // Partial managers (tests' stubs) may lack a client: then no write is attributed.
    { reader: mgr.getCache(), client: mgr.getClient?.() },
  );
  mgr.add(controller);
  return controller;
}

/** A controller you start yourself (controller-runtime's NewUnmanaged). */
export function createUnmanagedController(
  name: string,
  options: ControllerOptions,
  /**
   * The manager's cache (where hot-loop detection reads the reconciled object's generation) and
   * client (whose writes in a reconcile are the controller's own; see client/own-writes.ts).
   */
  from: { reader?: Reader; client?: Client } = {},
): Controller {
  return new ReconcileController(name, options, from);
}

/** What one call of the reconciler came to (runReconcile), before the queue and metrics hear of it (applyOutcome). */
interface ReconcileRun {
  reconcileID: string;
  log: Logger;
  /** performance.now() when handling began: the reconcile time metric covers the bookkeeping too. */
  t0: number;
  /** Date.now() when handling began, for the hot-loop detector. */
  startedAt: number;
  result: Result | undefined;
  failed: boolean;
  failure: unknown;
  /** The writes the reconcile made to the object it reconciled (for the hot-loop detector). */
  writes: WriteRecord[];
}

/**
 * controller-runtime's Controller: sources feed a rate-limited queue, and workers take requests from
 * it one key at a time; reconcileHandler runs the reconciler (runReconcile, its Reconcile) and then
 * acts on the result (applyOutcome, its reconcileHandler).
 */
class ReconcileController implements Controller {
  readonly name: string;
  readonly needLeaderElection: boolean;
  readonly enableWarmup: boolean | undefined;
  readonly ownWriteFilter: OwnWriteFilter | undefined;

  private readonly options: ControllerOptions;
  private readonly reconciler: Reconciler;
  private readonly workers: number;
  private readonly timeoutMs: number;
  private readonly cacheSyncTimeoutMs: number;
  private readonly log: Logger;
  private readonly labels: { controller: string };
  private readonly forKind: Kind | undefined;
  /** The client whose writes during a reconcile are observed; undefined when it cannot be. */
  private readonly writer: (Client & WriteObservable) | undefined;
  private readonly detector: HotLoopDetector | undefined;

  private readonly sources: Source[] = [];
  private queue: RateLimitingQueue<Request> | undefined;
  private runSignal: AbortSignal | undefined;
  private warmSignal: AbortSignal | undefined;
  private started = false;

  constructor(name: string, options: ControllerOptions, from: { reader?: Reader; client?: Client }) {
    if (!name) throw new Error("createController: a controller needs a non-empty name");
    if (!options?.reconciler || typeof options.reconciler.reconcile !== "function") {
      throw new Error(
        `controller ${name}: options.reconciler must have a reconcile(request, context) method`,
      );
    }
    const workers = options.maxConcurrentReconciles ?? 1;
    if (!Number.isInteger(workers) || workers < 1) {
      throw new Error(`controller ${name}: maxConcurrentReconciles must be an integer ≥ 1, got ${workers}`);
    }
    const timeoutMs = options.reconcileTimeoutMs ?? 0;
    if (!(timeoutMs >= 0))
      throw new Error(`controller ${name}: reconcileTimeoutMs must be ≥ 0, got ${timeoutMs}`);
    claimControllerName(name, options.skipNameValidation);

    this.name = name;
    this.options = options;
    this.workers = workers;
    this.timeoutMs = timeoutMs;
    this.needLeaderElection = options.needLeaderElection ?? true;
    this.enableWarmup = options.enableWarmup;
    this.reconciler = options.reconciler;
    this.cacheSyncTimeoutMs = options.cacheSyncTimeoutMs ?? DEFAULT_CACHE_SYNC_TIMEOUT_MS;
    const bindings: Record<string, unknown> = { controller: name };
    if (options.forKind) {
      bindings.controllerGroup = options.forKind.group;
      bindings.controllerKind = options.forKind.kind;
    }
    const log = (options.logger ?? nopLogger()).child(bindings);
    this.log = log;
    this.labels = { controller: name };
    this.ownWriteFilter = options.suppressOwnWrites
      ? new OwnWriteFilter(options.suppressOwnWrites)
      : undefined;
    const forKind = options.forKind;
    this.forKind = forKind;
    const reader = from.reader;
    this.writer = from.client && isWriteObservable(from.client) ? from.client : undefined;
    this.detector =
      options.hotLoop === false
        ? undefined
        : new HotLoopDetector(
            name,
            log,
            forKind && reader
              ? async (req) =>
                  (await reader.get(forKind, { namespace: req.namespace, name: req.name })).metadata
                    ?.generation
              : undefined,
            options.hotLoop,
          );
  }

  watch(source: Source): void {
    this.sources.push(source);
    const { warmSignal, queue, runSignal } = this;
    if (!this.started && warmSignal && !warmSignal.aborted) void source.warmUp?.(warmSignal);
    if (this.started && queue && runSignal && !runSignal.aborted) {
      this.startSource(source, queue, runSignal).catch((err: unknown) =>
        this.log.error({ err, source: source.name }, "source added after start failed"),
      );
    }
  }

  async warmUp(signal: AbortSignal): Promise<void> {
    if (this.started || this.warmSignal) return;
    this.warmSignal = signal;
    this.log.info("Warming up: starting informers before leading");
    await Promise.all(this.sources.map((s) => s.warmUp?.(signal)));
  }

  async start(signal: AbortSignal): Promise<void> {
    const { name, log, workers } = this;
    if (this.started) throw new Error(`controller ${name} was started more than once`);
    this.started = true;
    this.runSignal = signal;
    initControllerMetrics(name, workers);
    if (tracingWanted()) void loadTracing(); // not awaited: sources start at once; spans begin once it has loaded
    const q = traceQueue(createRateLimitingQueue<Request>({ name, rateLimiter: this.options.rateLimiter }));
    this.queue = q;
    signal.addEventListener("abort", () => q.shutdown(), { once: true });
    log.info("Starting EventSource");
    try {
      await Promise.all(this.sources.map((s) => this.startSource(s, q, signal)));
    } catch (err) {
      q.shutdown();
      throw err;
    }
    if (signal.aborted) {
      q.shutdown();
      return;
    }
    log.info({ workerCount: workers }, "Starting workers");
    const running = Array.from({ length: workers }, () => this.worker(q, signal));
    await Promise.all(running);
    log.info("All workers finished");
  }

  private async startSource(source: Source, q: RequestQueue, signal: AbortSignal): Promise<void> {
    const timeout = AbortSignal.timeout(this.cacheSyncTimeoutMs);
    const syncSignal = AbortSignal.any([signal, timeout]);
    await source.start(q, signal, this.log);
    const ok = await source.waitForSync(syncSignal);
    if (!ok && !signal.aborted) {
      throw new Error(
        `failed to wait for ${this.name} caches to sync ${source.name}: timed out after ${this.cacheSyncTimeoutMs}ms`,
      );
    }
  }

  private async worker(q: RateLimitingQueue<Request>, signal: AbortSignal): Promise<void> {
    for (;;) {
      const next = await q.get();
      if (!next) return;
      controllerRuntimeActiveWorkers.inc(this.labels);
      try {
        await traceReconcile(q, this.name, next.item, (report) =>
          this.reconcileHandler(q, next.item, next.priority, signal, report),
        );
      } catch (err) {
        // Only bookkeeping runs here; keep the worker alive whatever happens.
        this.log.error({ err }, "unexpected error handling a reconcile result");
      } finally {
        controllerRuntimeActiveWorkers.dec(this.labels);
        q.done(next.item);
      }
    }
  }

  private async reconcileHandler(
    q: RateLimitingQueue<Request>,
    req: Request,
    priority: number,
    signal: AbortSignal,
    report: ReportOutcome,
  ): Promise<void> {
    const run = await this.runReconcile(req, signal);
    await this.applyOutcome(q, req, priority, run, report);
  }

  /**
   * Calls the reconciler once (controller-runtime's Controller.Reconcile): under the reconcile
   * timeout, turning a panic into an error, and recording the writes it makes to the object it
   * reconciles. Never throws: a failure is in the run it returns.
   */
  private async runReconcile(req: Request, signal: AbortSignal): Promise<ReconcileRun> {
    const { name, labels, timeoutMs, forKind, writer } = this;
    const reconcileID = randomUUID();
    const reqLog = this.log.child({ namespace: req.namespace ?? "", name: req.name, reconcileID });
    const t0 = performance.now();
    let timeoutTimer: NodeJS.Timeout | undefined;
    let reconcileSignal = signal;
    if (timeoutMs > 0) {
      const timeoutCtrl = new AbortController();
      timeoutTimer = setTimeout(() => {
        controllerRuntimeReconcileTimeouts.inc(labels);
        timeoutCtrl.abort(new Error(`reconcile timed out after ${timeoutMs}ms`));
      }, timeoutMs);
      reconcileSignal = AbortSignal.any([signal, timeoutCtrl.signal]);
    }
    const ctx: ReconcileContext = { log: reqLog, signal: reconcileSignal, reconcileID, controllerName: name };

    const run: ReconcileRun = {
      reconcileID,
      log: reqLog,
      t0,
      startedAt: Date.now(),
      result: undefined,
      failed: false,
      failure: undefined,
      writes: [],
    };
    let stopObserving: (() => void) | undefined;
    reqLog.debug("Reconciling");
    try {
      let promise: ReturnType<Reconciler["reconcile"]>;
      try {
        if ((this.ownWriteFilter || this.detector) && forKind && writer) {
          stopObserving = writer.observeWritesTo(forKind, req, this.writeObserver(req, run.writes));
        }
        promise = this.reconciler.reconcile(req, ctx);
      } catch (thrown) {
        // A synchronous throw from reconcile() breaks its Promise contract: the closest thing to a panic.
        throw new ReconcilePanic(thrown);
      }
      run.result = (await promise) ?? undefined;
    } catch (thrown) {
      run.failed = true;
      run.failure = thrown;
      if (thrown instanceof ReconcilePanic || isPanic(thrown)) {
        controllerRuntimeReconcilePanics.inc(labels);
        const cause = thrown instanceof ReconcilePanic ? thrown.cause : thrown;
        reqLog.error({ err: cause, panic: true }, "Observed a panic in reconciler");
        run.failure = new Error(`panic: ${describe(cause)} [recovered]`, { cause });
      }
    } finally {
      if (timeoutTimer) clearTimeout(timeoutTimer);
      stopObserving?.();
    }
    return run;
  }

  /**
   * Acts on a run (controller-runtime's reconcileHandler): forgets, requeues after a delay or with
   * backoff, counts the outcome in the metrics and on the trace span, and shows it to the hot-loop
   * detector.
   */
  private async applyOutcome(
    q: RateLimitingQueue<Request>,
    req: Request,
    priority: number,
    run: ReconcileRun,
    report: ReportOutcome,
  ): Promise<void> {
    const { labels } = this;
    const reqLog = run.log;
    let { failed, failure } = run;
    let outcome: ReconcileResultLabel;
    let requeueAfter = 0;
    if (!failed && run.result?.requeueAfter !== undefined) {
      try {
        requeueAfter = toMilliseconds(run.result.requeueAfter, "Result.requeueAfter");
      } catch (err) {
        // A malformed duration is the reconciler's bug: report it like an error, and retry with backoff.
        failed = true;
        failure = err;
      }
    }
    const terminal = failed && isTerminal(failure);
    if (failed) {
      outcome = "error";
      if (terminal) {
        controllerRuntimeTerminalReconcileErrors.inc(labels);
      } else {
        q.addRateLimited(req, { priority });
      }
      controllerRuntimeReconcileErrors.inc(labels);
      reqLog.error({ err: failure }, "Reconciler error");
    } else if (requeueAfter > 0) {
      outcome = "requeue_after";
      q.forget(req);
      q.addAfter(req, requeueAfter, { priority });
      reqLog.debug({ requeueAfter }, "Reconcile done, requeueing after");
    } else {
      outcome = "success";
      q.forget(req);
      reqLog.debug("Reconcile successful");
    }
    report({
      result: outcome,
      requeueAfterMs: requeueAfter,
      error: failed ? failure : undefined,
      reconcileID: run.reconcileID,
    });
    controllerRuntimeReconcileTotal.inc({ controller: this.name, result: outcome });
    controllerRuntimeReconcileTime.observe(labels, (performance.now() - run.t0) / 1000);
    await this.detector?.observe({
      request: req,
      startedAt: run.startedAt,
      endedAt: Date.now(),
      requeued: (failed && !terminal) || requeueAfter > 0,
      writes: run.writes,
    });
  }

  /** Tells the own-write filter and the hot-loop detector about each write this reconcile makes. */
  private writeObserver(req: Request, writes: WriteRecord[]): WriteObserver {
    const { ownWriteFilter: filter, detector, forKind } = this;
    return {
      willWrite(write) {
        const filtered = filter?.willWrite(write);
        return (answer: KubernetesObject | undefined) => {
          filtered?.(answer);
          if (detector) writes.push(writeRecord(write, answer, req, forKind));
        };
      },
    };
  }
}

/** Marks a synchronous throw from reconcile(). */
class ReconcilePanic extends Error {
  constructor(cause: unknown) {
    super("reconcile threw synchronously", { cause });
  }
}

/**
 * In TypeScript a thrown Error is a reconcile's way to return an error, so it counts as an error only.
 * A panic (counted in controller_runtime_reconcile_panics_total, then handled as an error like
 * controller-runtime's RecoverPanic) is what Go would crash on: a thrown non-Error value, a
 * synchronous throw, or a programming fault (ReferenceError, RangeError, SyntaxError, EvalError, and
 * TypeError without a `cause` – network failures surface as TypeError("fetch failed", { cause })).
 */
function isPanic(thrown: unknown): boolean {
  if (!(thrown instanceof Error)) return true;
  if (thrown instanceof TerminalError) return false;
  if (thrown instanceof ReferenceError || thrown instanceof RangeError) return true;
  if (thrown instanceof SyntaxError || thrown instanceof EvalError) return true;
  return thrown instanceof TypeError && thrown.cause === undefined;
}

/** errors.Is(err, TerminalError): the error or anything in its cause chain. */
function isTerminal(err: unknown): boolean {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e instanceof Error && !seen.has(e)) {
    if (e instanceof TerminalError) return true;
    seen.add(e);
    e = e.cause;
  }
  return false;
}

function describe(v: unknown): string {
  if (v instanceof Error) return v.message;
  try {
    return typeof v === "string" ? v : (JSON.stringify(v) ?? String(v));
  } catch {
    return String(v);
  }
}
