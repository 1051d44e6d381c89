import { describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import type { Deployment } from "../api/kinds.js";
import { primaryKeyFrom, primaryReference } from "./dependent.js";
import { deploymentAvailable } from "./ready.js";

describe("deploymentAvailable", () => {
  const available = (over: Partial<NonNullable<Deployment["status"]>> = {}, generation = 2): Deployment => ({
    metadata: { name: "d", generation },
    spec: { replicas: 2, selector: {}, template: {} } as Deployment["spec"],
    status: {
      observedGeneration: 2,
      replicas: 2,
      updatedReplicas: 2,
      availableReplicas: 2,
      conditions: [{ type: "Available", status: "True" }],
      ...over,
    },
  });

  it("is true once the latest spec is rolled out to every replica and Available is True", () => {
    expect(deploymentAvailable(available())).toBe(true);
  });

  it("is false while the controller has not seen the spec, replicas lag, or Available is not True", () => {
    expect(deploymentAvailable(available({}, 3))).toBe(false);
    expect(deploymentAvailable(available({ updatedReplicas: 1 }))).toBe(false);
    expect(deploymentAvailable(available({ availableReplicas: 1 }))).toBe(false);
    expect(deploymentAvailable(available({ conditions: [{ type: "Available", status: "False" }] }))).toBe(
      false,
    );
    expect(deploymentAvailable({ metadata: { name: "d" } })).toBe(false);
  });
});

describe("the primary annotation", () => {
  const Ns = defineKind({ group: "x.io", version: "v1", kind: "App", plural: "apps", namespaced: true });
  const Cl = defineKind({ group: "", version: "v1", kind: "Root", plural: "roots", namespaced: false });

  it("names the primary and reads back as its key, only for that primary kind", () => {
    const ref = primaryReference(Ns, { metadata: { name: "a", namespace: "ns" } });
    expect(ref).toBe("App.x.io/ns/a");
    const obj = { metadata: { annotations: { "dependents.kbts.io/primary": ref } } };
    expect(primaryKeyFrom(Ns, obj)).toEqual({ namespace: "ns", name: "a" });
    expect(primaryKeyFrom(Cl, obj)).toBeUndefined();
    const root = {
      metadata: {
        annotations: { "dependents.kbts.io/primary": primaryReference(Cl, { metadata: { name: "r" } }) },
      },
    };
    expect(primaryKeyFrom(Cl, root)).toEqual({ name: "r" });
    expect(primaryKeyFrom(Ns, { metadata: {} })).toBeUndefined();
  });
});
