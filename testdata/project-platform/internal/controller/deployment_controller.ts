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
  Deployment,
  ignoreNotFound,
  type Manager,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from "@kbts/runtime";

// Deployment is a built-in kind: the project reconciles it but does
// not define it. These are the permissions Kubebuilder grants such a controller; `kbts manifests --check-rbac`
// names those your code does not use, to remove for least privilege.
// +kubebuilder:rbac:groups=apps,namespace=platform-system,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=apps,namespace=platform-system,resources=deployments/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=apps,namespace=platform-system,resources=deployments/finalizers,verbs=update

/** DeploymentReconciler reconciles a Deployment object (apps/v1). */
export class DeploymentReconciler implements Reconciler {
  constructor(private readonly client: Client) {}

  /**
   * reconcile is part of the main kubernetes reconciliation loop which aims to
   * move the current state of the cluster closer to the desired state.
   * TODO(user): Modify the reconcile function to compare the state specified by
   * the Deployment object against the actual cluster state, and then
   * perform operations to make the cluster state reflect the state specified by
   * the user.
   *
   * For more details, check Reconcile and its Result here:
   * - https://pkg.go.dev/sigs.k8s.io/controller-runtime/pkg/reconcile
   */
  async reconcile(request: Request, { log }: ReconcileContext): Promise<Result | undefined> {
    let deployment: Deployment;
    try {
      deployment = await this.client.get(Deployment, request);
    } catch (err) {
      // Deleted since the event was queued: nothing left to do.
      ignoreNotFound(err);
      return undefined;
    }

    // TODO(user): your logic here

    log.info({ generation: deployment.metadata?.generation }, "Reconciled Deployment");
    return undefined;
  }

  /** setupWithManager sets up the controller with the Manager. */
  setupWithManager(mgr: Manager): void {
    controllerManagedBy(mgr).for(Deployment).named("deployment").complete(this);
  }
}
