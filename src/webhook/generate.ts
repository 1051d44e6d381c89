import { compareStrings } from "../compare.js";
import type { MarkerLocation } from "../markers/registry.js";
import type { JsonValue } from "../yaml/emit.js";
import type { WebhookConfigMarker, WebhookMarker } from "./markers.js";
import { applyWebhookPatch, PatchError } from "./patch.js";

/** A webhook marker that cannot become an API object, with that marker's location when known. */
export class WebhookError extends Error {
  loc?: MarkerLocation;
}

/** Where a marker value was written (the orchestrator knows; unit callers may not). */
export type Locate = (marker: WebhookMarker | WebhookConfigMarker) => MarkerLocation | undefined;

function located<T>(marker: WebhookMarker | WebhookConfigMarker, locate: Locate | undefined, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof WebhookError) err.loc ??= locate?.(marker);
    throw err;
  }
}

const lowerMatch = (value: string | undefined, allowed: string[]): string | undefined =>
  allowed.find((a) => a.toLowerCase() === (value ?? "").toLowerCase());

const OPERATIONS: Record<string, string> = {
  create: "CREATE",
  update: "UPDATE",
  delete: "DELETE",
  connect: "CONNECT",
  "*": "*",
};

/** One webhook entry of a configuration, as controller-gen's ToMutatingWebhook/ToValidatingWebhook. */
export function toWebhook(m: WebhookMarker): { [k: string]: JsonValue } {
  if ((m.path && m.url) || (!m.path && !m.url)) {
    throw new WebhookError("`url` or `path` markers are required and mutually exclusive");
  }
  const out: { [k: string]: JsonValue } = {
    admissionReviewVersions: m.admissionReviewVersions,
    name: m.name,
    rules: [
      {
        apiGroups: m.groups.map((g) => (g === "core" ? "" : g)),
        apiVersions: m.versions,
        operations: m.verbs.map((v) => OPERATIONS[v.toLowerCase()] ?? v),
        resources: m.resources,
      },
    ],
  };
  const clientConfig: { [k: string]: JsonValue } = {};
  if (m.path) {
    const service: { [k: string]: JsonValue } = {
      name: m.serviceName || "webhook-service",
      namespace: m.serviceNamespace || "system",
      path: m.path,
    };
    if (m.servicePort !== undefined) service.port = m.servicePort;
    clientConfig.service = service;
  } else {
    clientConfig.url = m.url as string;
  }
  out.clientConfig = clientConfig;
  out.failurePolicy = lowerMatch(m.failurePolicy, ["Ignore", "Fail"]) ?? m.failurePolicy;
  if (m.matchPolicy) {
    const mp = lowerMatch(m.matchPolicy, ["Exact", "Equivalent"]);
    if (!mp) throw new WebhookError(`unknown value "${m.matchPolicy}" for matchPolicy`);
    out.matchPolicy = mp;
  }
  const sideEffects = lowerMatch(m.sideEffects, ["None", "NoneOnDryRun", "Some"]);
  if (!sideEffects)
    throw new WebhookError(
      "SideEffects is required for creating v1 {Mutating,Validating}WebhookConfiguration",
    );
  if (sideEffects === "Some") {
    throw new WebhookError(
      "SideEffects should not be set to `Some` or `Unknown` for v1 {Mutating,Validating}WebhookConfiguration",
    );
  }
  out.sideEffects = sideEffects;
  if (m.timeoutSeconds) {
    if (m.timeoutSeconds < 1 || m.timeoutSeconds > 30)
      throw new WebhookError("TimeoutSeconds must be between 1 and 30 seconds");
    out.timeoutSeconds = m.timeoutSeconds;
  }
  if (m.mutating) {
    const rp = lowerMatch(m.reinvocationPolicy, ["Never", "IfNeeded"]);
    if (rp) out.reinvocationPolicy = rp;
  }
  if (m.admissionReviewVersions.length === 0) {
    throw new WebhookError(
      "AdmissionReviewVersions is mandatory for v1 {Mutating,Validating}WebhookConfiguration",
    );
  }
  for (const v of m.webhookVersions ?? [])
    if (v !== "v1") throw new WebhookError(`unsupported webhook version: ${v}`);
  if (m.patch) {
    try {
      return applyWebhookPatch(out, m.patch, m.mutating);
    } catch (err) {
      if (err instanceof PatchError)
        throw new WebhookError(`patch=${m.patch} cannot be applied: ${err.message}`);
      throw err;
    }
  }
  return out;
}

/** The objects of config/webhook/manifests.yaml: mutating first, then validating; empty → no file. */
export function generateWebhookConfigurations(
  markers: WebhookMarker[],
  configs: WebhookConfigMarker[],
  locate?: Locate,
): JsonValue[] {
  const sorted = [...markers].sort((a, b) => compareStrings(a.name, b.name));
  const out: JsonValue[] = [];
  for (const mutating of [true, false]) {
    const hooks = sorted
      .filter((m) => m.mutating === mutating)
      .map((m) => located(m, locate, () => toWebhook(m)));
    if (hooks.length === 0) continue;
    const named = configs.filter((c) => c.mutating === mutating);
    const second = named[1];
    if (second) {
      located(second, locate, () => {
        throw new WebhookError(
          `duplicate ${mutating ? "mutating" : "validating"} kubebuilder:webhookconfiguration`,
        );
      });
    }
    const kind = mutating ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration";
    const name =
      named[0]?.name || (mutating ? "mutating-webhook-configuration" : "validating-webhook-configuration");
    out.push({ apiVersion: "admissionregistration.k8s.io/v1", kind, metadata: { name }, webhooks: hooks });
  }
  return out;
}
