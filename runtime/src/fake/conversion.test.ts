import { describe, expect, it } from "vitest";
import { ApiError } from "../client/errors.js";
import { mergePatch } from "../client/patch.js";
import { ConversionRegistry } from "../conversion/registry.js";
import {
  GadgetV1,
  GadgetV1alpha1,
  GadgetV2,
  gadgetConverter,
  gadgetCRD,
  type GadgetV1alpha1 as V1alpha1,
} from "../conversion/testdata/gadget.js";
import { createFakeClient } from "./index.js";

const key = { namespace: "ns", name: "g" };
const alpha = (color: string): V1alpha1 => ({
  apiVersion: "toys.kbts.dev/v1alpha1",
  kind: "Gadget",
  metadata: { name: "g", namespace: "ns", annotations: { "toys.kbts.dev/finish": "matte" } },
  spec: { replicas: 2, color },
});

describe("fake client: a kind in several versions", () => {
  it("writes as v1alpha1, reads as v1 and v2, writes back, and reads v1alpha1 unchanged", async () => {
    const c = createFakeClient({ crds: [gadgetCRD("v1")], conversions: [gadgetConverter] });
    const created = await c.create(GadgetV1alpha1, alpha("red"));
    const hub = await c.get(GadgetV1, key);
    expect(hub.apiVersion).toBe("toys.kbts.dev/v1");
    expect(hub.spec).toEqual({ replicas: 2, appearance: { color: "red", finish: "matte" } });
    expect(hub.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);

    const v2 = await c.get(GadgetV2, key);
    expect(v2.spec).toEqual({ replicas: 2, appearance: { colors: ["red"], finish: "matte" } });
    const written = await c.update(GadgetV2, v2);
    // Unchanged through another version is a no-op: the resourceVersion stays.
    expect(written.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);

    const back = await c.get(GadgetV1alpha1, key);
    expect(back.spec).toEqual(alpha("red").spec);
    expect(back.metadata?.annotations).toEqual(alpha("red").metadata?.annotations);
  });

  it("updates, patches, writes status and lists through any version", async () => {
    const c = createFakeClient({
      crds: [gadgetCRD("v2")],
      conversions: new ConversionRegistry([gadgetConverter]),
    });
    await c.create(GadgetV1alpha1, alpha("red"));
    const v2 = await c.get(GadgetV2, key);
    v2.spec = { ...v2.spec, appearance: { ...v2.spec?.appearance, colors: ["blue", "green"] } };
    await c.update(GadgetV2, v2);
    expect((await c.get(GadgetV1alpha1, key)).spec).toEqual({ replicas: 2, color: "blue" });

    const patched = await c.patch(GadgetV1alpha1, key, mergePatch({ spec: { replicas: 5 } }));
    expect(patched.spec).toEqual({ replicas: 5, color: "blue" });
    expect((await c.get(GadgetV2, key)).spec?.appearance?.colors).toEqual(["blue", "green"]);
    expect((await c.get(GadgetV2, key)).metadata?.generation).toBe(3);

    const hub = await c.get(GadgetV1, key);
    await c.status().update(GadgetV1, { ...hub, status: { ready: true } } as typeof hub);
    expect(((await c.get(GadgetV1alpha1, key)) as { status?: unknown }).status).toEqual({ ready: true });

    expect(
      (await c.list(GadgetV2, { namespace: "ns" })).map((g) => [g.apiVersion, g.metadata?.name]),
    ).toEqual([["toys.kbts.dev/v2", "g"]]);
  });

  it("converts seed objects into the storage version", async () => {
    const c = createFakeClient({
      crds: [gadgetCRD("v1")],
      conversions: [gadgetConverter],
      objects: [alpha("teal")],
    });
    expect((await c.get(GadgetV2, key)).spec?.appearance?.colors).toEqual(["teal"]);
  });

  it("serves a multi-version kind given without a CRD, stored in its hub", async () => {
    const c = createFakeClient({
      kinds: [{ kind: GadgetV1, statusSubresource: true }],
      conversions: [gadgetConverter],
    });
    await c.create(GadgetV1alpha1, alpha("red"));
    expect((await c.get(GadgetV2, key)).spec?.appearance?.colors).toEqual(["red"]);
  });

  it("fails a write whose conversion throws as the API server does, naming the webhook and the error", async () => {
    const c = createFakeClient({ crds: [gadgetCRD("v1")], conversions: [gadgetConverter] });
    const err = await c.create(GadgetV1alpha1, alpha("poison")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(500);
    expect((err as Error).message).toBe(
      'conversion webhook for toys.kbts.dev/v1alpha1, Kind=Gadget failed: converting Gadget.toys.kbts.dev ns/g from v1alpha1 to v1: v1alpha1 convertTo (to hub v1) threw: color "poison" cannot be converted',
    );
    await expect(c.get(GadgetV1, key)).rejects.toThrow('gadgets.toys.kbts.dev "g" not found');
  });

  it("without a converter, changes only apiVersion (strategy None) and prunes and defaults by the target's schema, as kube-apiserver does", async () => {
    const crd = gadgetCRD("v1");
    const v1Spec = crd.spec.versions.find((v) => v.name === "v1")?.schema?.openAPIV3Schema?.properties?.spec;
    if (v1Spec?.properties) v1Spec.properties.size = { type: "integer", default: 3 };
    const none = createFakeClient({ crds: [crd] });
    await none.create(GadgetV1alpha1, alpha("red"));
    // Stored as v1: color, unknown there, is pruned; reading v1 applies v1's default.
    const read = (await none.get(GadgetV1, key)) as unknown as { apiVersion: string; spec: unknown };
    expect([read.apiVersion, read.spec]).toEqual(["toys.kbts.dev/v1", { replicas: 2, size: 3 }]);
    expect((await none.get(GadgetV1alpha1, key)).spec).toEqual({ replicas: 2 });
  });

  it("says what to pass when the CRD wants webhook conversion and no converter is given", async () => {
    const webhook = createFakeClient({ crds: [gadgetCRD("v1", { strategy: "Webhook" })] });
    await expect(webhook.create(GadgetV1alpha1, alpha("red"))).rejects.toThrow(
      "fake client: CRD gadgets.toys.kbts.dev converts Gadget.toys.kbts.dev between versions with a webhook; pass its converter: createFakeClient({ conversions: [hubAndSpokes(Hub, ...spokes)] })",
    );
  });
});
