export { createOrPatch, createOrUpdate, type MutateFn, type OperationResult } from "./createorupdate.js";
export { addFinalizer, containsFinalizer, removeFinalizer } from "./finalizers.js";
export {
  AlreadyOwnedError,
  hasControllerReference,
  hasOwnerReference,
  type OwnerReferenceOptions,
  removeControllerReference,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from "./ownerref.js";
