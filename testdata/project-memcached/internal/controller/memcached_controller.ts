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

import { DependentsReconciler, Deployment, dependent, deploymentAvailable } from "@kbts/runtime";
import type { Memcached } from "../../api/v1alpha1/memcached_types.js";
import { MemcachedKind } from "../../api/v1alpha1/zz_generated.kinds.js";

// The following markers are used to generate the rules permissions (RBAC) on config/rbac when the
// command `make manifests` is executed. To know more about markers see:
// https://book.kubebuilder.io/reference/markers.html
// +kubebuilder:rbac:groups=example.com.testproject.org,resources=memcacheds,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=example.com.testproject.org,resources=memcacheds/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=example.com.testproject.org,resources=memcacheds/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch

/**
 * The Deployment that runs the Operand image for a Memcached, with spec.size replicas, declared as a
 * dependent resource instead of the get / compare / create-or-update code of Kubebuilder's Memcached
 * tutorial. `desired` says only the fields this controller owns: the controller server-side applies
 * them when the cached Deployment differs (a steady-state reconcile writes nothing), takes them back
 * when someone else changes them, and leaves every other field alone. It is ready when every replica
 * runs the latest spec and the Deployment is Available (`deploymentAvailable`).
 *
 * The Deployment is in the Memcached's namespace and names it as its controlling owner, so the garbage
 * collector deletes it with the Memcached (a dependent it cannot follow, cluster-scoped or in another
 * namespace, is deleted by the controller itself before the Memcached's finalizer goes).
 */
export const memcachedDeployment = dependent(Deployment, {
  desired: (memcached: Memcached): Deployment => {
    // The Operand image, set in config/manager/manager.yaml; without it the Deployment fails (Degraded).
    const image = process.env.MEMCACHED_IMAGE;
    if (!image) throw new Error("unable to find MEMCACHED_IMAGE environment variable with the image");
    // The selector must stay the same for the Deployment's life: no image tag in it.
    // More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/common-labels/
    const labels = {
      "app.kubernetes.io/name": "memcached",
      "app.kubernetes.io/instance": memcached.metadata?.name ?? "",
      "app.kubernetes.io/managed-by": "MemcachedController",
    };
    // No metadata: a dependent in its primary's namespace takes the primary's name.
    return {
      spec: {
        replicas: memcached.spec.size,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            // TODO(user): add a nodeAffinity for the platforms your image supports. More info:
            // https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#node-affinity
            securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
            containers: [
              {
                name: "memcached",
                image,
                imagePullPolicy: "IfNotPresent",
                // Ensure restrictive context for the container
                // More info: https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted
                securityContext: {
                  runAsNonRoot: true,
                  runAsUser: 1001,
                  allowPrivilegeEscalation: false,
                  capabilities: { drop: ["ALL"] },
                },
                ports: [{ containerPort: memcached.spec.containerPort, name: "memcached" }],
                command: ["memcached", "--memory-limit=64", "-o", "modern", "-v"],
              },
            ],
          },
        },
      },
    };
  },
  ready: deploymentAvailable,
});

/**
 * MemcachedReconciler is its dependents: the controller applies them (add a Service or a ConfigMap to
 * the list, with `dependsOn: [memcachedDeployment]` to wait until it is ready), records an Applied
 * event when it writes one and a Failed one when it cannot, and writes the result to status as the
 * Ready, Progressing and Degraded conditions (reasons such as DeploymentNotReady, DeploymentFailed,
 * DependentsReady). Events of the Memcached and of its Deployment reconcile it.
 */
export class MemcachedReconciler extends DependentsReconciler<Memcached> {
  readonly kind = MemcachedKind;
  readonly dependents = [memcachedDeployment];

  /**
   * Runs before a Memcached is deleted: defining this method puts a finalizer on every Memcached, removed
   * once it returns (a throw keeps it, and retries). The Deployment needs no finalizer: garbage
   * collection deletes it with its owner.
   * TODO(user): add the cleanup steps the operator needs before the custom resource goes, such as
   * backups or resources it does not own. More info:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/finalizers
   */
  override finalize(memcached: Memcached): void {
    this.recorder.event(memcached, "Warning", "Deleting", "Custom Resource is being deleted");
  }
}
