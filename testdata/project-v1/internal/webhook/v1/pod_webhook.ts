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

import { type CustomValidator, type Manager, namedLogger, Pod, webhookManagedBy } from "@kbts/runtime";

// log is for logging in this package; it follows the manager's zap flags (cmd/main.ts calls setLogger).
const podlog = namedLogger("pod-resource");

/** setupPodWebhookWithManager registers the webhook for Pod in the manager. */
export function setupPodWebhookWithManager(mgr: Manager): void {
  webhookManagedBy(mgr, Pod).withValidator(new PodCustomValidator()).complete();
}

// TODO(user): EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!

// TODO(user): change verbs to "verbs=create;update;delete" if you want to enable deletion validation.
// NOTE: The 'path' attribute must follow a specific pattern and should not be modified directly here.
// Modifying the path for an invalid path can cause API server errors; failing to locate the webhook.
// +kubebuilder:webhook:path=/validate--v1-pod,mutating=false,failurePolicy=fail,sideEffects=None,groups="",resources=pods,verbs=create;update,versions=v1,name=vpod-v1.kb.io,admissionReviewVersions=v1

/**
 * PodCustomValidator is responsible for validating the Pod resource when it is created,
 * updated, or deleted. Throw an Error (or AdmissionDenied) to deny; return warnings to admit with them.
 */
export class PodCustomValidator implements CustomValidator<Pod> {
  // TODO(user): Add more fields as needed for validation

  /** validateCreate implements the validating webhook for the Kind Pod on create. */
  async validateCreate(pod: Pod): Promise<string[]> {
    podlog.info({ name: pod.metadata?.name }, "Validation for Pod upon creation");

    // TODO(user): fill in your validation logic upon object creation.
    return [];
  }

  /** validateUpdate implements the validating webhook for the Kind Pod on update. */
  async validateUpdate(_oldPod: Pod, pod: Pod): Promise<string[]> {
    podlog.info({ name: pod.metadata?.name }, "Validation for Pod upon update");

    // TODO(user): fill in your validation logic upon object update.
    return [];
  }

  /** validateDelete implements the validating webhook for the Kind Pod on delete. */
  async validateDelete(pod: Pod): Promise<string[]> {
    podlog.info({ name: pod.metadata?.name }, "Validation for Pod upon deletion");

    // TODO(user): fill in your validation logic upon object deletion.
    return [];
  }
}
