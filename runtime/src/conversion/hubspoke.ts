import { apiVersionOf, groupKindOf, type Kind } from "../api/kind.js";
import type { KubernetesObject, ObjectMeta } from "../api/meta.js";
import { jsonClone, jsonEqual } from "../internal/json.js";

/**
 * One spoke version of a kind: the two functions that take its objects to the hub version and back
 * (controller-runtime's Convertible ConvertTo/ConvertFrom). Synchronous, as conversion is pure data
 * work; the runtime deep-copies the input first, so a function may change it and return it.
 */
export interface SpokeConversion<H extends KubernetesObject, S extends KubernetesObject> {
  readonly hub: Kind<H>;
  readonly spoke: Kind<S>;
  /** spoke → hub. */
  convertTo(spoke: S): H;
  /** hub → spoke. */
  convertFrom(hub: H): S;
}

/** The two functions of a spoke, typed by the hub's and the spoke's object types. */
export interface SpokeFunctions<H extends KubernetesObject, S extends KubernetesObject> {
  convertTo(spoke: S): H;
  convertFrom(hub: H): S;
}

/** Ties a spoke's conversion functions to its Kind and its hub's, so each function gets the right object type. */
export function defineSpoke<H extends KubernetesObject, S extends KubernetesObject>(
  hub: Kind<H>,
  spoke: Kind<S>,
  fns: SpokeFunctions<H, S>,
): SpokeConversion<H, S> {
  if (hub.group !== spoke.group || hub.kind !== spoke.kind) {
    throw new Error(
      `defineSpoke: spoke ${spoke.kind} ${apiVersionOf(spoke)} is not a version of the hub's kind ${groupKindOf(hub)}`,
    );
  }
  if (hub.version === spoke.version) {
    throw new Error(`defineSpoke: ${groupKindOf(hub)} ${hub.version} cannot be both the hub and a spoke`);
  }
  return Object.freeze({
    hub,
    spoke,
    convertTo: (obj: S) => fns.convertTo(obj),
    convertFrom: (obj: H) => fns.convertFrom(obj),
  });
}

/** Thrown when an object cannot be converted; the message names the kind, the object, both versions and the cause. */
export class ConversionError extends Error {
  override name = "ConversionError";
  constructor(
    readonly groupKind: string,
    readonly object: string,
    readonly fromVersion: string,
    readonly toVersion: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`converting ${groupKind} ${object} from ${fromVersion} to ${toVersion}: ${reason}`, options);
  }
}

/** Converts the objects of one group-kind between its versions (controller-runtime's conversion.Converter). */
export interface Converter {
  readonly hub: Kind;
  /** "CronJob.batch.example.com". */
  readonly groupKind: string;
  /** The hub version first, then each spoke's. */
  readonly versions: readonly string[];
  /** A converted copy of obj in desiredAPIVersion; the same apiVersion gives an unchanged copy. Throws ConversionError. */
  convert(obj: KubernetesObject, desiredAPIVersion: string): KubernetesObject;
}

// Any spoke of hub H: the spoke's own object type is erased once it sits in a list of spokes.
// biome-ignore lint/suspicious/noExplicitAny: a spoke of any object type fits; defineSpoke typed its functions
type AnySpoke<H extends KubernetesObject> = SpokeConversion<H, any>;

export const versionOf = (apiVersion: string): string => apiVersion.slice(apiVersion.indexOf("/") + 1);
export const groupOf = (apiVersion: string): string =>
  apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";

/** "namespace/name", or the name of a cluster-scoped object. */
export function describe(obj: KubernetesObject): string {
  const m = obj.metadata ?? {};
  return m.namespace ? `${m.namespace}/${m.name ?? "<unnamed>"}` : (m.name ?? "<unnamed>");
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// The API server refuses a conversion that changes any of these (only labels and annotations may change).
const FIXED_METADATA: (keyof ObjectMeta)[] = [
  "name",
  "namespace",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "finalizers",
  "ownerReferences",
];

/**
 * One hub and its spokes: hub ↔ spoke with the spoke's functions, spoke ↔ spoke through the hub, as
 * controller-runtime's hub-and-spoke converter. Every version of the kind other than the hub needs a spoke.
 */
export function hubAndSpokes<H extends KubernetesObject>(hub: Kind<H>, ...spokes: AnySpoke<H>[]): Converter {
  const groupKind = groupKindOf(hub);
  const byVersion = new Map<string, AnySpoke<H>>();
  for (const s of spokes) {
    if (s.hub.group !== hub.group || s.hub.kind !== hub.kind || s.hub.version !== hub.version) {
      throw new Error(
        `hubAndSpokes(${groupKind} ${hub.version}): spoke ${s.spoke.kind} ${apiVersionOf(s.spoke)} was defined for hub ${s.hub.kind} ${apiVersionOf(s.hub)}`,
      );
    }
    if (byVersion.has(s.spoke.version)) {
      throw new Error(`hubAndSpokes(${groupKind}): two spokes for version ${s.spoke.version}`);
    }
    byVersion.set(s.spoke.version, s);
  }
  const versions = [hub.version, ...byVersion.keys()];

  /** Runs one user function on a copy of src and checks the result is a well-formed object of `to`. */
  function step(
    src: KubernetesObject,
    to: Kind,
    fn: (o: KubernetesObject) => KubernetesObject,
    what: string,
  ): KubernetesObject {
    let result: KubernetesObject;
    try {
      result = fn(jsonClone(src));
    } catch (err) {
      throw new Error(`${what} threw: ${message(err)}`, { cause: err });
    }
    if (result === null || typeof result !== "object" || Array.isArray(result)) {
      throw new Error(`${what} returned ${result === null ? "null" : typeof result}, not an object`);
    }
    return withIdentity(jsonClone(result), src, to, what);
  }

  return {
    hub,
    groupKind,
    versions,
    convert(obj, desiredAPIVersion) {
      const from = versionOf(obj.apiVersion ?? "");
      const to = versionOf(desiredAPIVersion);
      const fail = (reason: string, cause?: unknown): ConversionError =>
        new ConversionError(groupKind, describe(obj), from || "<no apiVersion>", to, reason, { cause });
      if (groupOf(obj.apiVersion ?? "") !== hub.group || obj.kind !== hub.kind) {
        throw fail(`the object is a ${obj.kind} ${obj.apiVersion}, not a ${groupKind}`);
      }
      if (groupOf(desiredAPIVersion) !== hub.group) {
        throw fail(`${desiredAPIVersion} is not a version of group ${hub.group || "core"}`);
      }
      for (const v of [from, to]) {
        if (!versions.includes(v)) {
          throw fail(
            `version ${v} has no conversion: the hub is ${hub.version} and the spokes are ${[...byVersion.keys()].join(", ") || "none"}`,
          );
        }
      }
      if (from === to) return jsonClone(obj);
      const hubSide = (k: Kind) => ({ ...k, version: hub.version });
      try {
        let hubObj = obj;
        if (from !== hub.version) {
          const s = byVersion.get(from) as AnySpoke<H>;
          hubObj = step(
            obj,
            hubSide(s.spoke),
            (o) => s.convertTo(o),
            `${from} convertTo (to hub ${hub.version})`,
          );
        }
        if (to === hub.version) return hubObj;
        const s = byVersion.get(to) as AnySpoke<H>;
        return step(
          hubObj,
          s.spoke,
          (o) => s.convertFrom(o as H),
          `${to} convertFrom (from hub ${hub.version})`,
        );
      } catch (err) {
        throw fail(message(err), err);
      }
    },
  };
}

/**
 * Sets apiVersion and kind to the target's and carries the source's metadata; a result may change
 * labels and annotations only (the API server refuses any other metadata change).
 */
function withIdentity(
  result: KubernetesObject,
  src: KubernetesObject,
  to: Kind,
  what: string,
): KubernetesObject {
  const srcMeta = src.metadata ?? {};
  let meta: ObjectMeta;
  if (result.metadata === undefined || result.metadata === null) meta = jsonClone(srcMeta);
  else {
    for (const field of FIXED_METADATA) {
      const got = result.metadata[field];
      if (got !== undefined && !jsonEqual(got, srcMeta[field])) {
        throw new Error(
          `${what} changed metadata.${field} (${JSON.stringify(srcMeta[field])} → ${JSON.stringify(got)}); a conversion may change only labels and annotations`,
        );
      }
    }
    meta = jsonClone(srcMeta);
    // Labels and annotations the function left out are carried; `labels: {}` clears them.
    if (result.metadata.labels !== undefined) meta.labels = result.metadata.labels;
    if (result.metadata.annotations !== undefined) meta.annotations = result.metadata.annotations;
  }
  const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = result;
  return { apiVersion: apiVersionOf(to), kind: to.kind, metadata: meta, ...rest };
}
