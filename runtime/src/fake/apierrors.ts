// TEMPORARY local import point for the API error classes until runtime/src/client/errors.ts (runtime-core)
// lands; then this file re-exports it and callers switch to importing client/errors.js directly.
export interface StatusBody {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure";
  message: string;
  reason: string;
  code: number;
  details?: Record<string, unknown>;
}

export class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly status: StatusBody;
  constructor(code: number, reason: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.reason = reason;
    this.status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason,
      code,
    };
    if (details) this.status.details = details;
  }
}
export class NotFoundError extends ApiError {
  constructor(message: string) {
    super(404, "NotFound", message);
    this.name = "NotFoundError";
  }
}
export class ConflictError extends ApiError {
  constructor(message: string) {
    super(409, "Conflict", message);
    this.name = "ConflictError";
  }
}
export class AlreadyExistsError extends ApiError {
  constructor(message: string) {
    super(409, "AlreadyExists", message);
    this.name = "AlreadyExistsError";
  }
}
export class InvalidError extends ApiError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(422, "Invalid", message, details);
    this.name = "InvalidError";
  }
}
export class BadRequestError extends ApiError {
  constructor(message: string) {
    super(400, "BadRequest", message);
    this.name = "BadRequestError";
  }
}
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 404;
}
