import type { KubernetesObject } from "../api/meta.js";
import { ConversionError, type Converter, describe, groupOf, versionOf } from "./hubspoke.js";

const typeKey = (group: string, kind: string) => `${group}/${kind}`;

/**
 * The converters of a process, one per group-kind (controller-runtime's conversion.Registry): the
 * /convert webhook, the fake client and tests look objects' converters up here.
 */
export class ConversionRegistry {
  private readonly converters = new Map<string, Converter>();

  constructor(converters: Iterable<Converter> = []) {
    for (const c of converters) this.register(c);
  }

  register(converter: Converter): void {
    const key = typeKey(converter.hub.group, converter.hub.kind);
    if (this.converters.has(key)) {
      throw new Error(`a converter for ${converter.groupKind} is already registered`);
    }
    this.converters.set(key, converter);
  }

  converterFor(group: string, kind: string): Converter | undefined {
    return this.converters.get(typeKey(group, kind));
  }

  /** The registered converters, in registration order. */
  list(): Converter[] {
    return [...this.converters.values()];
  }

  /** A copy of obj in desiredAPIVersion, through its group-kind's converter. Throws ConversionError. */
  convert(obj: KubernetesObject, desiredAPIVersion: string): KubernetesObject {
    const group = groupOf(obj.apiVersion ?? "");
    const converter = this.converterFor(group, obj.kind ?? "");
    if (!converter) {
      const gk = group ? `${obj.kind}.${group}` : String(obj.kind);
      throw new ConversionError(
        gk,
        describe(obj),
        versionOf(obj.apiVersion ?? ""),
        versionOf(desiredAPIVersion),
        `no converter is registered for ${gk} (registered: ${[...this.converters.values()].map((c) => c.groupKind).join(", ") || "none"})`,
      );
    }
    return converter.convert(obj, desiredAPIVersion);
  }
}
