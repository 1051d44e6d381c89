import type { Kind } from "../api/kind.js";
import { ApiError, ConflictError, NotFoundError } from "../client/errors.js";

/** The API server's Status errors the fake returns, with kube-apiserver's messages. */

export const qualifiedResource = (kind: Kind) => (kind.group ? `${kind.plural}.${kind.group}` : kind.plural);

export function status(code: number, reason: string, message: string, details?: Record<string, unknown>) {
  return { apiVersion: "v1", kind: "Status", status: "Failure" as const, code, reason, message, details };
}

export function notFound(kind: Kind, name: string): NotFoundError {
  return new NotFoundError(
    status(404, "NotFound", `${qualifiedResource(kind)} "${name}" not found`, {
      name,
      group: kind.group,
      kind: kind.plural,
    }),
    404,
  );
}

export function conflict(kind: Kind, name: string, why: string): ConflictError {
  return new ConflictError(
    status(409, "Conflict", `Operation cannot be fulfilled on ${qualifiedResource(kind)} "${name}": ${why}`, {
      name,
      group: kind.group,
      kind: kind.plural,
    }),
    409,
  );
}

export function badRequest(message: string): ApiError {
  return new ApiError(status(400, "BadRequest", message), 400);
}

export const MODIFIED =
  "the object has been modified; please apply your changes to the latest version and try again";
