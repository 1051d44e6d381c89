/**
 * What every scaffolding command shares: its result, the PROJECT file it reads, the plugin chain it
 * runs and the staged scaffold it runs it on. Each command validates every input, runs the plugin
 * chain against a staged tree, writes PROJECT, then flushes once. Any error before the flush leaves
 * the directory untouched; an error during it restores what was there.
 */
import { KbtsError } from "../errors.js";
import { formatStaged } from "../files/format.js";
import { removeStaleTemps, type StagedFS } from "../files/staged.js";
import { DEFAULT_LAYOUT, findPlugin, resolvePlugins } from "../plugins/index.js";
import type { Plugin, PluginContext } from "../plugins/types.js";
import { PROJECT_FILE, type ProjectConfig, parseProject } from "../project/config.js";
import { validateGroup, validateKind, validatePlural, validateVersion } from "../project/names.js";
import type { ResourceFlags } from "../project/resource.js";
import { checkProjectValues } from "../project/validate.js";
import { checkHeaderIsComment } from "../scaffold/encode.js";
import { Scaffold } from "../scaffold/scaffold.js";
import { Renderer } from "../scaffold/template.js";

/** What a command did: the files it wrote and kept, and what to do next. */
export interface ScaffoldResult {
  /** Paths written (created or changed), relative to the project. */
  written: string[];
  /** Existing files the command left as they were instead of scaffolding them (init says so). */
  kept?: string[];
  next: string;
}

/** The year stamped into license headers: SOURCE_DATE_EPOCH when set (reproducible output), else now. */
export function scaffoldYear(): string {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const date = epoch && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : new Date();
  return String(date.getUTCFullYear());
}

/** Formats the staged TypeScript with the project's biome settings, then writes everything at once. */
export function flush(fs: StagedFS): string[] {
  formatStaged(fs);
  return fs.flush();
}

export function header(text: string | undefined, year: string): string {
  return (text ?? "").trimEnd().replace(/\bYEAR\b/g, year);
}

/** Admission and conversion webhooks are cluster-wide API server configuration: WATCH_NAMESPACE does not limit them. */
export const NAMESPACED_WEBHOOK_WARNING =
  "Warning: a namespaced operator's webhooks stay cluster-scoped: the API server calls them for objects in every namespace (narrow them with a namespaceSelector in config/webhook if needed).";

/** The project a command runs in: its PROJECT file, parsed and checked (values at their PROJECT line). */
export function loadProjectConfig(fs: StagedFS): ProjectConfig {
  removeStaleTemps(fs.root);
  const text = fs.read(PROJECT_FILE);
  if (text === undefined) {
    throw new KbtsError(`no PROJECT file in ${fs.root}`, {
      where: PROJECT_FILE,
      fix: "run this command in the project's root directory, or create a project with kbts init",
    });
  }
  const config = parseProject(text);
  checkProjectValues(text);
  return config;
}

/**
 * The plugins a create command runs: those named by --plugins, else the project's layout, as
 * Kubebuilder does. A plugin that builds on the base one (like deploy-image) runs it itself.
 */
export function pluginChain(config: ProjectConfig, requested: string[] | undefined): Plugin[] {
  if (requested?.length) return resolvePlugins(requested);
  return (config.layout?.length ? config.layout : DEFAULT_LAYOUT).map(findPlugin);
}

export function validateResourceFlags(flags: ResourceFlags): void {
  validateGroup(flags.group);
  validateVersion(flags.version);
  validateKind(flags.kind);
  if (flags.plural !== undefined) validatePlural(flags.plural);
}

const BOILERPLATE = "hack/boilerplate.ts.txt";

export function projectScaffold(fs: StagedFS, config: ProjectConfig): PluginContext {
  const text = fs.read(BOILERPLATE);
  if (text !== undefined) checkHeaderIsComment(text, BOILERPLATE);
  return {
    scaffold: new Scaffold(fs, new Renderer(), header(text, scaffoldYear())),
    config,
  };
}
