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
import type { Tenant } from "../../api/v1alpha1/tenant_types.js";
import { TenantKind } from "../../api/v1alpha1/zz_generated.kinds.js";

// The permissions this controller uses, no more: `kbts manifests --check-rbac` compares them with the
// code. Add verbs as your logic needs them (it names each missing one), e.g. update on
// tenants/finalizers once you add a finalizer or set a controller reference to a Tenant.
// +kubebuilder:rbac:groups=platform.example.com,namespace=platform-system,resources=tenants,verbs=get;list;watch
// +kubebuilder:rbac:groups=platform.example.com,namespace=platform-system,resources=tenants/status,verbs=update

/** TenantReconciler reconciles a Tenant object. */
export class TenantReconciler implements Reconciler {
  constructor(private readonly client: Client) {}

  /**
   * reconcile is part of the main kubernetes reconciliation loop which aims to
   * move the current state of the cluster closer to the desired state.
   * TODO(user): Modify the reconcile function to compare the state specified by
   * the Tenant object against the actual cluster state, and then
   * perform operations to make the cluster state reflect the state specified by
   * the user.
   *
   * For more details, check Reconcile and its Result here:
   * - https://pkg.go.dev/sigs.k8s.io/controller-runtime/pkg/reconcile
   */
  async reconcile(request: Request, { log }: ReconcileContext): Promise<Result | undefined> {
    let tenant: Tenant;
    try {
      tenant = await this.client.get(TenantKind, request);
    } catch (err) {
      // Deleted since the event was queued: nothing left to do (owned objects are garbage-collected).
      ignoreNotFound(err);
      return undefined;
    }

    // TODO(user): your logic here

    const status = tenant.status ?? {};
    const conditions = status.conditions ?? [];
    const changed = setStatusCondition(conditions, {
      type: "Available",
      status: "True",
      reason: "Reconciled",
      message: "Tenant is reconciled",
      observedGeneration: tenant.metadata?.generation,
    });
    if (changed) {
      tenant.status = { ...status, conditions };
      await this.client.status().update(TenantKind, tenant);
    }
    log.info({ generation: tenant.metadata?.generation }, "Reconciled Tenant");
    return undefined;
  }

  /** setupWithManager sets up the controller with the Manager. */
  setupWithManager(mgr: Manager): void {
    controllerManagedBy(mgr)
      .for(TenantKind)
      // The events of this controller's own status writes do not reconcile it again; anyone else's do.
      .withOptions({ suppressOwnWrites: "status" })
      .named("tenant")
      .complete(this);
  }
}
