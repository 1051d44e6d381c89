import { existsSync, statSync } from "node:fs";
import { extname, isAbsolute, join, relative, resolve } from "node:path";
import { pluralize } from "../../crd/plural.js";
import { KbtsError } from "../../errors.js";
import { type GeneratedFile, generateFromCrds, readCrdFile } from "../../kinds/from-crd.js";
import { BUILTIN_KINDS, checkBuiltinKind } from "../../project/builtin-kinds.js";
import { type ProjectConfig, type Resource, sameGVK } from "../../project/config.js";
import { coreDomain, isCoreGroup, qualifiedGroup, validateDomain } from "../../project/names.js";
import { type ResourceModel, resourceModel } from "../../project/resource.js";

/**
 * Where the type of a kind the project does not own comes from, for `create api --resource=false
 * --controller`: a built-in kind (its descriptor is in @kbts/runtime, as Go's are in k8s.io/api), or
 * an external kind (Kubebuilder's --external-api-path): a CRD file whose types kbts generates into
 * api/external/<group>/<version>, a TypeScript file or folder of the project, or an npm package.
 */
export interface KindSource {
  core: boolean;
  external: boolean;
  /** PROJECT's domain of the resource (core: "" or "k8s.io"; external: --external-api-domain). */
  domain: string;
  /** The API group, "" for core. */
  qualifiedGroup: string;
  plural: string;
  namespaced: boolean;
  /** PROJECT's path: k8s.io/api/<group>/<version>, or --external-api-path as given. */
  path: string;
  /** PROJECT's module: --external-api-module (an npm dependency spec). */
  module?: string;
  /** The descriptor (`Deployment`, `CertificateKind`) and object type (`Deployment`, `Certificate`). */
  descriptor: string;
  typeName: string;
  /** Where they are imported from: the runtime, a project file (relative, .ts), or a package. */
  from: { runtime: true } | { file: string } | { specifier: string };
  /** Types to generate (from a CRD file). */
  files: GeneratedFile[];
  /** package.json dependency to add (from --external-api-module). */
  dependency?: { name: string; spec: string };
  /** What the command should tell the user. */
  notes: string[];
}

export interface ExternalFlags {
  group: string;
  version: string;
  kind: string;
  plural?: string;
  namespaced?: boolean;
  externalApiPath?: string;
  externalApiDomain?: string;
  externalApiModule?: string;
}

const CRD_FILE = /\.(ya?ml|json)$/i;
const NPM_SPECIFIER = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(\/[A-Za-z0-9._~-]+)*$/;

/**
 * The source of a kind the project does not own, or an error saying why none fits. `existing` is
 * PROJECT's entry for the group/version/kind, whose path/domain/module a re-run reuses (as Kubebuilder).
 */
export async function resolveKindSource(
  root: string,
  config: ProjectConfig,
  flags: ExternalFlags,
  existing: Resource | undefined,
): Promise<KindSource> {
  if (flags.externalApiPath !== undefined) return externalSource(root, config, flags);
  if (existing?.external && existing.path) {
    return externalSource(root, config, {
      ...flags,
      externalApiPath: existing.path,
      externalApiDomain: flags.externalApiDomain ?? existing.domain,
      externalApiModule: existing.module,
    });
  }
  if (flags.externalApiDomain !== undefined) {
    throw new KbtsError("--external-api-domain needs --external-api-path", {
      where: "--external-api-domain",
      fix: "name where the kind's types come from with --external-api-path (a CRD file, a local path or an npm package)",
    });
  }
  if (isCoreGroup(flags.group)) return builtinSource(flags);
  throw new KbtsError(
    `no API found for ${flags.group}/${flags.version}, Kind=${flags.kind} to write a controller for`,
    {
      where: "--resource=false",
      fix: `create the API first (kbts create api ... --controller=false); for another project's kind, pass --external-api-path (its CRD file, a local path or an npm package) and --external-api-domain; built-in kinds use Kubebuilder's groups (core, apps, batch, networking, rbac.authorization, ...)`,
    },
  );
}

/**
 * The model of a built-in or external kind: its group, domain, plural and scope are its owner's, and
 * in a multigroup project its controller goes to internal/controller/<group>/ (as Kubebuilder's).
 */
export function foreignModel(config: ProjectConfig, flags: ExternalFlags, source: KindSource): ResourceModel {
  const base = resourceModel(
    config,
    { ...flags, plural: source.plural, namespaced: source.namespaced },
    source.core,
  );
  return {
    ...base,
    domain: source.domain,
    qualifiedGroup: source.qualifiedGroup,
    apiVersion: source.qualifiedGroup === "" ? flags.version : `${source.qualifiedGroup}/${flags.version}`,
    groupDir: config.multigroup ? `${flags.group}/` : "",
    modulePath: source.path,
    irregularPlural: false,
  };
}

function builtinSource(flags: ExternalFlags): KindSource {
  checkBuiltinKind(flags.group, flags.version, flags.kind, "write a controller for");
  const builtin = BUILTIN_KINDS.find((k) => sameGVK(k, flags));
  if (!builtin) throw new Error("unreachable: checked above");
  const domain = coreDomain(flags.group);
  return {
    core: true,
    external: false,
    domain,
    qualifiedGroup: qualifiedGroup(flags.group, domain),
    plural: builtin.plural,
    namespaced: builtin.namespaced,
    path: `k8s.io/api/${flags.group}/${flags.version}`,
    descriptor: flags.kind,
    typeName: flags.kind,
    from: { runtime: true },
    files: [],
    notes: [],
  };
}

/**
 * Kubebuilder's --external-api-domain is the suffix after the group (`--group cert-manager
 * --external-api-domain io` is cert-manager.io). The whole API group is taken too, as many write it.
 */
function externalDomain(flags: ExternalFlags, notes: string[]): string | undefined {
  const given = flags.externalApiDomain?.trim();
  if (given === undefined || given === "") return undefined;
  if (given === flags.group || given.startsWith(`${flags.group}.`)) {
    const suffix = given === flags.group ? "" : given.slice(flags.group.length + 1);
    notes.push(
      `--external-api-domain ${given} is the whole API group; PROJECT records the domain after the group, ${JSON.stringify(suffix)}, as Kubebuilder does (--external-api-domain ${suffix || '""'})`,
    );
    return suffix;
  }
  validateDomain(given);
  return given;
}

async function externalSource(
  root: string,
  config: ProjectConfig,
  flags: ExternalFlags,
): Promise<KindSource> {
  const path = (flags.externalApiPath ?? "").trim();
  if (path === "") {
    throw new KbtsError("--external-api-path is empty", {
      where: "--external-api-path",
      fix: "give a CRD file (.yaml), a local path (./types/v1) or an npm package (@acme/types/v1)",
    });
  }
  if (path.includes("@", 1) && !CRD_FILE.test(path)) {
    throw new KbtsError(
      `--external-api-path ${path} has a version; versions belong in --external-api-module`,
      {
        where: "--external-api-path",
        fix: "e.g. --external-api-path @acme/cert-types/v1 --external-api-module @acme/cert-types@1.2.0",
      },
    );
  }
  const notes: string[] = [];
  const domainFlag = externalDomain(flags, notes);
  if (CRD_FILE.test(path)) return crdSource(root, flags, path, domainFlag, notes);
  const domain = domainFlag ?? config.domain ?? "";
  const base = {
    core: false,
    external: true,
    domain,
    qualifiedGroup: qualifiedGroup(flags.group, domain),
    plural: flags.plural ?? pluralize(flags.kind),
    namespaced: flags.namespaced ?? true,
    descriptor: `${flags.kind}Kind`,
    typeName: flags.kind,
    files: [],
    notes,
  };
  if (path.startsWith("./") || path.startsWith("../") || isAbsolute(path)) {
    if (flags.externalApiModule !== undefined) {
      throw new KbtsError(
        "--external-api-module names an npm package; a local --external-api-path needs none",
        {
          where: "--external-api-module",
          fix: "drop --external-api-module",
        },
      );
    }
    const file = localTypesFile(root, path, flags.kind);
    return { ...base, path: projectPath(root, path), from: { file } };
  }
  if (!NPM_SPECIFIER.test(path)) {
    throw new KbtsError(
      `--external-api-path ${JSON.stringify(path)} is not a CRD file, a local path or an npm package`,
      {
        where: "--external-api-path",
        fix: "give a CRD file (.yaml/.yml/.json), a local path starting with ./ or ../, or an npm package name with an optional subpath (@acme/types/v1)",
      },
    );
  }
  const name = path.startsWith("@") ? path.split("/").slice(0, 2).join("/") : (path.split("/")[0] ?? path);
  const dependency =
    flags.externalApiModule === undefined ? undefined : npmModule(flags.externalApiModule, name);
  if (!dependency) {
    notes.push(
      `Types of ${flags.kind} are imported from the npm package ${name}: add it to package.json (npm install ${name}); it must export ${flags.kind}Kind (a Kind descriptor) and the type ${flags.kind}`,
    );
  }
  return {
    ...base,
    path,
    module: flags.externalApiModule,
    from: { specifier: path },
    dependency,
  };
}

/** --external-api-module: `<package>` or `<package>@<version range>`, the package of --external-api-path. */
function npmModule(module: string, name: string): { name: string; spec: string } {
  const at = module.lastIndexOf("@");
  const pkg = at > 0 ? module.slice(0, at) : module;
  const spec = at > 0 ? module.slice(at + 1) : "*";
  if (pkg !== name || spec === "") {
    throw new KbtsError(
      `--external-api-module ${module} does not name the package of --external-api-path (${name})`,
      {
        where: "--external-api-module",
        fix: `use --external-api-module ${name}@<version>, e.g. ${name}@^1.0.0`,
      },
    );
  }
  return { name, spec };
}

/** A project path as PROJECT stores it: relative to the root, forward slashes, ./-prefixed. */
function projectPath(root: string, path: string): string {
  const rel = relative(root, resolve(root, path)).split("\\").join("/");
  if (rel.startsWith("../") || isAbsolute(rel)) {
    throw new KbtsError(`--external-api-path ${path} is outside the project`, {
      where: "--external-api-path",
      fix: "copy the types (or the CRD file) into the project, e.g. under hack/ or api/external/, and name that path",
    });
  }
  return `./${rel}`;
}

/** The TypeScript file of a local path: the file itself, or `<kind>_types.ts` / `index.ts` in a folder. */
function localTypesFile(root: string, path: string, kind: string): string {
  projectPath(root, path);
  const abs = resolve(root, path);
  const candidates =
    existsSync(abs) && statSync(abs).isDirectory()
      ? [join(abs, `${kind.toLowerCase()}_types.ts`), join(abs, "index.ts")]
      : extname(abs) === ".ts"
        ? [abs]
        : [`${abs}.ts`];
  const found = candidates.find((c) => existsSync(c));
  if (!found) {
    throw new KbtsError(`--external-api-path ${path}: no TypeScript types for ${kind} there`, {
      where: "--external-api-path",
      fix: `expected ${candidates.map((c) => relative(root, c)).join(" or ")}, exporting ${kind}Kind and the type ${kind} (kbts generate --from-crd writes such files)`,
    });
  }
  return relative(root, found).split("\\").join("/");
}

async function crdSource(
  root: string,
  flags: ExternalFlags,
  path: string,
  domainFlag: string | undefined,
  notes: string[],
): Promise<KindSource> {
  if (flags.externalApiModule !== undefined) {
    throw new KbtsError("--external-api-module names an npm package; types from a CRD file need none", {
      where: "--external-api-module",
      fix: "drop --external-api-module",
    });
  }
  const stored = projectPath(root, path);
  const crds = (await readCrdFile(resolve(root, path))).filter(
    ({ crd }) => crd.spec?.names.kind === flags.kind,
  );
  if (crds.length === 0) {
    throw new KbtsError(`${path} has no CustomResourceDefinition of kind ${flags.kind}`, {
      where: "--external-api-path",
      fix: "check --kind (spelled as the CRD's spec.names.kind), or name the CRD file of that kind",
    });
  }
  const crd = crds.find(({ crd }) => crd.spec?.group.split(".")[0] === flags.group) ?? crds[0];
  const spec = crd?.crd.spec;
  if (!crd || !spec) throw new Error("unreachable: filtered on spec");
  const derived =
    spec.group === flags.group
      ? ""
      : spec.group.startsWith(`${flags.group}.`)
        ? spec.group.slice(flags.group.length + 1)
        : undefined;
  if (derived === undefined) {
    throw new KbtsError(`--group ${flags.group} is not the group of ${path}'s ${flags.kind}, ${spec.group}`, {
      where: "--group",
      fix: `use --group ${spec.group.split(".")[0]} (with --external-api-domain ${spec.group.split(".").slice(1).join(".")})`,
    });
  }
  if (domainFlag !== undefined && domainFlag !== derived) {
    throw new KbtsError(
      `--external-api-domain ${domainFlag} makes the API group ${qualifiedGroup(flags.group, domainFlag)}, but ${path} defines ${flags.kind} in ${spec.group}`,
      { where: "--external-api-domain", fix: `use --external-api-domain ${derived}, or leave it out` },
    );
  }
  const served = spec.versions.filter((v) => v.served).map((v) => v.name);
  if (!served.includes(flags.version)) {
    throw new KbtsError(`${path}: ${spec.group} ${flags.kind} does not serve version ${flags.version}`, {
      where: "--version",
      fix: served.length > 0 ? `it serves ${served.join(", ")}` : "the CRD serves no version",
    });
  }
  const files = generateFromCrds([crd], { source: stored.slice(2) });
  const typesFile = files.find((f) =>
    f.path.endsWith(`/${flags.version}/${flags.kind.toLowerCase()}_types.ts`),
  );
  if (!typesFile) throw new Error("unreachable: the version is served");
  return {
    core: false,
    external: true,
    domain: derived,
    qualifiedGroup: spec.group,
    plural: spec.names.plural,
    namespaced: spec.scope !== "Cluster",
    path: stored,
    descriptor: `${flags.kind}Kind`,
    typeName: flags.kind,
    from: { file: typesFile.path },
    files,
    notes,
  };
}
