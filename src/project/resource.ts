import { pluralize } from "../crd/plural.js";
import { type ProjectConfig, type Resource, sameGVK } from "./config.js";
import { coreDomain, isCoreGroup, qualifiedGroup } from "./names.js";

/**
 * Everything templates need to know about one group/version/kind, computed once from the flags and
 * PROJECT, so no template derives a name on its own.
 */
export interface ResourceModel {
  group: string;
  version: string;
  kind: string;
  /** "memcached": file names. */
  kindLower: string;
  /** "memcached"; a camelCase variable name for an object of the kind. */
  kindVar: string;
  plural: string;
  domain: string;
  /** "cache.example.com"; "" for the core group. */
  qualifiedGroup: string;
  /** "cache.example.com/v1alpha1", "v1" for core. */
  apiVersion: string;
  namespaced: boolean;
  /** A built-in Kubernetes kind (Pod, Deployment...): no API types are scaffolded. */
  core: boolean;
  multigroup: boolean;
  /** "" or "cache/" (multigroup): the group's folder under api/, internal/controller/, internal/webhook/. */
  groupDir: string;
  /** Import path prefix of the API package as seen from cmd/main.ts. */
  modulePath: string;
  /** Whether `plural` was given and differs from the regular plural (then stored in PROJECT). */
  irregularPlural: boolean;
}

export interface ResourceFlags {
  group: string;
  version: string;
  kind: string;
  plural?: string;
  namespaced?: boolean;
}

/**
 * `create api` never makes core resources; `create webhook` treats a built-in group (core, apps,
 * batch, ...) as core unless PROJECT has an API of that group/version/kind, as Kubebuilder does.
 */
export function isCoreResource(config: ProjectConfig, flags: ResourceFlags): boolean {
  if (!isCoreGroup(flags.group)) return false;
  return !config.resources?.some((r) => !r.core && sameGVK(r, flags));
}

/**
 * Names a scaffolded object variable may not take: JavaScript's reserved words, and the locals the
 * controller template declares beside it (a kind Status or Class must still compile).
 */
const NOT_A_VARIABLE = new Set([
  ...["break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do"],
  ...["else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in"],
  ...["instanceof", "new", "null", "return", "super", "switch", "this", "throw", "true", "try"],
  ...["typeof", "var", "void", "while", "with", "yield", "let", "static", "implements", "interface"],
  ...["package", "private", "protected", "public", "await", "arguments", "eval"],
  ...["status", "conditions", "changed", "request", "log", "err"],
]);

/** The variable a scaffold names an object of the kind: `memcached`, `gpuBudget`; `statusObject` for Status. */
function kindVariable(kind: string): string {
  const name = kind.charAt(0).toLowerCase() + kind.slice(1);
  return NOT_A_VARIABLE.has(name) ? `${name}Object` : name;
}

export function resourceModel(config: ProjectConfig, flags: ResourceFlags, core = false): ResourceModel {
  const domain = core ? coreDomain(flags.group) : (config.domain ?? "");
  const kindLower = flags.kind.toLowerCase();
  // controller-gen's plural for the kind, so RBAC, samples and PROJECT name the CRD's resource.
  const regular = pluralize(flags.kind);
  const plural = flags.plural ?? regular;
  const qg = qualifiedGroup(flags.group, domain);
  const multigroup = config.multigroup === true;
  const groupDir = multigroup && !core ? `${flags.group}/` : "";
  return {
    group: flags.group,
    version: flags.version,
    kind: flags.kind,
    kindLower,
    kindVar: kindVariable(flags.kind),
    plural,
    domain,
    qualifiedGroup: qg,
    apiVersion: qg === "" ? flags.version : `${qg}/${flags.version}`,
    namespaced: flags.namespaced ?? true,
    core,
    multigroup,
    groupDir,
    modulePath: core
      ? `k8s.io/api/${flags.group}/${flags.version}`
      : `${config.repo ?? ""}/api/${groupDir}${flags.version}`,
    irregularPlural: plural !== regular,
  };
}

/** The PROJECT entry for a resource (only the parts this command scaffolded). */
export function resourceEntry(model: ResourceModel): Resource {
  return {
    group: model.group,
    version: model.version,
    kind: model.kind,
    domain: model.domain,
    plural: model.irregularPlural ? model.plural : undefined,
    path: model.modulePath,
    core: model.core || undefined,
  };
}
