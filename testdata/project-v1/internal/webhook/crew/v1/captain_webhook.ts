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
  type CustomDefaulter,
  type CustomValidator,
  type Manager,
  namedLogger,
  webhookManagedBy,
} from "@kbts/runtime";
import type { Captain } from "../../../../api/crew/v1/captain_types.js";
import { CaptainKind } from "../../../../api/crew/v1/zz_generated.kinds.js";

// log is for logging in this package; it follows the manager's zap flags (cmd/main.ts calls setLogger).
const captainlog = namedLogger("captain-resource");

/** setupCaptainWebhookWithManager registers the webhook for Captain in the manager. */
export function setupCaptainWebhookWithManager(mgr: Manager): void {
  webhookManagedBy(mgr, CaptainKind)
    .withValidator(new CaptainCustomValidator())
    .withDefaulter(new CaptainCustomDefaulter())
    .complete();
}

// TODO(user): EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!

// +kubebuilder:webhook:path=/mutate-crew-testproject-org-v1-captain,mutating=true,failurePolicy=fail,sideEffects=None,groups=crew.testproject.org,resources=captains,verbs=create;update,versions=v1,name=mcaptain-v1.kb.io,admissionReviewVersions=v1

/**
 * CaptainCustomDefaulter is responsible for setting default values on the custom resource of the
 * Kind Captain when those are created or updated.
 */
export class CaptainCustomDefaulter implements CustomDefaulter<Captain> {
  // TODO(user): Add more fields as needed for defaulting

  /** default implements the defaulting webhook for the Kind Captain; it mutates the object in place. */
  async default(captain: Captain): Promise<void> {
    captainlog.info({ name: captain.metadata?.name }, "Defaulting for Captain");

    // TODO(user): fill in your defaulting logic.
  }
}

// TODO(user): change verbs to "verbs=create;update;delete" if you want to enable deletion validation.
// NOTE: The 'path' attribute must follow a specific pattern and should not be modified directly here.
// Modifying the path for an invalid path can cause API server errors; failing to locate the webhook.
// +kubebuilder:webhook:path=/validate-crew-testproject-org-v1-captain,mutating=false,failurePolicy=fail,sideEffects=None,groups=crew.testproject.org,resources=captains,verbs=create;update,versions=v1,name=vcaptain-v1.kb.io,admissionReviewVersions=v1

/**
 * CaptainCustomValidator is responsible for validating the Captain resource when it is created,
 * updated, or deleted. Throw an Error (or AdmissionDenied) to deny; return warnings to admit with them.
 */
export class CaptainCustomValidator implements CustomValidator<Captain> {
  // TODO(user): Add more fields as needed for validation

  /** validateCreate implements the validating webhook for the Kind Captain on create. */
  async validateCreate(captain: Captain): Promise<string[]> {
    captainlog.info({ name: captain.metadata?.name }, "Validation for Captain upon creation");

    // TODO(user): fill in your validation logic upon object creation.
    return [];
  }

  /** validateUpdate implements the validating webhook for the Kind Captain on update. */
  async validateUpdate(_oldCaptain: Captain, captain: Captain): Promise<string[]> {
    captainlog.info({ name: captain.metadata?.name }, "Validation for Captain upon update");

    // TODO(user): fill in your validation logic upon object update.
    return [];
  }

  /** validateDelete implements the validating webhook for the Kind Captain on delete. */
  async validateDelete(captain: Captain): Promise<string[]> {
    captainlog.info({ name: captain.metadata?.name }, "Validation for Captain upon deletion");

    // TODO(user): fill in your validation logic upon object deletion.
    return [];
  }
}
