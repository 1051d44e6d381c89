import type { IncomingMessage } from "node:http";
import type { KubernetesObject } from "../api/meta.js";
import type { JsonPatchOperation } from "../client/types.js";
import { nopLogger } from "../log/logger.js";
import type { Logger } from "../log/types.js";
import { decodeJSON, HttpError, receiveReview, send } from "./http.js";
import { instrumentWebhook, webhookPanicsTotal } from "./metrics.js";
import type { HttpHandler } from "./types.js";

/** controller-runtime's limit on an AdmissionReview body (7 MiB); larger bodies get 413. */
export const MAX_ADMISSION_REQUEST_BYTES = 7 * 1024 * 1024;

export type Operation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** admission.k8s.io/v1 AdmissionRequest. */
export interface AdmissionRequest<T extends KubernetesObject = KubernetesObject> {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource?: string;
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: Operation;
  userInfo: UserInfo;
  object?: T | null;
  oldObject?: T | null;
  dryRun?: boolean;
  options?: Record<string, unknown> | null;
}

/** metav1.Status as carried in an admission response. */
export interface AdmissionStatus {
  metadata?: Record<string, never>;
  status?: "Success" | "Failure";
  code?: number;
  reason?: string;
  message?: string;
}

/** admission.k8s.io/v1 AdmissionResponse as sent back. */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: AdmissionStatus;
  patch?: string;
  patchType?: "JSONPatch";
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

/** What an admission handler decides; the HTTP layer completes it (uid, default code, base64 patch). */
export interface AdmissionResult {
  allowed: boolean;
  status?: AdmissionStatus;
  patches?: JsonPatchOperation[];
  warnings?: string[];
}

/**
 * Decides, before the handler runs, who answers a request: undefined, the handler here; `forwarded`,
 * the body of another server's AdmissionReview answer, sent back as it came; `result`, this decision
 * (with `headers` on the HTTP answer). `body` is the request's body as received; `req` carries its
 * headers and path.
 */
export type AdmissionRouter = (
  request: AdmissionRequest,
  body: Buffer,
  req: IncomingMessage,
) => Promise<
  { forwarded: Buffer } | { result: AdmissionResult; headers?: Record<string, string> } | undefined
>;

/** Handles one decoded AdmissionRequest (controller-runtime's admission.Handler). */
export type AdmissionHandler = (request: AdmissionRequest) => AdmissionResult | Promise<AdmissionResult>;

/**
 * Thrown by a validator or defaulter to deny with a message (403 Forbidden unless code/reason say
 * otherwise); warnings still reach the client.
 */
export class AdmissionDenied extends Error {
  readonly code: number;
  readonly reason: string;
  readonly warnings: string[];
  constructor(message: string, options: { code?: number; reason?: string; warnings?: string[] } = {}) {
    super(message);
    this.name = "AdmissionDenied";
    this.code = options.code ?? 403;
    this.reason = options.reason ?? "Forbidden";
    this.warnings = options.warnings ?? [];
  }
}

export function allowedResponse(message = "", warnings?: string[]): AdmissionResult {
  const status: AdmissionStatus = { metadata: {}, code: 200 };
  if (message) status.message = message;
  return warnings?.length ? { allowed: true, status, warnings } : { allowed: true, status };
}

/** controller-runtime's Denied: 403 Forbidden with a message. */
export function deniedResponse(message: string, warnings?: string[]): AdmissionResult {
  const result: AdmissionResult = {
    allowed: false,
    status: { metadata: {}, code: 403, reason: "Forbidden", message },
  };
  if (warnings?.length) result.warnings = warnings;
  return result;
}

/** controller-runtime's Errored: not allowed, with the code and the error's message. */
export function erroredResponse(code: number, err: unknown): AdmissionResult {
  return {
    allowed: false,
    status: { metadata: {}, code, message: err instanceof Error ? err.message : String(err) },
  };
}

/**
 * Turns a thrown error into a denial: AdmissionDenied and API errors (anything with a numeric code
 * and a reason, such as the client's ApiError) keep their code and reason; any other error is a
 * 403 Forbidden, as controller-runtime does for validator errors.
 */
export function denialFromError(err: unknown, warnings?: string[]): AdmissionResult {
  if (err instanceof AdmissionDenied) {
    const all = [...(warnings ?? []), ...err.warnings];
    const result: AdmissionResult = {
      allowed: false,
      status: { metadata: {}, code: err.code, reason: err.reason, message: err.message },
    };
    if (all.length) result.warnings = all;
    return result;
  }
  if (err instanceof Error) {
    const { code, reason } = err as Error & { code?: unknown; reason?: unknown };
    if (typeof code === "number" && typeof reason === "string") {
      const result: AdmissionResult = {
        allowed: false,
        status: { metadata: {}, code, reason, message: err.message },
      };
      if (warnings?.length) result.warnings = warnings;
      return result;
    }
    return deniedResponse(err.message, warnings);
  }
  return deniedResponse(String(err), warnings);
}

const REVIEW_VERSIONS = new Set(["admission.k8s.io/v1", "admission.k8s.io/v1beta1"]);

interface Review {
  apiVersion: string;
  kind: string;
  request: AdmissionRequest;
}

function parseReview(body: Buffer, contentType: string | undefined): Review {
  const parsed = decodeJSON(body, contentType);
  const review = parsed as Partial<Review> | null;
  if (!review || typeof review !== "object" || review.kind !== "AdmissionReview") {
    throw new HttpError(400, "unable to decode the request: not an AdmissionReview");
  }
  if (!REVIEW_VERSIONS.has(review.apiVersion ?? "")) {
    throw new HttpError(
      400,
      `unable to decode the request: AdmissionReview apiVersion ${review.apiVersion} is not admission.k8s.io/v1 or v1beta1`,
    );
  }
  if (!review.request || typeof review.request !== "object" || typeof review.request.uid !== "string") {
    throw new HttpError(400, "unable to decode the request: AdmissionReview has no request with a uid");
  }
  return review as Review;
}

function complete(uid: string, result: AdmissionResult): AdmissionResponse {
  const response: AdmissionResponse = { uid, allowed: result.allowed };
  response.status = { metadata: {}, ...result.status, code: result.status?.code || 200 };
  if (result.patches && result.patches.length > 0) {
    response.patch = Buffer.from(JSON.stringify(result.patches)).toString("base64");
    response.patchType = "JSONPatch";
  }
  if (result.warnings && result.warnings.length > 0) response.warnings = result.warnings;
  return response;
}

/**
 * Serves an AdmissionHandler over HTTP at `path` (the metrics label): AdmissionReview v1 (or v1beta1)
 * in, the same apiVersion out, uid echoed. Malformed requests (empty, over 7 MiB, not JSON, not an
 * AdmissionReview) get that HTTP status (400/413) and an AdmissionReview carrying the same code;
 * every decoded request is answered 200 with the decision inside, as the API server expects.
 */
export function serveAdmission(
  path: string,
  handler: AdmissionHandler,
  options: { logger?: Logger; maxRequestBytes?: number; route?: AdmissionRouter } = {},
): HttpHandler {
  const log = (options.logger ?? nopLogger()).child({ webhook: path });
  return instrumentWebhook(path, async (req, res) => {
    let body: Buffer = Buffer.alloc(0);
    const review = await receiveReview(req, res, {
      maxRequestBytes: options.maxRequestBytes ?? MAX_ADMISSION_REQUEST_BYTES,
      parse: (raw, contentType) => {
        body = raw;
        return parseReview(raw, contentType);
      },
      refusal: (err) => ({
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        response: complete("", erroredResponse(err.code, err)),
      }),
      log,
      what: "admission",
    });
    if (typeof review === "number") return review;
    const { request } = review;
    let result: AdmissionResult;
    try {
      const routed = await options.route?.(request, body, req);
      if (routed && "forwarded" in routed) {
        res.writeHead(200, { "content-type": "application/json", "content-length": routed.forwarded.length });
        res.end(routed.forwarded);
        return 200;
      }
      for (const [name, value] of Object.entries((routed && "headers" in routed && routed.headers) || {})) {
        res.setHeader(name, value);
      }
      result = routed ? routed.result : await handler(request);
    } catch (err) {
      // A handler that throws (rather than denying) is controller-runtime's recovered panic.
      webhookPanicsTotal.inc();
      log.error({ err, uid: request.uid }, "admission handler panicked");
      result = erroredResponse(
        500,
        new Error(`panic: ${(err as Error)?.message ?? String(err)} [recovered]`),
      );
    }
    log.debug(
      {
        uid: request.uid,
        operation: request.operation,
        allowed: result.allowed,
        code: result.status?.code,
      },
      "admission decision",
    );
    send(res, 200, {
      apiVersion: review.apiVersion,
      kind: "AdmissionReview",
      response: complete(request.uid, result),
    });
    return 200;
  });
}
