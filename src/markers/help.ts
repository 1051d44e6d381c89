import { usage } from "./parse.js";
import type { Registry } from "./registry.js";

/** The marker reference, generated from the definitions (as `controller-gen -h` is). */
export function markerHelp(registry: Registry): string {
  const defs = registry.definitions().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return defs.map((d) => `${usage(d.name, d.args)}\n    ${d.help} [${d.targets.join(", ")}]`).join("\n");
}
