import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { KbtsError } from "../errors.js";
import { closest } from "../markers/spelling.js";
import { sameGVK } from "./config.js";
import { isCoreGroup } from "./names.js";

/**
 * The built-in kinds @kbts/runtime exports descriptors for, with groups as Kubebuilder spells them on
 * the command line (`core`, `apps`, `networking`, `rbac.authorization`...). A webhook or controller for
 * a built-in kind imports the kind from the runtime.
 */
export interface BuiltinKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

/**
 * The runtime's own list (runtime/src/api/kinds.ts builtinKinds), read from its api/kinds module
 * alone: the runtime's index would load the whole runtime into every scaffolding command.
 */
const runtimeKinds = join(
  dirname(createRequire(import.meta.url).resolve("@kbts/runtime")),
  "api",
  "kinds.js",
);
const { builtinKinds } = (await import(pathToFileURL(runtimeKinds).href)) as {
  builtinKinds: typeof import("@kbts/runtime").builtinKinds;
};

/** The command-line group of an API group: `apps.k8s.io`... lose `.k8s.io`, the core group is `core`. */
export const commandLineGroup = (group: string): string => group.replace(/\.k8s\.io$/, "") || "core";

export const BUILTIN_KINDS: ReadonlyArray<BuiltinKind> = builtinKinds.map((k) => ({
  group: commandLineGroup(k.group),
  version: k.version,
  kind: k.kind,
  plural: k.plural,
  namespaced: k.namespaced,
}));

/** New APIs cannot live in Kubernetes' own groups: the core group has no name, the others are taken. */
export function refuseBuiltinGroup(group: string, kind: string, domain: string): void {
  const qualified = domain ? `${group}.${domain}` : group;
  const builtinGroup =
    group === "core" ||
    (isCoreGroup(group) && (domain === "" || domain === "k8s.io")) ||
    qualified.endsWith(".k8s.io") ||
    qualified === "k8s.io" ||
    BUILTIN_KINDS.some((k) => k.kind === kind && k.group === group);
  if (!builtinGroup) return;
  throw new KbtsError(
    `group ${JSON.stringify(group)} is a built-in Kubernetes group${group === "core" ? " (its API group name is empty)" : ""}; a new API cannot be created in it`,
    {
      where: "--group",
      fix: `to reconcile ${kind}s, write a controller for the built-in kind: kbts create api --group ${group} --version v1 --kind ${kind} --resource=false --controller; to extend it, create an API of your own (e.g. --group ${group === "core" ? "app" : group}x --kind ${kind}Policy) whose controller watches ${kind} (.owns()/.watches() in its builder); to check ${kind}s, use kbts create webhook --group ${group} --version v1 --kind ${kind}`,
    },
  );
}

/** A webhook for a built-in kind: the group/version/kind must be one the runtime has a descriptor for. */
export function checkBuiltinWebhookKind(group: string, version: string, kind: string): void {
  checkBuiltinKind(group, version, kind, "write a webhook for");
}

/** A webhook or controller for a built-in kind: one the runtime has a descriptor for, else a suggestion. */
export function checkBuiltinKind(group: string, version: string, kind: string, purpose: string): void {
  if (BUILTIN_KINDS.some((k) => sameGVK(k, { group, version, kind }))) return;
  const inGroup = BUILTIN_KINDS.filter((k) => k.group === group);
  const candidates = inGroup.length > 0 ? inGroup : BUILTIN_KINDS;
  const name = closest(
    kind,
    candidates.map((k) => k.kind),
    { within: (n) => Math.max(2, Math.floor(n.length / 3)), ignoreCase: true },
  );
  const best = candidates.find((k) => k.kind === name);
  const suggestion = best
    ? `did you mean --group ${best.group} --version ${best.version} --kind ${best.kind}? `
    : "";
  throw new KbtsError(`${group}/${version} ${kind} is not a built-in kind kbts can ${purpose}`, {
    where: "--kind",
    fix: `${suggestion}built-in kinds: ${BUILTIN_KINDS.map((k) => `${k.group}/${k.version} ${k.kind}`).join(", ")}`,
  });
}
