import { KbtsError } from "../errors.js";
import type { Plugin } from "./types.js";

/**
 * Known plugins by key. Built-in plugins are registered in ./index.ts; a plugin is found by its full
 * key ("typescript.kbts.dev/v1") or its short form ("typescript/v1"), as Kubebuilder resolves `--plugins`.
 */
const plugins = new Map<string, Plugin>();

export function registerPlugin(plugin: Plugin): void {
  if (plugins.has(plugin.key)) throw new Error(`plugin ${plugin.key} is registered twice`);
  plugins.set(plugin.key, plugin);
}

export function registeredPlugins(): Plugin[] {
  return [...plugins.values()];
}

/** "helm.kbts.dev/v2-alpha" -> "helm/v2-alpha": how --plugins is usually spelled. */
export function shortPluginKey(key: string): string {
  const [name = "", version = ""] = key.split("/");
  return `${name.split(".")[0]}/${version}`;
}

export function findPlugin(key: string): Plugin {
  const exact = plugins.get(key);
  if (exact) return exact;
  const short = [...plugins.values()].filter((p) => shortPluginKey(p.key) === key);
  if (short.length === 1 && short[0]) return short[0];
  const known = [...plugins.keys()].sort().join(", ");
  throw new KbtsError(`unknown plugin ${JSON.stringify(key)}`, {
    where: "--plugins",
    fix: `use one of: ${known}`,
  });
}

/** Splits a --plugins value ("a/v1,b/v1" or repeated flags) into resolved plugins, in order. */
export function resolvePlugins(values: string[]): Plugin[] {
  const keys = values
    .flatMap((v) => v.split(","))
    .map((k) => k.trim())
    .filter((k) => k !== "");
  return keys.map(findPlugin);
}
