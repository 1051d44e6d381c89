import { describe, expect, it } from "vitest";
import { generateWebhookConfigurations, toWebhook } from "./generate.js";
import type { WebhookMarker } from "./markers.js";

const base: WebhookMarker = {
  mutating: false,
  failurePolicy: "fail",
  sideEffects: "None",
  groups: ["core"],
  resources: ["pods"],
  verbs: ["create", "update"],
  versions: ["v1"],
  name: "vpod-v1.kb.io",
  path: "/validate--v1-pod",
  admissionReviewVersions: ["v1"],
};

describe("webhook configurations (controller-gen pkg/webhook)", () => {
  it("maps a marker to a webhook: core group, upper-case operations, service defaults", () => {
    expect(toWebhook(base)).toEqual({
      admissionReviewVersions: ["v1"],
      clientConfig: { service: { name: "webhook-service", namespace: "system", path: "/validate--v1-pod" } },
      failurePolicy: "Fail",
      name: "vpod-v1.kb.io",
      rules: [
        { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["pods"] },
      ],
      sideEffects: "None",
    });
  });

  it("puts mutating first, sorts webhooks by name, honours webhookconfiguration names", () => {
    const objs = generateWebhookConfigurations(
      [
        { ...base, name: "vz.kb.io" },
        { ...base, name: "va.kb.io" },
        { ...base, mutating: true, name: "m.kb.io", reinvocationPolicy: "ifneeded" },
      ],
      [{ mutating: false, name: "my-validator" }],
    ) as {
      kind: string;
      metadata: { name: string };
      webhooks: { name: string; reinvocationPolicy?: string }[];
    }[];
    expect(objs.map((o) => [o.kind, o.metadata.name, o.webhooks.map((w) => w.name)])).toEqual([
      ["MutatingWebhookConfiguration", "mutating-webhook-configuration", ["m.kb.io"]],
      ["ValidatingWebhookConfiguration", "my-validator", ["va.kb.io", "vz.kb.io"]],
    ]);
    expect(objs[0]?.webhooks[0]?.reinvocationPolicy).toBe("IfNeeded");
  });

  it("rejects what the API server would", () => {
    expect(() => toWebhook({ ...base, url: "https://x" })).toThrow(/mutually exclusive/);
    expect(() => toWebhook({ ...base, sideEffects: undefined })).toThrow(/SideEffects is required/);
    expect(() => toWebhook({ ...base, sideEffects: "Some" })).toThrow(/should not be set to `Some`/);
    expect(() => toWebhook({ ...base, timeoutSeconds: 31 })).toThrow(/between 1 and 30/);
    expect(() => toWebhook({ ...base, matchPolicy: "Fuzzy" })).toThrow(/matchPolicy/);
  });
});
