import type { JSONSchemaProps } from "@kbts/runtime";
import { KbtsError } from "../errors.js";
import { formatLocation, type MarkerInstance, type MarkerSet } from "../markers/registry.js";

const DEFAULT_PRIORITY = 10;

/**
 * Applies the schema markers of a node in controller-tools' order: stable-sorted by priority, `items:`
 * markers last (on the array's items). Each marker applies itself; errors carry the marker's location.
 */
export function applySchemaMarkers(schema: JSONSchemaProps, markers: MarkerSet, errors: KbtsError[]): void {
  const own: MarkerInstance[] = [];
  const items: MarkerInstance[] = [];
  for (const m of markers.all) {
    if (!m.def.schema) continue;
    (m.def.schema.items ? items : own).push(m);
  }
  const prio = (m: MarkerInstance) => m.def.schema?.priority ?? DEFAULT_PRIORITY;
  own.sort((a, b) => prio(a) - prio(b));
  items.sort((a, b) => prio(a) - prio(b));
  const run = (m: MarkerInstance, target: JSONSchemaProps) => {
    try {
      m.def.schema?.apply(target, m.value);
    } catch (err) {
      errors.push(
        new KbtsError(`+${m.def.name}: ${(err as Error).message}`, {
          where: formatLocation(m.loc),
          fix: "use the marker on a field or type whose schema it fits, or change the type",
        }),
      );
    }
  };
  for (const m of own) run(m, schema);
  for (const m of items) {
    if (schema.type !== "array" || !schema.items) {
      errors.push(
        new KbtsError(`must apply +${m.def.name} to an array value, found ${schema.type ?? "no type"}`, {
          where: formatLocation(m.loc),
        }),
      );
      continue;
    }
    run(m, schema.items);
  }
}
