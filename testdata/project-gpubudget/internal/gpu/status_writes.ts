/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import { compareResourceVersions, type KubernetesObject } from "@kbts/runtime";

/**
 * One replica's writers of a budget's status, taking turns: the webhook's reservation commits and the
 * controller's status writes. Each writes with the budget's resourceVersion as a precondition, so two
 * writes started from the same version cannot both land; the loser gets a conflict, reads the budget
 * again and writes again. Within one replica that race is avoidable: a writer waits for the other's
 * write in flight, then starts from the version it returned (newest), not from a cache that has not seen
 * it yet. Under churn (bench/gpubudget --vs-quota, steady phase) the controller's writes otherwise
 * conflicted with the webhook's, and each conflict added a read and a second write to a pod's create.
 * Replicas still race each other, and the precondition still decides.
 */
export class BudgetStatusWrites<B extends KubernetesObject = KubernetesObject> {
  /** Per budget: the newest version this replica wrote or read, ahead of its cache. */
  private readonly latest = new Map<string, B>();
  /** Per budget: the end of the last write queued, which the next one waits for. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `write` once the budget's earlier writes in this replica are done, alone among them. */
  async exclusive<R>(id: string, write: () => Promise<R>): Promise<R> {
    const before = this.tails.get(id) ?? Promise.resolve();
    let release = () => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = before.then(() => mine);
    this.tails.set(id, tail);
    await before;
    try {
      return await write();
    } finally {
      release();
      if (this.tails.get(id) === tail) this.tails.delete(id);
    }
  }

  /**
   * The newer of the cache's copy and the one this replica last wrote or read (by the runtime's
   * resourceVersion order: etcd's integers; an order it cannot tell keeps the cache's). This only picks
   * a starting point: a stale pick costs a conflict and a fresh read, never a wrong decision.
   */
  newest(id: string, cached: B): B {
    const mine = this.latest.get(id);
    if (!mine) return cached;
    const order = compareResourceVersions(
      mine.metadata?.resourceVersion ?? "",
      cached.metadata?.resourceVersion ?? "",
    );
    return order !== undefined && order > 0 ? mine : cached;
  }

  /** Records a version of the budget this replica wrote, or read from the API server. */
  record(id: string, budget: B): void {
    this.latest.set(id, budget);
  }

  /** Forgets a deleted budget. */
  forget(id: string): void {
    this.latest.delete(id);
  }
}
