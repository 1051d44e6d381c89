import { describe, expect, it } from "vitest";
import {
  AlreadyExistsError,
  ApiError,
  ConflictError,
  errorFromResponse,
  ForbiddenError,
  GoneError,
  InvalidError,
  ignoreAlreadyExists,
  ignoreNotFound,
  isConflict,
  isNotFound,
  NotFoundError,
  notFound,
} from "./errors.js";
import { warningsOf } from "./rest.js";

function status(code: number, reason: string, message = "m"): string {
  return JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", code, reason, message });
}

describe("errorFromResponse", () => {
  it.each([
    [404, "NotFound", NotFoundError],
    [409, "AlreadyExists", AlreadyExistsError],
    [409, "Conflict", ConflictError],
    [403, "Forbidden", ForbiddenError],
    [422, "Invalid", InvalidError],
    [410, "Expired", GoneError],
    [500, "InternalError", ApiError],
  ])("HTTP %i %s → %o", (code, reason, cls) => {
    const err = errorFromResponse(code, status(code, reason, `${reason} happened`));
    expect(err).toBeInstanceOf(cls);
    expect(err.code).toBe(code);
    expect(err.reason).toBe(reason);
    expect(err.message).toBe(`${reason} happened`);
    expect(err.status.kind).toBe("Status");
  });

  it("falls back to the HTTP code when the body is not a Status", () => {
    const err = errorFromResponse(404, "<html>not here</html>");
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe("<html>not here</html>");
    expect(errorFromResponse(409, "")).toBeInstanceOf(ConflictError);
    expect(errorFromResponse(502, "").message).toMatch(/HTTP 502/);
  });

  it("keeps the Status details for Invalid", () => {
    const body = JSON.stringify({
      kind: "Status",
      code: 422,
      reason: "Invalid",
      message: "bad",
      details: { causes: [{ field: "spec.x", reason: "FieldValueRequired" }] },
    });
    const err = errorFromResponse(422, body);
    expect(err.status.details?.causes?.[0]?.field).toBe("spec.x");
  });
});

describe("ignore helpers", () => {
  it("ignoreNotFound swallows NotFound and rethrows others", async () => {
    await expect(Promise.reject(notFound("pods", "x")).catch(ignoreNotFound)).resolves.toBeUndefined();
    const conflict = errorFromResponse(409, status(409, "Conflict"));
    await expect(Promise.reject(conflict).catch(ignoreNotFound)).rejects.toBe(conflict);
    expect(() => ignoreNotFound(new Error("boom"))).toThrow("boom");
  });

  it("ignoreAlreadyExists swallows AlreadyExists only", () => {
    expect(() => ignoreAlreadyExists(errorFromResponse(409, status(409, "AlreadyExists")))).not.toThrow();
    expect(() => ignoreAlreadyExists(errorFromResponse(409, status(409, "Conflict")))).toThrow();
  });

  it("predicates tell the kinds apart", () => {
    expect(isNotFound(notFound("pods", "x", ""))).toBe(true);
    expect(notFound("gpubudgets", "b", "ml.example.com").message).toBe(
      'gpubudgets.ml.example.com "b" not found',
    );
    expect(isConflict(errorFromResponse(409, status(409, "AlreadyExists")))).toBe(false);
  });
});

describe("warningsOf", () => {
  it("unquotes RFC 7234 warnings and keeps anything else as sent", () => {
    expect(
      warningsOf({
        rawHeaders: [
          "Warning",
          '299 - "unknown field \\"bogus\\""',
          "Content-Type",
          "x",
          "warning",
          "plain text",
        ],
      }),
    ).toEqual(['unknown field "bogus"', "plain text"]);
  });
});
