/**
 * Hot-loop detection: an object reconciled over and over while nothing new comes of it (a status
 * write that re-triggers its own controller, a value the API server normalises back, two writers
 * fighting over a field, a requeue with no end). Fleets have run at ~1,350 reconciles/s unnoticed.
 *
 * The rule, per controller and request key. A reconcile REPEATS the previous reconcile of its key when
 * all of these hold:
 *  1. it causes another reconcile: it ended in a requeue (requeueAfter or an error), or at least one
 *     of its writes changed the object (the answer's resourceVersion differs from the one the request
 *     carried and from the one the same write answered last time);
 *  2. its writes are the previous reconcile's writes: the same objects and subresources with the same
 *     content, ignoring resourceVersion, managedFields and RFC 3339 timestamps (a `lastUpdated: now`
 *     status is the classic loop, and only its timestamp differs);
 *  3. the object's metadata.generation is the one the previous reconcile saw (no new spec came in).
 * A key is HOT when its last `reconciles` reconciles (default 20) were each a repeat and the first of
 * them started within `windowMs` (default 60 s) of the last one's end. Then
 * controller_runtime_reconcile_hot_loops_total{controller} counts one, and a warning is logged, at most
 * once per key per window and at most `MAX_WARNINGS_PER_WINDOW` per controller per window. A reconcile
 * that is not a repeat ends the episode.
 * Not a hot loop, by construction: a reconcile that neither writes anything that changes nor requeues
 * (triggered by the world, it cannot trigger itself); a busy object whose spec keeps changing (3); a
 * status that keeps taking new values (2); polling with requeueAfter at an interval longer than
 * windowMs / reconciles (3 s by default), which cannot fit `reconciles` runs in the window.
 */
import { createHash } from "node:crypto";
import { groupKindOf } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import type { ObservedWrite } from "../client/own-writes.js";
import type { Logger } from "../log/types.js";
import { controllerRuntimeReconcileHotLoops } from "../metrics/controller.js";
import { type Request, requestKey } from "../reconcile/types.js";

export interface HotLoopOptions {
  /** Repeats in a row that make a hot loop; default 20. */
  reconciles?: number;
  /** ...within this many ms; default 60,000. */
  windowMs?: number;
}

export const DEFAULT_HOT_LOOP_RECONCILES = 20;
export const DEFAULT_HOT_LOOP_WINDOW_MS = 60_000;
const MAX_WARNINGS_PER_WINDOW = 10;

/** One write as the detector remembers it. */
export interface WriteRecord {
  /** group/Kind|namespace/name|subresource */
  target: string;
  /** Hash of the normalised body sent. */
  content: string;
  sentResourceVersion: string | undefined;
  answeredResourceVersion: string | undefined;
  /** metadata.generation of the answer, when the write was to the reconciled object itself. */
  generation: number | undefined;
}

/** What one reconcile did, as the controller saw it. */
export interface ReconcileRecord {
  request: Request;
  startedAt: number;
  endedAt: number;
  requeued: boolean;
  writes: WriteRecord[];
}

interface KeyState {
  /** Start times of the current run of repeats (at most `reconciles` kept), the first reconcile included. */
  starts: number[];
  writes: WriteRecord[];
  generation: number | undefined;
  lastEnd: number;
  hot: boolean;
  warnedAt: number;
}

export class HotLoopDetector {
  private readonly keys = new Map<string, KeyState>();
  private readonly reconciles: number;
  private readonly windowMs: number;
  private warningsWindowStart = Number.NEGATIVE_INFINITY;
  private warnings = 0;
  private unlogged = 0;

  constructor(
    private readonly controller: string,
    private readonly log: Logger,
    /** The reconciled object's generation (from the cache), when the controller has a For kind. */
    private readonly generationOf: ((request: Request) => Promise<number | undefined>) | undefined,
    options: HotLoopOptions = {},
  ) {
    this.reconciles = options.reconciles ?? DEFAULT_HOT_LOOP_RECONCILES;
    this.windowMs = options.windowMs ?? DEFAULT_HOT_LOOP_WINDOW_MS;
    if (!Number.isInteger(this.reconciles) || this.reconciles < 2) {
      throw new Error(
        `controller ${controller}: hotLoop.reconciles must be an integer ≥ 2, got ${this.reconciles}`,
      );
    }
    if (!(this.windowMs > 0)) {
      throw new Error(`controller ${controller}: hotLoop.windowMs must be > 0, got ${this.windowMs}`);
    }
  }

  /** Judges one finished reconcile; resolves once any generation lookup is done. */
  async observe(rec: ReconcileRecord): Promise<void> {
    const key = requestKey(rec.request);
    const prev = this.keys.get(key);
    if (prev === undefined && this.keys.size >= 1024) this.sweep(rec.endedAt);
    const retriggers = rec.requeued || rec.writes.some((w) => changed(w, prev?.writes));
    let generation = ownGeneration(rec);
    let repeat = false;
    if (prev && retriggers && sameWrites(rec.writes, prev.writes)) {
      if (generation === undefined && this.generationOf) {
        generation = await this.generationOf(rec.request).catch(() => undefined);
      }
      repeat = generation === prev.generation;
    }
    if (!repeat) {
      // This reconcile starts a new candidate run; it may be the first of a loop, so its generation
      // is looked up only when the run can continue (it re-triggers itself).
      if (retriggers && generation === undefined && this.generationOf) {
        generation = await this.generationOf(rec.request).catch(() => undefined);
      }
      this.keys.set(key, {
        starts: [rec.startedAt],
        writes: rec.writes,
        generation,
        lastEnd: rec.endedAt,
        hot: false,
        warnedAt: prev?.warnedAt ?? Number.NEGATIVE_INFINITY,
      });
      return;
    }
    const s = prev as KeyState;
    s.starts.push(rec.startedAt);
    if (s.starts.length > this.reconciles) s.starts.shift();
    s.writes = rec.writes;
    s.lastEnd = rec.endedAt;
    const hotNow =
      s.starts.length >= this.reconciles && rec.endedAt - (s.starts[0] ?? rec.startedAt) <= this.windowMs;
    if (hotNow && !s.hot) controllerRuntimeReconcileHotLoops.inc({ controller: this.controller });
    s.hot = hotNow || s.hot;
    if (hotNow && rec.endedAt - s.warnedAt >= this.windowMs) {
      s.warnedAt = rec.endedAt;
      this.warn(rec, s);
    }
  }

  /** Keys currently in a hot loop (for tests and debugging). */
  hotKeys(): string[] {
    return [...this.keys].filter(([, s]) => s.hot).map(([k]) => k);
  }

  private warn(rec: ReconcileRecord, s: KeyState): void {
    if (rec.endedAt - this.warningsWindowStart >= this.windowMs) {
      if (this.unlogged > 0) {
        this.log.warn({ hotLoopsNotLogged: this.unlogged }, "more hot loops were detected than logged");
      }
      this.warningsWindowStart = rec.endedAt;
      this.warnings = 0;
      this.unlogged = 0;
    }
    if (this.warnings >= MAX_WARNINGS_PER_WINDOW) {
      this.unlogged++;
      return;
    }
    this.warnings++;
    const seconds = (rec.endedAt - (s.starts[0] ?? rec.startedAt)) / 1000;
    this.log.warn(
      {
        namespace: rec.request.namespace ?? "",
        name: rec.request.name,
        reconciles: s.starts.length,
        seconds: Math.round(seconds * 10) / 10,
        generation: s.generation,
        writes: [...new Set(rec.writes.map((w) => w.target))],
        requeued: rec.requeued,
      },
      `Hot loop: reconciled ${s.starts.length} times in ${seconds.toFixed(1)}s with the same generation and the same writes; each reconcile triggers the next (its own write's event, a requeue, or another writer undoing it). Compare before writing, ignore your own status updates (suppressOwnWrites), or requeue less often`,
    );
  }

  private sweep(now: number): void {
    for (const [k, s] of this.keys) if (now - s.lastEnd > this.windowMs) this.keys.delete(k);
  }
}

/** The detector's record of one observed write. */
export function writeRecord(
  write: ObservedWrite,
  answer: KubernetesObject | undefined,
  request: Request,
  forKind: { group: string; kind: string } | undefined,
): WriteRecord {
  const key = write.key ?? { namespace: answer?.metadata?.namespace, name: answer?.metadata?.name ?? "" };
  const isReconciled =
    forKind !== undefined &&
    write.kind.group === forKind.group &&
    write.kind.kind === forKind.kind &&
    key.name === request.name &&
    (key.namespace ?? "") === (request.namespace ?? "");
  return {
    target: `${groupKindOf(write.kind)}|${key.namespace ?? ""}/${key.name}|${write.subresource ?? ""}|${write.verb}`,
    content: fingerprint(write.body),
    sentResourceVersion: write.resourceVersion,
    answeredResourceVersion: answer?.metadata?.resourceVersion,
    generation: isReconciled ? answer?.metadata?.generation : undefined,
  };
}

function ownGeneration(rec: ReconcileRecord): number | undefined {
  for (const w of rec.writes) if (w.generation !== undefined) return w.generation;
  return undefined;
}

/** Whether a write changed its object (see rule 1). */
function changed(w: WriteRecord, before: WriteRecord[] | undefined): boolean {
  const rv = w.answeredResourceVersion;
  if (!rv || rv === w.sentResourceVersion) return false;
  const last = before?.find((b) => b.target === w.target);
  return last?.answeredResourceVersion !== rv;
}

function sameWrites(a: WriteRecord[], b: WriteRecord[]): boolean {
  if (a.length !== b.length) return false;
  const sig = (ws: WriteRecord[]) =>
    ws
      .map((w) => `${w.target}#${w.content}`)
      .sort()
      .join("\n");
  return sig(a) === sig(b);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const VOLATILE_METADATA = new Set([
  "resourceVersion",
  "managedFields",
  "generation",
  "creationTimestamp",
  "uid",
]);

/** A hash of a write's body without what changes on every write anyway (rule 2). */
export function fingerprint(body: unknown): string {
  const json = JSON.stringify(body ?? null, (key, value) => {
    if (typeof value === "string" && RFC3339.test(value)) return "<time>";
    if (key === "metadata" && value && typeof value === "object" && !Array.isArray(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) if (!VOLATILE_METADATA.has(k)) out[k] = v;
      return out;
    }
    return value;
  });
  return createHash("sha1").update(json).digest("base64");
}
