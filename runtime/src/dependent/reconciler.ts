/**
 * A reconciler that is nothing but its dependents, in the shape cmd/main.ts wires every reconciler:
 * constructed with the manager's client, then `setupWithManager(mgr)`. A subclass declares its kind,
 * its dependents and, when it has cleanup of its own, `finalize`; `setupWithManager` hands them to
 * `dependentsController`, which reconciles, records events and writes conditions (JOSDK's reconciler
 * with a managed workflow, where the class names the dependents and holds no reconcile code).
 */

import type { Kind } from "../api/kind.js";
import type { KubernetesObject } from "../api/meta.js";
import type { Client } from "../client/types.js";
import type { EventRecorder } from "../events/types.js";
import type { Manager } from "../manager/types.js";
import {
  type DependentsController,
  type DependentsControllerOptions,
  dependentsController,
} from "./controller.js";
import type { Dependent } from "./dependent.js";

export abstract class DependentsReconciler<P extends KubernetesObject> {
  abstract readonly kind: Kind<P>;
  abstract readonly dependents: readonly Dependent<P>[];
  /** Controller name (metrics, logs, field manager, event source `<name>-controller`); default the lower-case kind. */
  readonly name?: string;
  /** The rest of dependentsController's options. */
  readonly options?: Omit<DependentsControllerOptions<P>, "dependents" | "name" | "finalize">;
  #recorder?: EventRecorder;

  /** `client` is the manager's, as cmd/main.ts passes to every reconciler (the controller uses the manager's own). */
  constructor(readonly client: Client) {}

  /**
   * Cleanup of the subclass's own before a primary goes (backups, accounts outside the cluster).
   * Defining it puts a finalizer on every primary; see DependentsControllerOptions.finalize.
   */
  finalize?(primary: P): void | Promise<void>;

  /** The controller's event recorder (`<name>-controller`), for events of the subclass's own. */
  protected get recorder(): EventRecorder {
    if (!this.#recorder)
      throw new Error(`${this.constructor.name}: call setupWithManager before recording events`);
    return this.#recorder;
  }

  setupWithManager(mgr: Manager): DependentsController<P> {
    const name = this.name ?? this.kind.kind.toLowerCase();
    this.#recorder = mgr.getEventRecorderFor(`${name}-controller`);
    const finalize = this.finalize?.bind(this);
    return dependentsController(mgr, this.kind, {
      ...this.options,
      name,
      dependents: this.dependents,
      ...(finalize ? { finalize } : {}),
    });
  }
}
