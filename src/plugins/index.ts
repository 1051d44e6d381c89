import { autoupdatePlugin } from "./autoupdate/index.js";
import { deployImagePlugin } from "./deployimage/index.js";
import { gpuBudgetPlugin } from "./gpu-budget/index.js";
import { grafanaPlugin } from "./grafana/index.js";
import { helmPlugin } from "./helm/index.js";
import { registeredPlugins, registerPlugin } from "./registry.js";
import { TYPESCRIPT_PLUGIN_KEY, typescriptPlugin } from "./typescript/plugin.js";

/**
 * Built-in plugins. A new plugin registers here with one line; `kbts init` records the layout
 * (default: typescript.kbts.dev/v1) in PROJECT and later commands run that chain plus any
 * `--plugins` given to them (e.g. `create api --plugins gpu-budget/v1-alpha`).
 */
export const DEFAULT_LAYOUT = [TYPESCRIPT_PLUGIN_KEY];

if (registeredPlugins().length === 0) {
  registerPlugin(typescriptPlugin);
  registerPlugin(gpuBudgetPlugin);
  registerPlugin(deployImagePlugin);
  registerPlugin(helmPlugin);
  registerPlugin(grafanaPlugin);
  registerPlugin(autoupdatePlugin);
}

export { findPlugin, registeredPlugins, registerPlugin, resolvePlugins } from "./registry.js";
export type * from "./types.js";
