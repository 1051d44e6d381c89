import type { KubernetesObject } from "../api/meta.js";
import { jsonClone, jsonEqual } from "../controllerutil/json.js";
import { hubAndSpokes, type SpokeConversion } from "../conversion/hubspoke.js";
import type { Kind } from "../kinds.js";
import type { Logger } from "../log/types.js";
import type { Manager } from "../manager/types.js";
import {
  type AdmissionHandler,
  type AdmissionRequest,
  type AdmissionResult,
  allowedResponse,
  denialFromError,
  erroredResponse,
  serveAdmission,
} from "./admission.js";
import { CONVERT_PATH, conversionRegistryOf } from "./conversion.js";
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

function pathSuffix(kind: Kind): string {
  return `${kind.group.replace(/\./g, "-")}-${kind.version}-${kind.kind.toLowerCase()}`;
}

/** controller-runtime's generated path: /validate-<group, dots as dashes>-<version>-<kind>; "/validate--v1-pod" for Pods. */
export function validatingWebhookPath(kind: Kind): string {
  return `/validate-${pathSuffix(kind)}`;
}

/** /mutate-<group, dots as dashes>-<version>-<kind>. */
export function mutatingWebhookPath(kind: Kind): string {
  return `/mutate-${pathSuffix(kind)}`;
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

/** What webhookManagedBy needs from a manager. */
export type WebhookHost = Pick<Manager, "getWebhookServer"> & Partial<Pick<Manager, "getLogger">>;

export interface WebhookBuilder<T extends KubernetesObject> {
  withValidator(validator: CustomValidator<T>): WebhookBuilder<T>;
  withDefaulter(defaulter: CustomDefaulter<T>): WebhookBuilder<T>;
  /** Overrides the generated /validate-... path. */
  withValidatorCustomPath(path: string): WebhookBuilder<T>;
  /** Overrides the generated /mutate-... path. */
  withDefaulterCustomPath(path: string): WebhookBuilder<T>;
  /**
   * Serves CRD conversion for this kind at /convert, with the builder's kind as the hub and these
   * spokes (one for every other version); spoke to spoke goes through the hub.
   */
  // biome-ignore lint/suspicious/noExplicitAny: a spoke of any object type fits; defineSpoke typed its functions
  withConversion(...spokes: SpokeConversion<T, any>[]): WebhookBuilder<T>;
  /** Registers the handlers on the manager's webhook server; returns the registered paths. */
  complete(): { validatePath?: string; mutatePath?: string; convertPath?: string };
}

/** controller-runtime's WebhookManagedBy: validating, defaulting and conversion webhooks for one kind. */
export function webhookManagedBy<T extends KubernetesObject>(
  mgr: WebhookHost,
  kind: Kind<T>,
): WebhookBuilder<T> {
  let validator: CustomValidator<T> | undefined;
  let defaulter: CustomDefaulter<T> | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: see withConversion
  let spokes: SpokeConversion<T, any>[] | undefined;
  let validatePath = validatingWebhookPath(kind);
  let mutatePath = mutatingWebhookPath(kind);
  let done = false;
  const builder: WebhookBuilder<T> = {
    withValidator(v) {
      validator = v;
      return builder;
    },
    withDefaulter(d) {
      defaulter = d;
      return builder;
    },
    withConversion(...given) {
      if (given.length === 0) {
        throw new Error(
          `webhookManagedBy(${kind.kind}).withConversion(): give the spokes, one per version other than the hub ${kind.version}`,
        );
      }
      spokes = given;
      return builder;
    },
    withValidatorCustomPath(path) {
      validatePath = path;
      return builder;
    },
    withDefaulterCustomPath(path) {
      mutatePath = path;
      return builder;
    },
    complete() {
      if (done) throw new Error(`webhookManagedBy(${kind.kind}).complete() called twice`);
      if (!validator && !defaulter && !spokes) {
        throw new Error(
          `webhookManagedBy(${kind.kind}): call withValidator(), withDefaulter() and/or withConversion() before complete()`,
        );
      }
      // Built before anything is registered, so a bad spoke leaves the server untouched.
      const converter = spokes ? hubAndSpokes(kind, ...spokes) : undefined;
      done = true;
      const server = mgr.getWebhookServer();
      const logger: Logger | undefined = mgr.getLogger?.().child({ webhookKind: kind.kind });
      const out: { validatePath?: string; mutatePath?: string; convertPath?: string } = {};
      if (converter) {
        conversionRegistryOf(server, { logger: mgr.getLogger?.() }).register(converter);
        out.convertPath = CONVERT_PATH;
      }
      if (defaulter) {
        server.register(mutatePath, serveAdmission(mutatePath, defaultingHandler(defaulter), { logger }));
        out.mutatePath = mutatePath;
      }
      if (validator) {
        server.register(validatePath, serveAdmission(validatePath, validatingHandler(validator), { logger }));
        out.validatePath = validatePath;
      }
      return out;
    },
  };
  return builder;
}
