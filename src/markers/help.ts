import { compareStrings } from "../compare.js";
import { usage } from "./parse.js";
import type { Registry } from "./registry.js";

/** The marker reference, generated from the definitions (as `controller-gen -h` is). */
export function markerHelp(registry: Registry): string {
  const defs = registry.definitions().sort((a, b) => compareStrings(a.name, b.name));
  return defs
    .map(
      (d) =>
        `${usage(d.name, d.args)}\n    ${d.help}${d.repeatable ? " (repeatable)" : ""} [${d.targets.join(", ")}]`,
    )
    .join("\n");
}
