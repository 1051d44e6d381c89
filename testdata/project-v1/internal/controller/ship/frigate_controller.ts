/*
Copyright 2026 The kbts authors.

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
  type Client,
  controllerManagedBy,
  ignoreNotFound,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  setStatusCondition,
} from "@kbts/runtime";
import type { Frigate } from "../../../api/ship/v1beta1/frigate_types.js";
import { FrigateKind } from "../../../api/ship/v1beta1/zz_generated.kinds.js";

// The permissions this controller uses, no more: `kbts manifests --check-rbac` compares them with the
// code. Add verbs as your logic needs them (it names each missing one), e.g. update on
// frigates/finalizers once you add a finalizer or set a controller reference to a Frigate.
// +kubebuilder:rbac:groups=ship.testproject.org,resources=frigates,verbs=get;list;watch
// +kubebuilder:rbac:groups=ship.testproject.org,resources=frigates/status,verbs=update

/** FrigateReconciler reconciles a Frigate object. */
export class FrigateReconciler implements Reconciler {
  constructor(private readonly client: Client) {}

  /**
   * reconcile is part of the main kubernetes reconciliation loop which aims to
   * move the current state of the cluster closer to the desired state.
   * TODO(user): Modify the reconcile function to compare the state specified by
   * the Frigate object against the actual cluster state, and then
   * perform operations to make the cluster state reflect the state specified by
   * the user.
   *
   * For more details, check Reconcile and its Result here:
   * - https://pkg.go.dev/sigs.k8s.io/controller-runtime/pkg/reconcile
   */
  async reconcile(request: Request, { log }: ReconcileContext): Promise<Result | undefined> {
    let frigate: Frigate;
    try {
      frigate = await this.client.get(FrigateKind, request);
    } catch (err) {
      // Deleted since the event was queued: nothing left to do (owned objects are garbage-collected).
      ignoreNotFound(err);
      return undefined;
    }

    // TODO(user): your logic here

    const status = frigate.status ?? {};
    const conditions = status.conditions ?? [];
    const changed = setStatusCondition(conditions, {
      type: "Available",
      status: "True",
      reason: "Reconciled",
      message: "Frigate is reconciled",
      observedGeneration: frigate.metadata?.generation,
    });
    if (changed) {
      frigate.status = { ...status, conditions };
      await this.client.status().update(FrigateKind, frigate);
    }
    log.info({ generation: frigate.metadata?.generation }, "Reconciled Frigate");
    return undefined;
  }

  /** setupWithManager sets up the controller with the Manager. */
  setupWithManager(mgr: Manager): void {
    controllerManagedBy(mgr)
      .for(FrigateKind)
      // The events of this controller's own status writes do not reconcile it again; anyone else's do.
      .withOptions({ suppressOwnWrites: "status" })
      .named("ship-frigate")
      .complete(this);
  }
}
