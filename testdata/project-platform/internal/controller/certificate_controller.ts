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
} from "@kbts/runtime";
import {
  type Certificate,
  CertificateKind,
} from "../../api/external/cert-manager.io/v1/certificate_types.js";

// Certificate is an external kind (types from ./hack/certificates.yaml): the project reconciles it but does
// not define it. These are the permissions Kubebuilder grants such a controller; `kbts manifests --check-rbac`
// names those your code does not use, to remove for least privilege.
// +kubebuilder:rbac:groups=cert-manager.io,namespace=platform-system,resources=certificates,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=cert-manager.io,namespace=platform-system,resources=certificates/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=cert-manager.io,namespace=platform-system,resources=certificates/finalizers,verbs=update

/** CertificateReconciler reconciles a Certificate object (cert-manager.io/v1). */
export class CertificateReconciler implements Reconciler {
  constructor(private readonly client: Client) {}

  /**
   * reconcile is part of the main kubernetes reconciliation loop which aims to
   * move the current state of the cluster closer to the desired state.
   * TODO(user): Modify the reconcile function to compare the state specified by
   * the Certificate object against the actual cluster state, and then
   * perform operations to make the cluster state reflect the state specified by
   * the user.
   *
   * For more details, check Reconcile and its Result here:
   * - https://pkg.go.dev/sigs.k8s.io/controller-runtime/pkg/reconcile
   */
  async reconcile(request: Request, { log }: ReconcileContext): Promise<Result | undefined> {
    let certificate: Certificate;
    try {
      certificate = await this.client.get(CertificateKind, request);
    } catch (err) {
      // Deleted since the event was queued: nothing left to do.
      ignoreNotFound(err);
      return undefined;
    }

    // TODO(user): your logic here

    log.info({ generation: certificate.metadata?.generation }, "Reconciled Certificate");
    return undefined;
  }

  /** setupWithManager sets up the controller with the Manager. */
  setupWithManager(mgr: Manager): void {
    controllerManagedBy(mgr).for(CertificateKind).named("certificate").complete(this);
  }
}
