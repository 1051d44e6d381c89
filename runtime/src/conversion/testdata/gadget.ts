/**
 * A test kind in three versions: hub v1, spokes v1alpha1 and v2, with conversions that are lossless
 * (what a version cannot say rides in an annotation) and throw on a poisoned colour.
 */
import type { CustomResourceDefinition, JSONSchemaProps } from "../../api/core.js";
import { defineKind } from "../../api/kind.js";
import type { KubernetesObject } from "../../api/meta.js";
import { defineSpoke, hubAndSpokes } from "../hubspoke.js";

const group = "toys.kbts.dev";
const names = { kind: "Gadget", plural: "gadgets" } as const;

/** v1alpha1: a flat colour. */
export interface GadgetV1alpha1 extends KubernetesObject {
  spec?: { replicas?: number; color?: string };
  status?: GadgetStatus;
}
/** The same in every version. */
export interface GadgetStatus {
  ready?: boolean;
}
/** v1, the hub: colour under appearance, plus a finish v1alpha1 lacks. */
export interface GadgetV1 extends KubernetesObject {
  spec?: { replicas?: number; appearance?: { color?: string; finish?: string } };
  status?: GadgetStatus;
}
/** v2: several colours, the first being v1's. */
export interface GadgetV2 extends KubernetesObject {
  spec?: { replicas?: number; appearance?: { colors?: string[]; finish?: string } };
  status?: GadgetStatus;
}

const kind = <T extends KubernetesObject>(version: string) =>
  defineKind<T>({ group, version, ...names, namespaced: true });
export const GadgetV1alpha1 = kind<GadgetV1alpha1>("v1alpha1");
export const GadgetV1 = kind<GadgetV1>("v1");
export const GadgetV2 = kind<GadgetV2>("v2");

export const POISON = "poison";
/** A poisoned colour cannot leave v1alpha1 nor reach v2, until a test "fixes the code" by clearing refused. */
export const poison = { refused: true };
function refusePoison(color: string | undefined): void {
  if (poison.refused && color === POISON) throw new Error(`color "${POISON}" cannot be converted`);
}
const FINISH = "toys.kbts.dev/finish";
const MORE_COLORS = "toys.kbts.dev/more-colors";

export const gadgetV1alpha1Spoke = defineSpoke(GadgetV1, GadgetV1alpha1, {
  convertTo(src) {
    refusePoison(src.spec?.color);
    const { [FINISH]: finish, ...annotations } = src.metadata?.annotations ?? {};
    return {
      status: src.status,
      metadata: { ...src.metadata, annotations },
      spec: {
        replicas: src.spec?.replicas,
        appearance: { color: src.spec?.color, ...(finish ? { finish } : {}) },
      },
    };
  },
  convertFrom(hub) {
    const finish = hub.spec?.appearance?.finish;
    return {
      status: hub.status,
      metadata: {
        ...hub.metadata,
        annotations: { ...hub.metadata?.annotations, ...(finish ? { [FINISH]: finish } : {}) },
      },
      spec: { replicas: hub.spec?.replicas, color: hub.spec?.appearance?.color },
    };
  },
});

export const gadgetV2Spoke = defineSpoke(GadgetV1, GadgetV2, {
  convertTo(src) {
    const [color, ...more] = src.spec?.appearance?.colors ?? [];
    const annotations = { ...src.metadata?.annotations };
    if (more.length) annotations[MORE_COLORS] = more.join(",");
    return {
      status: src.status,
      metadata: { ...src.metadata, annotations },
      spec: {
        replicas: src.spec?.replicas,
        appearance: { color, finish: src.spec?.appearance?.finish },
      },
    };
  },
  convertFrom(hub) {
    const { [MORE_COLORS]: more, ...annotations } = hub.metadata?.annotations ?? {};
    const color = hub.spec?.appearance?.color;
    refusePoison(color);
    return {
      status: hub.status,
      metadata: { ...hub.metadata, annotations },
      spec: {
        replicas: hub.spec?.replicas,
        appearance: {
          colors: [...(color ? [color] : []), ...(more ? more.split(",") : [])],
          finish: hub.spec?.appearance?.finish,
        },
      },
    };
  },
});

export const gadgetConverter = hubAndSpokes(GadgetV1, gadgetV1alpha1Spoke, gadgetV2Spoke);

const str: JSONSchemaProps = { type: "string" };
const schemas: Record<string, JSONSchemaProps> = {
  v1alpha1: { type: "object", properties: { replicas: { type: "integer" }, color: str } },
  v1: {
    type: "object",
    properties: {
      replicas: { type: "integer" },
      appearance: { type: "object", properties: { color: str, finish: str } },
    },
  },
  v2: {
    type: "object",
    properties: {
      replicas: { type: "integer" },
      appearance: { type: "object", properties: { colors: { type: "array", items: str }, finish: str } },
    },
  },
};

/** The Gadget CRD; `storage` picks the storage version, `conversion` is left to the caller (None if unset). */
export function gadgetCRD(
  storage = "v1",
  conversion?: Record<string, unknown>,
): CustomResourceDefinition & { spec: NonNullable<CustomResourceDefinition["spec"]> } {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${names.plural}.${group}` },
    spec: {
      group,
      names: { ...names, listKind: "GadgetList", singular: "gadget" },
      scope: "Namespaced",
      ...(conversion ? { conversion } : {}),
      versions: ["v1alpha1", "v1", "v2"].map((name) => ({
        name,
        served: true,
        storage: name === storage,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              apiVersion: str,
              kind: str,
              metadata: { type: "object" },
              spec: schemas[name] as JSONSchemaProps,
              status: { type: "object", properties: { ready: { type: "boolean" } } },
            },
          },
        },
      })),
    },
  };
}
