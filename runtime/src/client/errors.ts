/**
 * Typed API errors, mapped from the API server's meta/v1 Status body the way apimachinery's
 * `apierrors.ReasonForError` does: by `reason` first, by HTTP code when the reason is missing.
 */
import type { Status } from "../api/core.js";

/** Any non-2xx answer from the API server (or a client-side equivalent such as a cache miss). */
export class ApiError extends Error {
  override name = "ApiError";
  /** HTTP status code (0 when the request never got an answer). */
  readonly code: number;
  /** Status reason ("NotFound", "Conflict", "AlreadyExists", "Invalid", "Expired", ...). */
  readonly reason: string;
  /** The Status body as the API server sent it (synthesised when the body was not a Status). */
  readonly status: Status;

  constructor(status: Status, code = status.code ?? 0) {
    super(status.message || status.reason || `request failed with HTTP ${code}`);
    this.code = code;
    this.reason = status.reason ?? "";
    this.status = status;
  }
}

export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}
export class ConflictError extends ApiError {
  override name = "ConflictError";
}
export class AlreadyExistsError extends ApiError {
  override name = "AlreadyExistsError";
}
export class ForbiddenError extends ApiError {
  override name = "ForbiddenError";
}
export class InvalidError extends ApiError {
  override name = "InvalidError";
}
/** 410 Gone / reason Expired: a resourceVersion or continue token too old for the server. */
export class GoneError extends ApiError {
  override name = "GoneError";
}

/** Builds the right ApiError subclass for a Status body and HTTP code. */
export function errorFromStatus(status: Status, httpCode?: number): ApiError {
  const code = httpCode ?? status.code ?? 0;
  switch (status.reason) {
    case "NotFound":
      return new NotFoundError(status, code);
    case "AlreadyExists":
      return new AlreadyExistsError(status, code);
    case "Conflict":
      return new ConflictError(status, code);
    case "Forbidden":
      return new ForbiddenError(status, code);
    case "Invalid":
      return new InvalidError(status, code);
    case "Expired":
    case "Gone":
      return new GoneError(status, code);
  }
  switch (code) {
    case 404:
      return new NotFoundError(status, code);
    case 409:
      return new ConflictError(status, code);
    case 403:
      return new ForbiddenError(status, code);
    case 422:
      return new InvalidError(status, code);
    case 410:
      return new GoneError(status, code);
  }
  return new ApiError(status, code);
}

/**
 * Maps an HTTP answer to an error. The body is a Status for errors from the API server itself;
 * anything else (a proxy's HTML page, plain text) becomes the message of a synthesised Status.
 */
export function errorFromResponse(httpCode: number, body: string): ApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  if (parsed && typeof parsed === "object" && (parsed as Status).kind === "Status") {
    return errorFromStatus(parsed as Status, httpCode);
  }
  const text = body.trim().slice(0, 500);
  return errorFromStatus(
    {
      apiVersion: "v1",
      kind: "Status",
      status: "Failure",
      code: httpCode,
      reason: reasonForCode(httpCode),
      message: text || `the server responded with HTTP ${httpCode}`,
    },
    httpCode,
  );
}

function reasonForCode(code: number): string {
  const reasons: Record<number, string> = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    406: "NotAcceptable",
    409: "Conflict",
    410: "Expired",
    413: "RequestEntityTooLarge",
    415: "UnsupportedMediaType",
    422: "Invalid",
    429: "TooManyRequests",
    500: "InternalError",
    503: "ServiceUnavailable",
    504: "Timeout",
  };
  return reasons[code] ?? "Unknown";
}

/**
 * A write to a subresource the kind does not serve (most often: status, without the CRD's status
 * subresource). The API server says only "not found", for an object that exists. Deliberately not a
 * NotFoundError: ignoreNotFound must not swallow it.
 */
export class MissingSubresourceError extends ApiError {
  override name = "MissingSubresourceError";
  constructor(
    status: Status,
    readonly subresource: string,
  ) {
    super(status, 404);
  }
}

const SUBRESOURCE_MARKERS: Record<string, string> = {
  status: "// +kubebuilder:subresource:status",
  scale:
    "// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector",
};

/** The MissingSubresourceError for `kind` (a descriptor: its kind, group and plural name the resource). */
export function missingSubresourceError(
  kind: { kind: string; group: string; plural: string },
  name: string,
  subresource: string,
  cause?: unknown,
  hint?: string,
): MissingSubresourceError {
  const qualified = kind.group ? `${kind.plural}.${kind.group}` : kind.plural;
  const marker = SUBRESOURCE_MARKERS[subresource];
  const fix = marker
    ? `add \`${marker}\` above the ${kind.kind} type, run \`make manifests\` and install the CRD again (make install)`
    : `check that ${qualified} serves the ${subresource} subresource`;
  const err = new MissingSubresourceError(
    {
      apiVersion: "v1",
      kind: "Status",
      status: "Failure",
      code: 404,
      reason: "NotFound",
      message: `${kind.kind} "${name}" exists, but ${qualified} has no ${subresource} subresource, so the ${subresource} write was refused (the API server answers "not found"): ${fix}${hint ? `; ${hint}` : ""}`,
      details: { name, group: kind.group, kind: kind.plural },
    },
    subresource,
  );
  if (cause !== undefined) Object.defineProperty(err, "cause", { value: cause });
  return err;
}

/** A NotFound the way the API server words it: `configmaps "x" not found`. */
export function notFound(resource: string, name: string, group = ""): NotFoundError {
  const qualified = group ? `${resource}.${group}` : resource;
  return new NotFoundError(
    {
      apiVersion: "v1",
      kind: "Status",
      status: "Failure",
      code: 404,
      reason: "NotFound",
      message: `${qualified} "${name}" not found`,
      details: { name, group, kind: resource },
    },
    404,
  );
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}
export function isNotFound(err: unknown): err is NotFoundError {
  return err instanceof NotFoundError;
}
export function isConflict(err: unknown): err is ConflictError {
  return err instanceof ConflictError;
}
export function isAlreadyExists(err: unknown): err is AlreadyExistsError {
  return err instanceof AlreadyExistsError;
}
export function isForbidden(err: unknown): err is ForbiddenError {
  return err instanceof ForbiddenError;
}
export function isInvalid(err: unknown): err is InvalidError {
  return err instanceof InvalidError;
}
export function isGone(err: unknown): err is GoneError {
  return err instanceof GoneError;
}

/** controller-runtime's client.IgnoreNotFound: swallows NotFound, rethrows anything else. */
export function ignoreNotFound(err: unknown): void {
  if (!isNotFound(err)) throw err;
}

/** Swallows AlreadyExists, rethrows anything else. */
export function ignoreAlreadyExists(err: unknown): void {
  if (!isAlreadyExists(err)) throw err;
}
