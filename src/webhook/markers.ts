import { t } from "../markers/args.js";
import { defineMarker, type MarkerDefinition } from "../markers/registry.js";

/** One `+kubebuilder:webhook:...` marker (controller-tools pkg/webhook Config). */
export interface WebhookMarker {
  mutating: boolean;
  failurePolicy: string;
  matchPolicy?: string;
  sideEffects?: string;
  timeoutSeconds?: number;
  groups: string[];
  resources: string[];
  verbs: string[];
  versions: string[];
  name: string;
  serviceName?: string;
  serviceNamespace?: string;
  path?: string;
  servicePort?: number;
  webhookVersions?: string[];
  admissionReviewVersions: string[];
  reinvocationPolicy?: string;
  url?: string;
  patch?: string;
}

export const webhookMarker = defineMarker<WebhookMarker>({
  name: "kubebuilder:webhook",
  targets: ["package"],
  args: {
    kind: "fields",
    fields: {
      mutating: { type: t.bool },
      failurePolicy: { type: t.string },
      matchPolicy: { type: t.string, optional: true },
      sideEffects: { type: t.string, optional: true },
      timeoutSeconds: { type: t.int, optional: true },
      groups: { type: t.strings },
      resources: { type: t.strings },
      verbs: { type: t.strings },
      versions: { type: t.strings },
      name: { type: t.string },
      serviceName: { type: t.string, optional: true },
      serviceNamespace: { type: t.string, optional: true },
      path: { type: t.string, optional: true },
      servicePort: { type: t.int, optional: true },
      webhookVersions: { type: t.strings, optional: true },
      admissionReviewVersions: { type: t.strings },
      reinvocationPolicy: { type: t.string, optional: true },
      url: { type: t.string, optional: true },
      patch: { type: t.string, optional: true },
    },
  },
  help: "an admission webhook of the manager (mutating, failurePolicy, groups, resources, verbs, versions, name, path, ...)",
  repeatable: true,
  convert: (args) => checkWebhook(args as unknown as WebhookMarker),
});

const oneOf = (field: string, value: string | undefined, allowed: string[]): void => {
  if (value === undefined || allowed.some((a) => a.toLowerCase() === value.toLowerCase())) return;
  throw new Error(`${field}=${value} is not one of ${allowed.join(", ")}`);
};

/** A webhook as the API server validates its configuration (admissionregistration validation). */
function checkWebhook(m: WebhookMarker): WebhookMarker {
  oneOf("failurePolicy", m.failurePolicy, ["Fail", "Ignore"]);
  oneOf("matchPolicy", m.matchPolicy, ["Exact", "Equivalent"]);
  oneOf("sideEffects", m.sideEffects, ["None", "NoneOnDryRun", "Some"]);
  oneOf("reinvocationPolicy", m.reinvocationPolicy, ["Never", "IfNeeded"]);
  const labels = m.name.split(".");
  const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
  if (labels.length < 3 || m.name.length > 253 || !labels.every((l) => l.length <= 63 && dnsLabel.test(l))) {
    throw new Error(
      `name=${m.name} must be a fully qualified, lower-case DNS name with at least three segments (e.g. vmemcached-v1.kb.io)`,
    );
  }
  if (m.timeoutSeconds !== undefined && (m.timeoutSeconds < 1 || m.timeoutSeconds > 30)) {
    throw new Error(`timeoutSeconds=${m.timeoutSeconds} must be between 1 and 30`);
  }
  for (const verb of m.verbs) oneOf("verbs", verb, ["CREATE", "UPDATE", "DELETE", "CONNECT", "*"]);
  if (m.admissionReviewVersions.length === 0) {
    throw new Error("admissionReviewVersions is empty (e.g. admissionReviewVersions=v1)");
  }
  return m;
}

export interface WebhookConfigMarker {
  mutating: boolean;
  name?: string;
}

export const webhookConfigurationMarker = defineMarker<WebhookConfigMarker>({
  name: "kubebuilder:webhookconfiguration",
  targets: ["package"],
  args: {
    kind: "fields",
    fields: { mutating: { type: t.bool }, name: { type: t.string, optional: true } },
  },
  help: "the name of the Mutating/ValidatingWebhookConfiguration object",
  repeatable: true,
});

/** The markers the webhook generator reads. */
export const webhookGeneratorMarkers: MarkerDefinition[] = [webhookMarker, webhookConfigurationMarker];
