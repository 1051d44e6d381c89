// @kbts/runtime/fake: an in-memory Client for unit tests, with the API server's CRD validation.
export { createFakeClient, type FakeClient, type FakeClientOptions, type FakeIndex } from "./client.js";
export type { CRDLike } from "./crds.js";
export { type FieldError, formatFieldError } from "./fielderrors.js";
export type { StructuralSchema, ValidationRule } from "./schema.js";
