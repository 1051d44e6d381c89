/**
 * Admission handlers built from a per-kind validator or defaulter (controller-runtime's
 * admission.CustomValidator and CustomDefaulter); the builder registers them on the webhook server.
 */
import type { KubernetesObject } from "../api/meta.js";
import { jsonClone, jsonEqual } from "../internal/json.js";
import {
  type AdmissionHandler,
  type AdmissionRequest,
  type AdmissionResult,
  allowedResponse,
  denialFromError,
  erroredResponse,
} from "./admission.js";
import { jsonPatchDiff } from "./jsonpatch.js";

/** Warnings returned to the client (kubectl prints them); nothing or void means none. */
// biome-ignore lint/suspicious/noConfusingVoidType: lets an async method with no return statement implement it
export type Warnings = string[] | undefined | void;

/**
 * Validates objects of one kind. Return warnings to allow; throw to deny (AdmissionDenied for a
 * chosen code/reason, any other Error for 403 Forbidden with its message).
 */
export interface CustomValidator<T extends KubernetesObject> {
  validateCreate(obj: T, req: AdmissionRequest<T>): Promise<Warnings>;
  validateUpdate(oldObj: T, obj: T, req: AdmissionRequest<T>): Promise<Warnings>;
  validateDelete(obj: T, req: AdmissionRequest<T>): Promise<Warnings>;
}

/** Sets defaults by mutating `obj`; the difference is sent back as a JSON patch. Throw to deny. */
export interface CustomDefaulter<T extends KubernetesObject> {
  default(obj: T, req: AdmissionRequest<T>): Promise<void> | void;
}

/**
 * The object a handler works on. The request was parsed for this admission alone, so a validator reads
 * it in place (a copy per admission was a measurable share of a busy webhook's CPU); a defaulter gets a
 * copy, because its changes are diffed against the original.
 */
function decode<T extends KubernetesObject>(raw: T | null | undefined, which: string, copy = false): T {
  if (raw === null || raw === undefined || typeof raw !== "object") {
    throw new Error(`there is no content to decode in ${which}`);
  }
  return copy ? jsonClone(raw) : raw;
}

/** An AdmissionHandler running a CustomValidator (controller-runtime's validator flow). */
export function validatingHandler<T extends KubernetesObject>(
  validator: CustomValidator<T>,
): AdmissionHandler {
  return async (request) => {
    const req = request as AdmissionRequest<T>;
    let run: () => Promise<Warnings>;
    try {
      switch (req.operation) {
        case "CREATE": {
          const obj = decode(req.object, "object");
          run = () => validator.validateCreate(obj, req);
          break;
        }
        case "UPDATE": {
          const obj = decode(req.object, "object");
          const oldObj = decode(req.oldObject, "oldObject");
          run = () => validator.validateUpdate(oldObj, obj, req);
          break;
        }
        case "DELETE": {
          // The object being deleted arrives as oldObject.
          const oldObj = decode(req.oldObject, "oldObject");
          run = () => validator.validateDelete(oldObj, req);
          break;
        }
        case "CONNECT":
          return allowedResponse();
        default:
          return erroredResponse(400, new Error(`unknown operation ${JSON.stringify(req.operation)}`));
      }
    } catch (err) {
      return erroredResponse(400, err);
    }
    try {
      return allowedResponse("", (await run()) || undefined);
    } catch (err) {
      return denialFromError(err);
    }
  };
}

/** An AdmissionHandler running a CustomDefaulter and answering with the JSON patch of its changes. */
export function defaultingHandler<T extends KubernetesObject>(
  defaulter: CustomDefaulter<T>,
): AdmissionHandler {
  return async (request): Promise<AdmissionResult> => {
    const req = request as AdmissionRequest<T>;
    if (req.operation === "DELETE") return allowedResponse();
    let obj: T;
    try {
      obj = decode(req.object, "object", true);
    } catch (err) {
      return erroredResponse(400, err);
    }
    try {
      await defaulter.default(obj, req);
    } catch (err) {
      return denialFromError(err);
    }
    if (jsonEqual(req.object, obj)) return allowedResponse();
    return { ...allowedResponse(), patches: jsonPatchDiff(req.object, obj) };
  };
}
