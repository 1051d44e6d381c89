import { randomUUID } from "node:crypto";
import { nopLogger } from "../log/logger.js";
import type { ReconcileContext } from "./types.js";

/**
 * A ReconcileContext for calling `reconcile()` directly in a test: a quiet logger, a signal that is
 * never aborted and a fresh reconcileID, each replaceable (Go tests pass `context.Background()`).
 */
export function newReconcileContext(overrides: Partial<ReconcileContext> = {}): ReconcileContext {
  return {
    log: nopLogger(),
    signal: new AbortController().signal,
    reconcileID: randomUUID(),
    controllerName: "test",
    ...overrides,
  };
}
