import type { KubernetesObject } from "../api/meta.js";
import type { Request } from "../reconcile/types.js";
import type { AddOptions } from "../workqueue/queue.js";

// controller-runtime's pkg/event: what a source hands to predicates and handlers.

export interface CreateEvent<T extends KubernetesObject = KubernetesObject> {
  object: T;
  /** True for objects delivered by the informer's initial list (not a real creation). */
  isInInitialList: boolean;
}

export interface UpdateEvent<T extends KubernetesObject = KubernetesObject> {
  objectOld: T;
  objectNew: T;
}

export interface DeleteEvent<T extends KubernetesObject = KubernetesObject> {
  object: T;
  /** The watch missed the deletion; `object` is the last state the cache knew. */
  deleteStateUnknown: boolean;
}

export interface GenericEvent<T extends KubernetesObject = KubernetesObject> {
  object: T;
}

/** The part of the work queue a handler may use. */
export interface RequestQueue {
  add(request: Request, options?: AddOptions): void;
  addAfter(request: Request, delayMs: number, options?: Omit<AddOptions, "after">): void;
  addRateLimited(request: Request, options?: Omit<AddOptions, "rateLimited">): void;
}

/** Maps events to reconcile requests (controller-runtime's handler.EventHandler). */
export interface EventHandler<T extends KubernetesObject = KubernetesObject> {
  create(event: CreateEvent<T>, queue: RequestQueue): void | Promise<void>;
  update(event: UpdateEvent<T>, queue: RequestQueue): void | Promise<void>;
  delete(event: DeleteEvent<T>, queue: RequestQueue): void | Promise<void>;
  generic(event: GenericEvent<T>, queue: RequestQueue): void | Promise<void>;
}
