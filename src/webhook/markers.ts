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
});

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
});

/** The markers the webhook generator reads. */
export const webhookGeneratorMarkers: MarkerDefinition[] = [webhookMarker, webhookConfigurationMarker];
