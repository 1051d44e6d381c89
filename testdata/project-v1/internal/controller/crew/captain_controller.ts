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
import type { Captain } from "../../../api/crew/v1/captain_types.js";
import { CaptainKind } from "../../../api/crew/v1/zz_generated.kinds.js";

// The permissions this controller uses, no more: `kbts manifests --check-rbac` compares them with the
// code. Add verbs as your logic needs them (it names each missing one), e.g. update on
// captains/finalizers once you add a finalizer or set a controller reference to a Captain.
// +kubebuilder:rbac:groups=crew.testproject.org,resources=captains,verbs=get;list;watch
// +kubebuilder:rbac:groups=crew.testproject.org,resources=captains/status,verbs=update

/** CaptainReconciler reconciles a Captain object. */
export class CaptainReconciler implements Reconciler {
  constructor(private readonly client: Client) {}

  /**
   * reconcile is part of the main kubernetes reconciliation loop which aims to
   * move the current state of the cluster closer to the desired state.
   * TODO(user): Modify the reconcile function to compare the state specified by
   * the Captain object against the actual cluster state, and then
   * perform operations to make the cluster state reflect the state specified by
   * the user.
   *
   * For more details, check Reconcile and its Result here:
   * - https://pkg.go.dev/sigs.k8s.io/controller-runtime/pkg/reconcile
   */
  async reconcile(request: Request, { log }: ReconcileContext): Promise<Result | undefined> {
    let captain: Captain;
    try {
      captain = await this.client.get(CaptainKind, request);
    } catch (err) {
      // Deleted since the event was queued: nothing left to do (owned objects are garbage-collected).
      ignoreNotFound(err);
      return undefined;
    }

    // TODO(user): your logic here

    const status = captain.status ?? {};
    const conditions = status.conditions ?? [];
    const changed = setStatusCondition(conditions, {
      type: "Available",
      status: "True",
      reason: "Reconciled",
      message: "Captain is reconciled",
      observedGeneration: captain.metadata?.generation,
    });
    if (changed) {
      captain.status = { ...status, conditions };
      await this.client.status().update(CaptainKind, captain);
    }
    log.info({ generation: captain.metadata?.generation }, "Reconciled Captain");
    return undefined;
  }

  /** setupWithManager sets up the controller with the Manager. */
  setupWithManager(mgr: Manager): void {
    controllerManagedBy(mgr)
      .for(CaptainKind)
      // The events of this controller's own status writes do not reconcile it again; anyone else's do.
      .withOptions({ suppressOwnWrites: "status" })
      .named("crew-captain")
      .complete(this);
  }
}
