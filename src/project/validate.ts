import { isMap, isSeq, LineCounter, parseDocument } from "yaml";
import { KbtsError } from "../errors.js";
import { closest } from "../markers/spelling.js";
import { validateRepo } from "../scaffold/encode.js";
import type { StagedFS } from "../scaffold/fs.js";
import { ts } from "../ts/typescript.js";
import { PROJECT_FILE } from "./config.js";
import {
  isCoreGroup,
  isDNS1123Label,
  isDNS1123Subdomain,
  validateDomain,
  validateGroup,
  validateKind,
  validatePlural,
  validateProjectName,
  validateVersion,
} from "./names.js";
import type { ResourceModel } from "./resource.js";

/**
 * What the API server (and the TypeScript compiler) would refuse, refused before anything is written:
 * PROJECT's values as it is read, the names of a new resource as a whole (lengths the flags alone do
 * not show), built-in groups and kinds, and generated identifiers that collide.
 */

/** Runs a flag validator on a PROJECT value, reporting it at its line in PROJECT. */
function atLine(where: string, field: string, check: () => void): void {
  try {
    check();
  } catch (err) {
    if (!(err instanceof KbtsError)) throw err;
    throw new KbtsError(`${field}: ${err.message}`, {
      where,
      fix: "correct the value in PROJECT (or restore PROJECT from version control)",
    });
  }
}

/**
 * PROJECT values that reach generated code and manifests: domain, projectName, repo, and each
 * resource's group, version, kind, plural and domain. Errors name PROJECT:line.
 */
export function checkProjectValues(text: string, file = PROJECT_FILE): void {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (!isMap(doc.contents)) return;
  const lineOf = (node: unknown) => {
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    return range ? `${file}:${lines.linePos(range[0]).line}` : file;
  };
  const str = (map: unknown, key: string): { value: unknown; where: string } | undefined => {
    if (!isMap(map)) return undefined;
    const pair = map.items.find((p) => (p.key as { value?: unknown })?.value === key);
    if (!pair) return undefined;
    return { value: (pair.value as { value?: unknown })?.value, where: lineOf(pair.key) };
  };
  const need = (
    v: { value: unknown; where: string } | undefined,
    field: string,
  ): v is { value: string; where: string } => {
    if (v === undefined) return false;
    if (typeof v.value !== "string") {
      throw new KbtsError(`${field} must be a string`, { where: v.where, fix: "correct it in PROJECT" });
    }
    return true;
  };
  const domain = str(doc.contents, "domain");
  if (need(domain, "domain") && domain.value !== "")
    atLine(domain.where, "domain", () => validateDomain(domain.value));
  const name = str(doc.contents, "projectName");
  if (need(name, "projectName")) atLine(name.where, "projectName", () => validateProjectName(name.value));
  const repo = str(doc.contents, "repo");
  if (need(repo, "repo")) atLine(repo.where, "repo", () => validateRepo(repo.value));

  const resources = doc.get("resources");
  if (!isSeq(resources)) return;
  resources.items.forEach((entry, i) => {
    const at = lineOf(entry);
    if (!isMap(entry)) {
      throw new KbtsError(`resources[${i}] must be a mapping`, { where: at, fix: "correct it in PROJECT" });
    }
    for (const key of ["group", "version", "kind"]) {
      if (str(entry, key) === undefined) {
        throw new KbtsError(`resources[${i}] has no ${key}`, {
          where: at,
          fix: `add its ${key} (every resource entry has group, version and kind), or remove the entry`,
        });
      }
    }
    const group = str(entry, "group");
    const core = str(entry, "core")?.value === true;
    if (need(group, `resources[${i}].group`) && !(core && group.value === "core")) {
      atLine(group.where, `resources[${i}].group`, () => validateGroup(group.value));
    }
    const version = str(entry, "version");
    if (need(version, `resources[${i}].version`)) {
      atLine(version.where, `resources[${i}].version`, () => validateVersion(version.value));
    }
    const kind = str(entry, "kind");
    if (need(kind, `resources[${i}].kind`))
      atLine(kind.where, `resources[${i}].kind`, () => validateKind(kind.value));
    const plural = str(entry, "plural");
    if (need(plural, `resources[${i}].plural`)) {
      atLine(plural.where, `resources[${i}].plural`, () => validatePlural(plural.value));
    }
    const rdomain = str(entry, "domain");
    if (need(rdomain, `resources[${i}].domain`) && rdomain.value !== "") {
      atLine(rdomain.where, `resources[${i}].domain`, () => validateDomain(rdomain.value));
    }
  });
}

/**
 * A new resource's names as the API server checks them: the plural is a DNS-1035 label (at most 63
 * characters, which a long kind's plural can pass), the qualified group a DNS-1123 subdomain, the
 * CRD's name `<plural>.<group>` a DNS-1123 subdomain (at most 253), and the CRD's file name fits.
 */
export function checkResourceNames(model: ResourceModel): void {
  if (!isDNS1123Label(model.plural) || model.plural.length > 63) {
    throw new KbtsError(
      `the plural of kind ${model.kind}, ${JSON.stringify(model.plural)}, is ${model.plural.length} characters; the API server allows at most 63`,
      {
        where: model.plural.length > 63 ? "--kind" : "--plural",
        fix: "choose a shorter kind, or give a shorter --plural",
      },
    );
  }
  if (!model.core && !isDNS1123Subdomain(model.qualifiedGroup)) {
    throw new KbtsError(
      `the API group ${JSON.stringify(model.qualifiedGroup)} (--group + the project's domain) is not a DNS-1123 subdomain of at most 253 characters`,
      { where: "--group", fix: "choose a shorter group (or a shorter domain)" },
    );
  }
  const crdName = `${model.plural}.${model.qualifiedGroup}`;
  if (!model.core && crdName.length > 253) {
    throw new KbtsError(
      `the CRD name ${crdName.slice(0, 40)}... is ${crdName.length} characters; the API server allows at most 253`,
      { where: "--group", fix: "choose a shorter group, kind or plural (or a shorter domain)" },
    );
  }
  const file = `${model.qualifiedGroup}_${model.plural}.yaml`;
  if (!model.core && Buffer.byteLength(file) > 255) {
    throw new KbtsError(`the CRD file name ${file.slice(0, 40)}... is longer than 255 bytes`, {
      where: "--group",
      fix: "choose a shorter group, kind or plural (or a shorter domain)",
    });
  }
}

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

/**
 * The built-in kinds @kbts/runtime exports descriptors for (runtime/src/api/kinds.ts; a unit test
 * holds the two lists equal), with groups as Kubebuilder spells them on the command line (`core`,
 * `apps`, `networking`, `rbac.authorization`...). A webhook or controller for a built-in kind imports
 * the kind from the runtime.
 */
export interface BuiltinKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

export const BUILTIN_KINDS: ReadonlyArray<BuiltinKind> = [
  { group: "core", version: "v1", kind: "Pod", plural: "pods", namespaced: true },
  { group: "core", version: "v1", kind: "Namespace", plural: "namespaces", namespaced: false },
  { group: "core", version: "v1", kind: "ConfigMap", plural: "configmaps", namespaced: true },
  { group: "core", version: "v1", kind: "Secret", plural: "secrets", namespaced: true },
  { group: "core", version: "v1", kind: "Service", plural: "services", namespaced: true },
  { group: "core", version: "v1", kind: "ServiceAccount", plural: "serviceaccounts", namespaced: true },
  { group: "core", version: "v1", kind: "Event", plural: "events", namespaced: true },
  { group: "core", version: "v1", kind: "ResourceQuota", plural: "resourcequotas", namespaced: true },
  { group: "core", version: "v1", kind: "Node", plural: "nodes", namespaced: false },
  {
    group: "core",
    version: "v1",
    kind: "PersistentVolumeClaim",
    plural: "persistentvolumeclaims",
    namespaced: true,
  },
  { group: "apps", version: "v1", kind: "Deployment", plural: "deployments", namespaced: true },
  { group: "apps", version: "v1", kind: "StatefulSet", plural: "statefulsets", namespaced: true },
  { group: "apps", version: "v1", kind: "DaemonSet", plural: "daemonsets", namespaced: true },
  { group: "apps", version: "v1", kind: "ReplicaSet", plural: "replicasets", namespaced: true },
  { group: "batch", version: "v1", kind: "Job", plural: "jobs", namespaced: true },
  { group: "batch", version: "v1", kind: "CronJob", plural: "cronjobs", namespaced: true },
  { group: "networking", version: "v1", kind: "Ingress", plural: "ingresses", namespaced: true },
  { group: "coordination", version: "v1", kind: "Lease", plural: "leases", namespaced: true },
  {
    group: "apiextensions",
    version: "v1",
    kind: "CustomResourceDefinition",
    plural: "customresourcedefinitions",
    namespaced: false,
  },
  {
    group: "admissionregistration",
    version: "v1",
    kind: "ValidatingWebhookConfiguration",
    plural: "validatingwebhookconfigurations",
    namespaced: false,
  },
  {
    group: "admissionregistration",
    version: "v1",
    kind: "MutatingWebhookConfiguration",
    plural: "mutatingwebhookconfigurations",
    namespaced: false,
  },
  { group: "rbac.authorization", version: "v1", kind: "Role", plural: "roles", namespaced: true },
  {
    group: "rbac.authorization",
    version: "v1",
    kind: "RoleBinding",
    plural: "rolebindings",
    namespaced: true,
  },
  {
    group: "rbac.authorization",
    version: "v1",
    kind: "ClusterRole",
    plural: "clusterroles",
    namespaced: false,
  },
  {
    group: "rbac.authorization",
    version: "v1",
    kind: "ClusterRoleBinding",
    plural: "clusterrolebindings",
    namespaced: false,
  },
];

/** A webhook for a built-in kind: the group/version/kind must be one the runtime has a descriptor for. */
export function checkBuiltinWebhookKind(group: string, version: string, kind: string): void {
  checkBuiltinKind(group, version, kind, "write a webhook for");
}

/** A webhook or controller for a built-in kind: one the runtime has a descriptor for, else a suggestion. */
export function checkBuiltinKind(group: string, version: string, kind: string, purpose: string): void {
  if (BUILTIN_KINDS.some((k) => k.group === group && k.version === version && k.kind === kind)) return;
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

/**
 * The kind becomes identifiers in generated TypeScript (`Memcached`, `MemcachedSpec`, `MemcachedKind`,
 * `MemcachedReconciler`...). A kind named like a global (Proxy, Promise, Map) is fine: where the kind
 * is in scope, templates name the global `globalThis.Promise` (and the runtime's Request as
 * KbtsRequest). A kind named like something else a generated file imports (`Manager`, `Result`,
 * `Condition`, `ObjectMeta`...) gives a project that does not compile: refused here, after staging,
 * by reading each staged file's imports and declarations.
 */
export function checkIdentifierCollisions(fs: StagedFS, kind: string): void {
  for (const change of fs.changes()) {
    if (!change.path.endsWith(".ts") || typeof change.content !== "string") continue;
    const sf = ts.createSourceFile(change.path, change.content, ts.ScriptTarget.Latest, false);
    const seen = new Map<string, string>();
    const add = (name: string, origin: string): void => {
      const before = seen.get(name);
      if (before !== undefined && before !== origin) {
        throw new KbtsError(
          `kind ${kind} makes ${name} both ${before} and ${origin} in ${change.path}, which does not compile`,
          { where: "--kind", fix: `choose another kind name, e.g. --kind App${kind}` },
        );
      }
      seen.set(name, origin);
    };
    for (const stmt of sf.statements) {
      if (ts.isImportDeclaration(stmt) && ts.isStringLiteral(stmt.moduleSpecifier)) {
        const from = `imported from "${stmt.moduleSpecifier.text}"`;
        const clause = stmt.importClause;
        if (clause?.name) add(clause.name.text, from);
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings))
          for (const el of bindings.elements) add(el.name.text, from);
        if (bindings && ts.isNamespaceImport(bindings)) add(bindings.name.text, from);
      } else if (
        (ts.isInterfaceDeclaration(stmt) ||
          ts.isClassDeclaration(stmt) ||
          ts.isFunctionDeclaration(stmt) ||
          ts.isTypeAliasDeclaration(stmt)) &&
        stmt.name
      ) {
        add(stmt.name.text, "declared here");
      }
    }
  }
}
