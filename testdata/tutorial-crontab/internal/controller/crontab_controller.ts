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

import {
  addFinalizer,
  type Client,
  containsFinalizer,
  controllerManagedBy,
  ignoreNotFound,
  type Manager,
  nowTime,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  removeFinalizer,
} from "@kbts/runtime";
import type { CronTab } from "../../api/v1/crontab_types.js";
import { CronTabKind } from "../../api/v1/zz_generated.kinds.js";

// +kubebuilder:rbac:groups=stable.example.com,resources=crontabs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=stable.example.com,resources=crontabs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=stable.example.com,resources=crontabs/finalizers,verbs=update

/** The finalizer that lets the controller clean up before a CronTab goes away. */
export const FINALIZER = "crontab.stable.example.com/cleanup";

/** How often a CronTab is looked at again (Go: `ctrl.Result{RequeueAfter: time.Minute}`). */
export const RECHECK = "1m";

/** CronTabReconciler is the tutorial's reconciler: finalizer, status, requeue. */
export class CronTabReconciler implements Reconciler {
  constructor(
    private readonly client: Client,
    /** What runs before the finalizer is removed (the tutorial's cleanupExternalResources). */
    private readonly cleanupExternalResources: (ct: CronTab) => Promise<void> = async () => {},
  ) {}

  async reconcile(request: Request, { log }: ReconcileContext): Promise<Result | undefined> {
    // var ct v1.CronTab; if err := r.Get(ctx, req.NamespacedName, &ct); err != nil { return ..., client.IgnoreNotFound(err) }
    let ct: CronTab;
    try {
      ct = await this.client.get(CronTabKind, request);
    } catch (err) {
      ignoreNotFound(err);
      return undefined;
    }

    if (ct.metadata?.deletionTimestamp) {
      // Being deleted: clean up, then let it go.
      if (containsFinalizer(ct, FINALIZER)) {
        await this.cleanupExternalResources(ct);
        removeFinalizer(ct, FINALIZER);
        await this.client.update(CronTabKind, ct);
      }
      return undefined;
    }

    // Add the finalizer if it is not there. update() fills ct with the server's answer, as
    // controller-runtime's Update does, so the status update below does not conflict.
    if (addFinalizer(ct, FINALIZER)) await this.client.update(CronTabKind, ct);

    // slog.Info("reconciling", "name", cronTab.Name, "spec", cronTab.Spec.CronSpec)
    log.info({ spec: ct.spec.cronSpec }, "reconciling");

    // Business logic: ensure the cron job exists
    // ...

    ct.status = { ...ct.status, lastScheduled: nowTime() };
    await this.client.status().update(CronTabKind, ct);

    // Requeue after 1 minute to check again.
    return { requeueAfter: RECHECK };
  }

  /** ctrl.NewControllerManagedBy(mgr).For(&v1.CronTab{}).Complete(r) */
  setupWithManager(mgr: Manager): void {
    controllerManagedBy(mgr).for(CronTabKind).named("crontab").complete(this);
  }
}
