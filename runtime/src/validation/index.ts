/**
 * @kbts/runtime/validation: the API server's validation of custom resources, as the fake client
 * emulates it and the CLI's CRD generator checks it: CEL rule typing (celtypes.ts), CEL rules
 * (cel.ts), OpenAPI schema validation, pruning and defaulting (schema.ts) and the field errors they
 * report (fielderrors.ts). This entry exports the parts that load no validator (CEL type checks and
 * field errors), so the CLI stays quick to start; the ajv and CEL evaluators load with the fake client.
 */
export { celPropertyName, type RuleTypeProblem, ruleTypeProblems } from "./celtypes.js";
export { type FieldError, formatFieldError } from "./fielderrors.js";
