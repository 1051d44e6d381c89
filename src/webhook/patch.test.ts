import { describe, expect, it } from "vitest";
import type { JsonValue } from "../yaml/emit.js";
import { applyWebhookPatch } from "./patch.js";

type Obj = { [k: string]: JsonValue };

const base = (): Obj => ({
  admissionReviewVersions: ["v1"],
  clientConfig: { service: { name: "webhook-service", namespace: "system", path: "/validate" } },
  failurePolicy: "Fail",
  name: "vship-v1.kb.io",
  rules: [{ apiGroups: ["a"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["ships"] }],
  sideEffects: "None",
  timeoutSeconds: 5,
});

describe("a webhook marker's patch= (strategic merge patch on the webhook)", () => {
  it("merges objects field by field: a port alone keeps the service's name, namespace and path", () => {
    const out = applyWebhookPatch(base(), '{"clientConfig":{"service":{"port":9443}}}', false);
    expect(out.clientConfig).toEqual({
      service: { name: "webhook-service", namespace: "system", path: "/validate", port: 9443 },
    });
  });

  it("removes a field set to null and replaces lists that have no merge key (rules)", () => {
    const out = applyWebhookPatch(
      base(),
      '{"timeoutSeconds":null,"rules":[{"apiGroups":["b"],"apiVersions":["v2"],"operations":["UPDATE"],"resources":["docks"]}]}',
      false,
    );
    expect(out.timeoutSeconds).toBeUndefined();
    expect(out.rules).toEqual([
      { apiGroups: ["b"], apiVersions: ["v2"], operations: ["UPDATE"], resources: ["docks"] },
    ]);
  });

  it("merges matchConditions by name: changes one, keeps the rest, appends new, deletes with $patch", () => {
    const webhook = {
      ...base(),
      matchConditions: [
        { name: "a", expression: "true" },
        { name: "b", expression: "false" },
        { name: "c", expression: "1 == 1" },
      ],
    };
    const out = applyWebhookPatch(
      webhook,
      '{"matchConditions":[{"name":"b","expression":"2 == 2"},{"name":"d","expression":"3 == 3"},{"name":"c","$patch":"delete"}]}',
      true,
    );
    expect(out.matchConditions).toEqual([
      { name: "a", expression: "true" },
      { name: "b", expression: "2 == 2" },
      { name: "d", expression: "3 == 3" },
    ]);
  });

  it("replaces an object with $patch: replace (Go's zero value for required strings left out)", () => {
    const out = applyWebhookPatch(
      base(),
      '{"clientConfig":{"service":{"$patch":"replace","name":"other","port":1}}}',
      false,
    );
    expect(out.clientConfig).toEqual({ service: { name: "other", namespace: "", port: 1 } });
  });

  it("refuses unknown fields, fields of the other webhook type, wrong types and bad directives", () => {
    const refused =
      (patch: string, mutating = false) =>
      () =>
        applyWebhookPatch(base(), patch, mutating);
    expect(refused('{"clientConfig":{"service":{"prot":1}}}')).toThrow(
      /unknown field "clientConfig.service.prot": ServiceReference has no field "prot"/,
    );
    expect(refused('{"reinvocationPolicy":"Never"}')).toThrow(/ValidatingWebhook has no field/);
    expect(applyWebhookPatch(base(), '{"reinvocationPolicy":"Never"}', true).reinvocationPolicy).toBe(
      "Never",
    );
    expect(refused('{"timeoutSeconds":"10"}')).toThrow(/timeoutSeconds must be an integer/);
    expect(refused('{"matchConditions":[{"expression":"true"}]}', true)).toThrow(/has no name/);
    expect(refused('{"$patch":"merge"}')).toThrow(/unknown directive/);
    expect(refused('{"clientConfig":')).toThrow(/not JSON/);
    expect(refused("[1]")).toThrow(/JSON object/);
  });
});
