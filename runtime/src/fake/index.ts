/**
 * @kbts/runtime/fake: an in-memory Client for unit tests, with no cluster.
 *
 * Emulated as kube-apiserver does it (messages checked against a real one by parity.int.test.ts):
 * resourceVersion and stale-write conflicts, uid/creationTimestamp/generation, the status
 * subresource, finalizers and deletionTimestamp, generateName, dry run, label selectors, field
 * indexes, NotFound/AlreadyExists/Conflict/Invalid errors, metadata.name and label validation, and
 * for custom resources the CRD's pruning, defaulting, OpenAPI validation and CEL rules, and every
 * served version of a multi-version kind through its converter (stored once, in the storage version).
 *
 * Not emulated: watches, garbage collection of owned objects, admission webhooks, validation
 * ratcheting, server-side apply field ownership (apply merges), strategic merge patch list keys
 * (treated as a JSON merge patch), built-in kinds' own validation.
 */

export type { JSONSchemaProps, ValidationRule } from "../api/core.js";
export { celPropertyName, type RuleTypeProblem, ruleTypeProblems } from "../validation/celtypes.js";
export { type FieldError, formatFieldError } from "../validation/fielderrors.js";
export {
  createFakeClient,
  type FakeClient,
  type FakeClientOptions,
  type FakeIndex,
  type FakeKind,
} from "./client.js";
export type { CRDLike } from "./crds.js";
