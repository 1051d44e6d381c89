import type { Duration } from "../api/meta.js";
import type { Logger } from "../log/types.js";

/** What a controller is asked to reconcile: one object's key. Cluster-scoped objects have no namespace. */
export interface Request {
  readonly namespace?: string;
  readonly name: string;
}

/**
 * What a reconcile asks for next, as controller-runtime's Result:
 * nothing (done), or `requeueAfter` (forget the backoff and look again later): milliseconds, a Go
 * duration string (`"1m"`, `"1m30s"`) or a helper (`minutes(1)`), as Go's `RequeueAfter: time.Minute`.
 */
export interface Result {
  requeueAfter?: number | Duration;
}

/** Passed to every reconcile. */
export interface ReconcileContext {
  /** Logger with controller, namespace, name and reconcileID already bound. */
  readonly log: Logger;
  /** Aborted on shutdown and when the reconcile timeout expires. */
  readonly signal: AbortSignal;
  /** Unique per reconcile, as controller-runtime's reconcileID. */
  readonly reconcileID: string;
  readonly controllerName: string;
}

/** The one method an operator author writes. Throw (or reject) to be retried with backoff. */
export interface Reconciler {
  // biome-ignore lint/suspicious/noConfusingVoidType: lets an async reconcile with no return statement implement this
  reconcile(request: Request, context: ReconcileContext): Promise<Result | undefined | void>;
}

/** A reconcile error that must not be retried (controller-runtime's reconcile.TerminalError). */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TerminalError";
  }
}

export function requestKey(request: Request): string {
  return request.namespace ? `${request.namespace}/${request.name}` : request.name;
}
