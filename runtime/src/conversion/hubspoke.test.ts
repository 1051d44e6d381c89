import { describe, expect, it } from "vitest";
import { defineKind } from "../api/kind.js";
import { ConversionError, defineSpoke, hubAndSpokes } from "./hubspoke.js";
import { ConversionRegistry } from "./registry.js";
import {
  GadgetV1,
  GadgetV1alpha1,
  GadgetV2,
  gadgetConverter,
  gadgetV1alpha1Spoke,
  type GadgetV1alpha1 as V1alpha1,
} from "./testdata/gadget.js";

const alpha = (color: string, extra: Partial<V1alpha1["metadata"]> = {}): V1alpha1 => ({
  apiVersion: "toys.kbts.dev/v1alpha1",
  kind: "Gadget",
  metadata: { name: "g", namespace: "ns", uid: "u-1", labels: { app: "x" }, ...extra },
  spec: { replicas: 2, color },
});

describe("hub and spoke conversion", () => {
  it("converts a spoke to the hub with the spoke's convertTo, setting apiVersion and kind and carrying metadata", () => {
    const hub = gadgetConverter.convert(alpha("red"), "toys.kbts.dev/v1");
    expect(hub).toEqual({
      apiVersion: "toys.kbts.dev/v1",
      kind: "Gadget",
      metadata: { name: "g", namespace: "ns", uid: "u-1", labels: { app: "x" }, annotations: {} },
      spec: { replicas: 2, appearance: { color: "red" } },
    });
  });

  it("goes spoke to spoke through the hub, and back unchanged", () => {
    const src = alpha("blue", { annotations: { "toys.kbts.dev/finish": "matte" } });
    const v2 = gadgetConverter.convert(src, "toys.kbts.dev/v2");
    expect(v2.apiVersion).toBe("toys.kbts.dev/v2");
    expect((v2 as { spec: unknown }).spec).toEqual({
      replicas: 2,
      appearance: { colors: ["blue"], finish: "matte" },
    });
    expect(gadgetConverter.convert(v2, "toys.kbts.dev/v1alpha1")).toEqual(src);
  });

  it("keeps the input untouched and returns a copy for the same version", () => {
    const src = alpha("green");
    const before = structuredClone(src);
    const same = gadgetConverter.convert(src, "toys.kbts.dev/v1alpha1");
    gadgetConverter.convert(src, "toys.kbts.dev/v2");
    expect(src).toEqual(before);
    expect(same).toEqual(src);
    expect(same).not.toBe(src);
  });

  it("turns a throwing function into a ConversionError naming the kind, object, versions and cause", () => {
    const err = (() => {
      try {
        gadgetConverter.convert(alpha("poison"), "toys.kbts.dev/v2");
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConversionError);
    expect((err as Error).message).toBe(
      'converting Gadget.toys.kbts.dev ns/g from v1alpha1 to v2: v1alpha1 convertTo (to hub v1) threw: color "poison" cannot be converted',
    );
  });

  it("refuses a result that changes metadata other than labels and annotations", () => {
    const renaming = hubAndSpokes(
      GadgetV1,
      defineSpoke(GadgetV1, GadgetV1alpha1, {
        convertTo: (s) => ({ metadata: { ...s.metadata, name: "other" } }),
        convertFrom: (h) => h,
      }),
      gadgetConverter_v2(),
    );
    expect(() => renaming.convert(alpha("red"), "toys.kbts.dev/v1")).toThrow(
      /changed metadata\.name \("g" → "other"\); a conversion may change only labels and annotations/,
    );
  });

  it("carries the source's metadata when a function returns none", () => {
    const bare = hubAndSpokes(
      GadgetV1,
      defineSpoke(GadgetV1, GadgetV1alpha1, {
        convertTo: (s) => ({ spec: { replicas: s.spec?.replicas } }),
        convertFrom: (h) => ({ spec: { replicas: h.spec?.replicas } }),
      }),
    );
    expect(bare.convert(alpha("red"), "toys.kbts.dev/v1").metadata).toEqual(alpha("red").metadata);
  });

  it("names the versions it cannot convert", () => {
    expect(() => gadgetConverter.convert(alpha("red"), "toys.kbts.dev/v3")).toThrow(
      "converting Gadget.toys.kbts.dev ns/g from v1alpha1 to v3: version v3 has no conversion: the hub is v1 and the spokes are v1alpha1, v2",
    );
    expect(gadgetConverter.versions).toEqual(["v1", "v1alpha1", "v2"]);
  });

  it("checks spokes belong to the hub's kind and are not repeated", () => {
    const Other = defineKind({
      group: "toys.kbts.dev",
      version: "v1beta1",
      kind: "Widget",
      plural: "widgets",
      namespaced: true,
    });
    expect(() => defineSpoke(GadgetV1, Other, { convertTo: (s) => s, convertFrom: (h) => h })).toThrow(
      "defineSpoke: spoke Widget toys.kbts.dev/v1beta1 is not a version of the hub's kind Gadget.toys.kbts.dev",
    );
    expect(() => hubAndSpokes(GadgetV1, gadgetV1alpha1Spoke, gadgetV1alpha1Spoke)).toThrow(
      "hubAndSpokes(Gadget.toys.kbts.dev): two spokes for version v1alpha1",
    );
    expect(() => hubAndSpokes(GadgetV2, gadgetV1alpha1Spoke)).toThrow(
      /was defined for hub Gadget toys.kbts.dev\/v1/,
    );
  });

  it("types each function by its Kind's object type", () => {
    defineSpoke(GadgetV1, GadgetV1alpha1, {
      // @ts-expect-error v1alpha1 has no appearance: the spoke parameter is a GadgetV1alpha1
      convertTo: (s) => ({ spec: { appearance: s.spec?.appearance } }),
      convertFrom: (h) => ({ spec: { color: h.spec?.appearance?.color } }),
    });
  });
});

describe("ConversionRegistry", () => {
  it("finds the converter by group and kind and names the registered ones when none fits", () => {
    const registry = new ConversionRegistry([gadgetConverter]);
    expect(registry.convert(alpha("red"), "toys.kbts.dev/v2").apiVersion).toBe("toys.kbts.dev/v2");
    expect(() => registry.register(gadgetConverter)).toThrow(
      "a converter for Gadget.toys.kbts.dev is already registered",
    );
    expect(() =>
      registry.convert(
        { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" } },
        "apps/v1beta1",
      ),
    ).toThrow(
      "converting Deployment.apps d from v1 to v1beta1: no converter is registered for Deployment.apps (registered: Gadget.toys.kbts.dev)",
    );
  });
});

function gadgetConverter_v2() {
  return defineSpoke(GadgetV1, GadgetV2, {
    convertTo: (s) => ({ metadata: s.metadata }),
    convertFrom: (h) => ({ metadata: h.metadata }),
  });
}
