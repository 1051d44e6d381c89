import type { Kind } from "../api/kind.js";
import { InvalidError } from "../client/errors.js";

/** apimachinery's field.Error: one problem at one field path. */
export interface FieldError {
  type:
    | "Invalid"
    | "TypeInvalid"
    | "Required"
    | "NotSupported"
    | "TooLong"
    | "TooMany"
    | "Duplicate"
    | "Forbidden";
  /** "spec.items[0].name". */
  field: string;
  value?: unknown;
  /** Print no value ("Invalid value: <detail>"), as for CEL rules on objects and lists. */
  omitValue?: boolean;
  detail?: string;
  /** For NotSupported: the allowed values. */
  supported?: unknown[];
}

const CAUSE_REASON: Record<FieldError["type"], string> = {
  Invalid: "FieldValueInvalid",
  TypeInvalid: "FieldValueTypeInvalid",
  Required: "FieldValueRequired",
  NotSupported: "FieldValueNotSupported",
  TooLong: "FieldValueTooLong",
  TooMany: "FieldValueTooMany",
  Duplicate: "FieldValueDuplicate",
  Forbidden: "FieldValueForbidden",
};

/** Go's rendering of a bad value in a field error: %v for numbers and bools, %q for strings. */
export function goValue(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  return JSON.stringify(value);
}

/** The part after "<field>: ", as field.Error.ErrorBody() prints it. */
export function errorBody(e: FieldError): string {
  let s: string;
  switch (e.type) {
    case "Required":
      s = "Required value";
      break;
    case "Forbidden":
      s = "Forbidden";
      break;
    case "TooLong":
      s = "Too long";
      break;
    case "Invalid":
    case "TypeInvalid":
      if (e.omitValue) return e.detail ? `Invalid value: ${e.detail}` : "Invalid value";
      s = `Invalid value: ${goValue(e.value)}`;
      break;
    case "Duplicate":
      s = `Duplicate value: ${goValue(e.value)}`;
      break;
    case "TooMany":
      s = `Too many: ${goValue(e.value)}`;
      break;
    case "NotSupported": {
      s = `Unsupported value: ${goValue(e.value)}`;
      const values = (e.supported ?? []).map((v) => goValue(v)).join(", ");
      return values ? `${s}: supported values: ${values}` : s;
    }
  }
  return e.detail ? `${s}: ${e.detail}` : s;
}

export function formatFieldError(e: FieldError): string {
  return `${e.field || "<nil>"}: ${errorBody(e)}`;
}

/** The API server's 422: `<Kind>.<group> "<name>" is invalid: <error>` or `... is invalid: [<e1>, <e2>]`. */
export function invalidError(
  kind: Kind,
  name: string,
  errors: FieldError[],
  /** The API server names some errors by resource ("gpubudgets.group") instead of kind. */
  qualified = kind.group ? `${kind.kind}.${kind.group}` : kind.kind,
): InvalidError {
  const list = errors.map(formatFieldError);
  const joined = list.length === 1 ? list[0] : `[${list.join(", ")}]`;
  return new InvalidError(
    {
      apiVersion: "v1",
      kind: "Status",
      status: "Failure",
      code: 422,
      reason: "Invalid",
      message: `${qualified} "${name}" is invalid: ${joined}`,
      details: {
        name,
        group: kind.group,
        kind: kind.kind,
        causes: errors.map((e) => ({ reason: CAUSE_REASON[e.type], message: errorBody(e), field: e.field })),
      },
    },
    422,
  );
}

/**
 * apiextensions skips CEL rules when the schema found errors of these kinds (their cost estimates
 * would be wrong) and says so with one extra error.
 */
export function blocksCel(errors: FieldError[]): boolean {
  return errors.some((e) =>
    ["NotSupported", "Required", "TooLong", "TooMany", "TypeInvalid"].includes(e.type),
  );
}

export const CEL_NOT_CHECKED: FieldError = {
  type: "Invalid",
  field: "",
  value: null,
  detail:
    "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
};
