import type { ObjectMeta } from "../api/meta.js";
import type { FieldError } from "../validation/fielderrors.js";

// apimachinery's ObjectMeta checks that operators most often trip over: names and labels.

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_KEY_MSG =
  "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";

export function nameErrors(name: string): FieldError[] {
  const out: FieldError[] = [];
  if (name.length > 253)
    out.push({
      type: "Invalid",
      field: "metadata.name",
      value: name,
      detail: "must be no more than 253 bytes",
    });
  if (!DNS1123_SUBDOMAIN.test(name))
    out.push({ type: "Invalid", field: "metadata.name", value: name, detail: SUBDOMAIN_MSG });
  return out;
}

/** apimachinery's label-key (qualified name) messages. */
function qualifiedNameErrors(key: string): string[] {
  const parts = key.split("/");
  let name: string;
  const errs: string[] = [];
  if (parts.length === 1) name = parts[0] ?? "";
  else if (parts.length === 2) {
    const prefix = parts[0] ?? "";
    name = parts[1] ?? "";
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else if (prefix.length > 253) errs.push("prefix part must be no more than 253 bytes");
    else if (!DNS1123_SUBDOMAIN.test(prefix)) errs.push(`prefix part ${SUBDOMAIN_MSG}`);
  } else {
    return [LABEL_KEY_MSG];
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (name.length > 63) errs.push("name part must be no more than 63 bytes");
  if (name.length > 0 && !NAME_PART.test(name)) errs.push(NAME_PART_MSG);
  return errs;
}

export function labelErrors(labels: ObjectMeta["labels"]): FieldError[] {
  const out: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const detail of qualifiedNameErrors(key))
      out.push({ type: "Invalid", field: "metadata.labels", value: key, detail });
    if (typeof value !== "string") continue;
    if (value.length > 63)
      out.push({
        type: "Invalid",
        field: "metadata.labels",
        value,
        detail: "must be no more than 63 bytes",
      });
    if (!LABEL_VALUE.test(value))
      out.push({ type: "Invalid", field: "metadata.labels", value, detail: LABEL_VALUE_MSG });
  }
  return out;
}
