export {
  type DependentsController,
  type DependentsControllerOptions,
  dependentsController,
} from "./controller.js";
export {
  type Dependent,
  type DependentApplyResult,
  type DependentOptions,
  dependent,
  PRIMARY_ANNOTATION,
  primaryKeyFrom,
  reconcileDependent,
} from "./dependent.js";
export {
  ControllerExpectations,
  controllerOwnerKey,
  DEFAULT_EXPECTATIONS_TIMEOUT_MS,
  type ExpectationsOptions,
  expectOwnCreations,
  observeExpectations,
} from "./expectations.js";
export { matchesDesired } from "./matches.js";
export { crdEstablished, deploymentAvailable } from "./ready.js";
export { DependentsReconciler } from "./reconciler.js";
export {
  type CleanupResult,
  DependentError,
  type DependentResult,
  type DependentState,
  setWorkflowConditions,
  Workflow,
  type WorkflowOptions,
  type WorkflowResult,
  workflowConditions,
} from "./workflow.js";
