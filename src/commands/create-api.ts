import { basename, resolve } from "node:path";
import { pluralize } from "../crd/plural.js";
import { KbtsError } from "../errors.js";
import { DEPLOY_IMAGE_PLUGIN_KEY } from "../plugins/deployimage/index.js";
import { DEFAULT_LAYOUT, findPlugin, resolvePlugins } from "../plugins/index.js";
import type { ApiOptions, Plugin, PluginContext } from "../plugins/types.js";
import { checkRuntimeSpec, resolveDependencySpecs, VENDOR_DIR } from "../plugins/typescript/dependencies.js";
import { foreignModel, resolveKindSource } from "../plugins/typescript/kind-source.js";
import { boilerplate } from "../plugins/typescript/plugin.js";
import { apiVersionsOf, storageVersionsOf } from "../plugins/typescript/storage-version.js";
import {
  findResource,
  formatProject,
  PROJECT_FILE,
  type ProjectConfig,
  parseProject,
  type Resource,
  sameGVK,
} from "../project/config.js";
import {
  controllerFileName,
  controllerIdentity,
  controllerNames,
  reconcilerName,
  validateControllerName,
} from "../project/controllers.js";
import {
  qualifiedGroup,
  validateDomain,
  validateGroup,
  validateKind,
  validatePlural,
  validateProjectName,
  validateVersion,
} from "../project/names.js";
import {
  isCoreResource,
  type ResourceFlags,
  type ResourceModel,
  resourceModel,
} from "../project/resource.js";
import {
  checkBuiltinWebhookKind,
  checkIdentifierCollisions,
  checkProjectValues,
  checkResourceNames,
  refuseBuiltinGroup,
} from "../project/validate.js";
import { checkHeaderIsComment, validateOwner, validateRepo } from "../scaffold/encode.js";
import { formatStaged } from "../scaffold/format.js";
import { removeStaleTemps, StagedFS } from "../scaffold/fs.js";
import { dependenciesInstalled, INSTALL_COMMAND, runProjectMake } from "../scaffold/install.js";
import { Scaffold } from "../scaffold/scaffold.js";
import { Renderer } from "../scaffold/template.js";
import { kbtsVersion } from "../version.js";

/**
 * The library behind `kbts init`, `kbts create api` and `kbts create webhook`: validate every input,
 * run the plugin chain against a staged tree, write PROJECT, then flush once. Any error before the
 * flush leaves the directory untouched; an error during it restores what was there.
 */

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
function flush(fs: StagedFS): string[] {
  formatStaged(fs);
  return fs.flush();
}

function header(text: string | undefined, year: string): string {
  return (text ?? "").trimEnd().replace(/\bYEAR\b/g, year);
}

export interface InitFlags {
  domain?: string;
  repo?: string;
  projectName?: string;
  owner?: string;
  license?: string;
  /** --license-file's content: the license header, used as it is instead of --license/--owner. */
  licenseText?: string;
  /** Where licenseText came from, for its error. */
  licenseFile?: string;
  multigroup?: boolean;
  namespaced?: boolean;
  plugins?: string[];
  runtime?: string;
}

export async function runInit(dir: string, flags: InitFlags): Promise<ScaffoldResult> {
  const root = resolve(dir);
  const domain = flags.domain ?? "my.domain";
  validateDomain(domain);
  const projectName = flags.projectName ?? basename(root).toLowerCase();
  validateProjectName(projectName);
  const license = flags.license ?? "apache2";
  if (license !== "apache2" && license !== "none") {
    throw new KbtsError(`unknown license ${JSON.stringify(license)}`, {
      where: "--license",
      fix: "use apache2 or none",
    });
  }
  let plugins = flags.plugins?.length ? resolvePlugins(flags.plugins) : DEFAULT_LAYOUT.map(findPlugin);
  // Only add-on plugins named (e.g. --plugins helm/v2-alpha): the base layout scaffolds the project first.
  if (plugins.some((p) => p.init) && !plugins.some((p) => p.createApi)) {
    plugins = [...DEFAULT_LAYOUT.map(findPlugin), ...plugins];
  }
  if (!plugins.some((p) => p.init)) {
    throw new KbtsError("none of the selected plugins can initialize a project", {
      where: "--plugins",
      fix: `include the base plugin, e.g. --plugins ${DEFAULT_LAYOUT.join(",")}`,
    });
  }
  if (flags.owner !== undefined) validateOwner(flags.owner);
  if (flags.repo !== undefined) validateRepo(flags.repo);
  if (flags.licenseText !== undefined && flags.licenseText.trim() !== "") {
    checkHeaderIsComment(flags.licenseText, flags.licenseFile ?? "--license-file");
  }
  checkRuntimeSpec(flags.runtime);
  removeStaleTemps(root);
  const fs = new StagedFS(root);
  for (const marker of [PROJECT_FILE, "Makefile", "cmd/main.ts"]) {
    if (fs.exists(marker)) {
      throw new KbtsError(`target directory is already initialized: ${marker} exists`, {
        where: marker,
        fix: "run kbts init in an empty directory, or use kbts create api in this project",
      });
    }
  }

  const year = scaffoldYear();
  const specs = resolveDependencySpecs(flags.runtime);
  const options = {
    domain,
    repo: flags.repo ?? projectName,
    projectName,
    owner: flags.owner,
    license: license as "apache2" | "none",
    licenseText: flags.licenseText,
    multigroup: flags.multigroup === true,
    namespaced: flags.namespaced === true,
    year,
    runtimeSpec: specs.runtimeSpec,
    kbtsSpec: specs.kbtsSpec,
    vendorDir: specs.vendored.length > 0 ? VENDOR_DIR : undefined,
  };
  const config: ProjectConfig = {
    version: "3",
    cliVersion: kbtsVersion(),
    domain,
    layout: plugins.map((p) => p.key),
    multigroup: options.multigroup || undefined,
    namespaced: options.namespaced || undefined,
    projectName,
    repo: options.repo,
  };
  const ctx: PluginContext = {
    scaffold: new Scaffold(fs, new Renderer(), header(boilerplate(options), year)),
    config,
  };
  for (const plugin of plugins) await plugin.init?.(ctx, options);
  for (const file of specs.vendored) fs.write(file.path, file.content);
  fs.write(PROJECT_FILE, formatProject(config));
  return {
    written: flush(fs),
    kept: ctx.scaffold.kept,
    next: `${options.namespaced ? `${NAMESPACED_WEBHOOK_WARNING}\n` : ""}Next: define a resource with:\n$ kbts create api`,
  };
}

/** Admission and conversion webhooks are cluster-wide API server configuration: WATCH_NAMESPACE does not limit them. */
export const NAMESPACED_WEBHOOK_WARNING =
  "Warning: a namespaced operator's webhooks stay cluster-scoped: the API server calls them for objects in every namespace (narrow them with a namespaceSelector in config/webhook if needed).";

export function loadProject(fs: StagedFS): ProjectConfig {
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
function pluginChain(config: ProjectConfig, requested: string[] | undefined): Plugin[] {
  if (requested?.length) return resolvePlugins(requested);
  return (config.layout?.length ? config.layout : DEFAULT_LAYOUT).map(findPlugin);
}

function validateResourceFlags(flags: ResourceFlags): void {
  validateGroup(flags.group);
  validateVersion(flags.version);
  validateKind(flags.kind);
  if (flags.plural !== undefined) validatePlural(flags.plural);
}

const BOILERPLATE = "hack/boilerplate.ts.txt";

function projectScaffold(fs: StagedFS, config: ProjectConfig): PluginContext {
  const text = fs.read(BOILERPLATE);
  if (text !== undefined) checkHeaderIsComment(text, BOILERPLATE);
  return {
    scaffold: new Scaffold(fs, new Renderer(), header(text, scaffoldYear())),
    config,
  };
}

export interface CreateApiFlags extends ResourceFlags {
  resource?: boolean;
  controller?: boolean;
  force?: boolean;
  plugins?: string[];
  /** Kubebuilder's external-type flags: where the kind's types come from, its domain, its package. */
  externalApiPath?: string;
  externalApiDomain?: string;
  externalApiModule?: string;
  /** --controller-name: another controller for the kind, with its own file and reconciler. */
  controllerName?: string;
  /** deploy-image/v1-alpha's flags (Kubebuilder's names): the image and how its container runs. */
  image?: string;
  imageContainerCommand?: string;
  imageContainerPort?: string;
  runAsUser?: string;
  /** deploy-image/v1-alpha: run `make manifests` afterwards (default true, when the dependencies are installed). */
  manifests?: boolean;
}

export async function runCreateApi(dir: string, flags: CreateApiFlags): Promise<ScaffoldResult> {
  const fs = new StagedFS(resolve(dir));
  const config = loadProject(fs);
  validateResourceFlags(flags);
  const options: ApiOptions = {
    resource: flags.resource ?? true,
    controller: flags.controller ?? true,
    force: flags.force ?? false,
  };
  const externalFlag = (
    [
      ["--external-api-path", flags.externalApiPath],
      ["--external-api-domain", flags.externalApiDomain],
      ["--external-api-module", flags.externalApiModule],
    ] as const
  ).find(([, v]) => v !== undefined)?.[0];
  if (options.resource && externalFlag) {
    throw new KbtsError(
      `${externalFlag} is for a kind defined outside the project; it cannot be used with --resource=true`,
      {
        where: externalFlag,
        fix: "add --resource=false --controller to scaffold a controller for the external kind",
      },
    );
  }
  if (flags.externalApiModule !== undefined && flags.externalApiPath === undefined) {
    throw new KbtsError("--external-api-module requires --external-api-path", {
      where: "--external-api-module",
      fix: "name the import path of the kind's types with --external-api-path",
    });
  }
  if (flags.controllerName !== undefined && !options.controller) {
    throw new KbtsError("--controller-name names a controller, but --controller=false scaffolds none", {
      where: "--controller-name",
      fix: "drop --controller=false, or drop --controller-name",
    });
  }
  if (options.resource) refuseBuiltinGroup(flags.group, flags.kind, config.domain ?? "");
  if (!options.resource && !options.controller) {
    throw new KbtsError("nothing to create: both --resource=false and --controller=false", {
      where: "--resource, --controller",
      fix: "drop one of them",
    });
  }
  const chain = pluginChain(config, flags.plugins);
  if (!chain.some((p) => p.createApi)) {
    throw new KbtsError("none of the project's plugins can create an API", { where: "--plugins" });
  }
  const deployImage = chain.some((p) => p.key === DEPLOY_IMAGE_PLUGIN_KEY);
  const imageFlag = (
    [
      ["--image", flags.image],
      ["--image-container-command", flags.imageContainerCommand],
      ["--image-container-port", flags.imageContainerPort],
      ["--run-as-user", flags.runAsUser],
      ["--manifests", flags.manifests],
    ] as const
  ).find(([, v]) => v !== undefined)?.[0];
  if (imageFlag && !deployImage) {
    throw new KbtsError(`${imageFlag} is a flag of the deploy-image/v1-alpha plugin`, {
      where: imageFlag,
      fix: "add --plugins deploy-image/v1-alpha to scaffold a controller that deploys the image",
    });
  }
  if (deployImage && (!options.resource || !options.controller)) {
    // As Kubebuilder's, which always scaffolds both (it does not take --resource and --controller).
    throw new KbtsError("deploy-image/v1-alpha scaffolds both the API and its controller", {
      where: "--resource, --controller",
      fix: "drop --resource=false / --controller=false",
    });
  }
  if (deployImage && imageFlag !== undefined && imageFlag !== "--manifests") {
    options.image = {
      image: flags.image ?? "",
      command: flags.imageContainerCommand,
      port: flags.imageContainerPort,
      runAsUser: flags.runAsUser,
    };
  }
  const others = (config.resources ?? []).filter((r) => !r.core && !r.external && r.group !== flags.group);
  if (!config.multigroup && others.length > 0 && options.resource) {
    throw new KbtsError(
      `multiple groups are not allowed by default (the project already has group ${JSON.stringify(others[0]?.group)})`,
      {
        where: "--group",
        fix: "set `multigroup: true` in PROJECT (and move api/<version> to api/<group>/<version>), or init with --multigroup",
      },
    );
  }
  const existing = findResource(config, flags);
  if (flags.controllerName !== undefined) {
    options.controllerName = checkControllerName(flags, existing);
  } else if (options.controller && !options.resource && existing?.controllers?.length) {
    throw new KbtsError(
      `${flags.kind} already has named controllers (${controllerNames(existing).join(", ")})`,
      {
        where: "--controller-name",
        fix: "name the new controller with --controller-name, or pass --controller=false",
      },
    );
  }
  const legacyTaken = existing?.controller || (existing?.controllers?.length ?? 0) > 0;
  if (
    !options.force &&
    ((options.resource && existing?.api) ||
      (options.controller && options.controllerName === undefined && legacyTaken))
  ) {
    throw new KbtsError(`API resource already exists: ${flags.group}/${flags.version}, Kind=${flags.kind}`, {
      where: PROJECT_FILE,
      fix:
        options.controller && legacyTaken && !(options.resource && existing?.api)
          ? "pass --controller-name <name> to add another controller for the kind, or --force to re-scaffold its files (your edits to them are overwritten)"
          : "pass --force to re-scaffold its files (your edits to them are overwritten)",
    });
  }
  if (options.controller && !fs.exists("cmd/main.ts")) {
    throw new KbtsError("cmd/main.ts is missing; the controller could not be registered", {
      where: "cmd/main.ts",
      fix: "restore cmd/main.ts (it holds the // +kubebuilder:scaffold insertion points)",
    });
  }
  if (!options.resource && !existing?.api) {
    // A controller for a kind the project does not own: built-in, or external (--external-api-path).
    options.source = await resolveKindSource(fs.root, config, flags, existing);
  }
  const model = options.source
    ? foreignModel(config, flags, options.source)
    : resourceModel(config, { ...flags, plural: flags.plural ?? existing?.plural });
  checkResourceNames(model);
  if (!options.source) refusePluralTaken(config, model);
  const ctx = projectScaffold(fs, config);
  for (const plugin of chain) await plugin.createApi?.(ctx, model, options);
  checkIdentifierCollisions(fs, model.kind);
  fs.write(PROJECT_FILE, formatProject(config));
  if (options.source) return { written: flush(fs), next: foreignNext(fs, model, options) };
  if (deployImage) {
    const written = flush(fs);
    // As Kubebuilder's deploy-image (--manifests, default true): the CRD and RBAC follow the new types.
    const ran = flags.manifests !== false && dependenciesInstalled(fs.root);
    if (ran) await runProjectMake(fs.root, "manifests");
    const install = dependenciesInstalled(fs.root) ? [] : [`$ ${INSTALL_COMMAND}`];
    const next = ran
      ? "Next: check the implementation of your new API and controller. If you do changes in the API run the manifests with:\n$ make manifests"
      : [
          "Next: check the implementation of your new API and controller, then generate the manifests with:",
          ...install,
          "$ make manifests",
        ].join("\n");
    return { written, next };
  }
  const next = dependenciesInstalled(fs.root)
    ? "Next: implement your new API and generate the manifests (e.g. CRDs, CRs) with:\n$ make manifests"
    : `Next: install the dependencies, implement your new API and generate the manifests (e.g. CRDs, CRs) with:\n$ ${INSTALL_COMMAND}\n$ make manifests`;
  return { written: flush(fs), next: [next, ...versionsNext(fs, config, model)].join("\n") };
}

/**
 * --controller-name, checked as Kubebuilder checks it: a DNS-1035 label, not a name the kind's
 * controllers have, nor one that makes the same reconciler class (--controller=false is refused earlier).
 */
function checkControllerName(flags: CreateApiFlags, existing: Resource | undefined): string {
  const name = (flags.controllerName ?? "").trim();
  validateControllerName(name);
  const taken = existing ? controllerNames(existing) : [];
  const gvk = `${flags.group}/${flags.version}, Kind=${flags.kind}`;
  if (taken.includes(name)) {
    throw new KbtsError(`controller ${JSON.stringify(name)} already exists for ${gvk}`, {
      where: "--controller-name",
      fix: `choose another name (the kind's controllers: ${taken.join(", ")})`,
    });
  }
  const same = taken.find((t) => controllerIdentity(t) === controllerIdentity(name));
  if (same !== undefined) {
    throw new KbtsError(
      `controller name ${JSON.stringify(name)} conflicts with ${JSON.stringify(same)}: both normalize to ${JSON.stringify(controllerIdentity(name))}, so their reconciler classes would clash (${reconcilerName(name, flags.kind)}, ${reconcilerName(same, flags.kind)})`,
      { where: "--controller-name", fix: "choose a name that differs from it in more than '-'" },
    );
  }
  return name;
}

function foreignNext(fs: StagedFS, model: ResourceModel, options: ApiOptions): string {
  const source = options.source;
  if (!source) throw new Error("unreachable: a foreign kind has a source");
  const install = dependenciesInstalled(fs.root) && !source.dependency ? [] : [`$ ${INSTALL_COMMAND}`];
  const file = controllerFileName(options.controllerName, model.kind);
  return [
    ...source.notes,
    `Next: implement the reconciler of ${model.kind} (${model.apiVersion}) in internal/controller/${model.groupDir}${file}_controller.ts, then generate the RBAC with:`,
    ...install,
    "$ make manifests",
  ].join("\n");
}

/**
 * A kind with several versions: which one is stored, and how to convert between them (a conversion
 * webhook, the hub stored), unless one is set up already.
 */
function versionsNext(fs: StagedFS, config: ProjectConfig, r: ResourceModel): string[] {
  const versions = apiVersionsOf(config, r);
  if (
    versions.length < 2 ||
    config.resources?.some((x) => x.kind === r.kind && x.group === r.group && x.webhooks?.conversion)
  ) {
    return [];
  }
  const stored = storageVersionsOf(fs, config, r);
  return [
    `${r.kind} now has versions ${versions.join(", ")}${stored.length === 1 ? ` (${stored[0]} is the storage version)` : ""}. To convert between them, pick a hub and run:`,
    `$ kbts create webhook --group ${r.group} --version <hub> --kind ${r.kind} --conversion --spoke <the other versions>`,
  ];
}

export interface CreateWebhookFlags extends ResourceFlags {
  defaulting?: boolean;
  programmaticValidation?: boolean;
  /** A conversion webhook with --version as the hub and `spoke` as the other versions. */
  conversion?: boolean;
  spoke?: string[];
  /** Kubebuilder's --defaulting-path/--validation-path: the webhooks' paths instead of the generated ones. */
  defaultingPath?: string;
  validationPath?: string;
  /** A kind defined outside the project, as create api's --external-api-* (PROJECT's entry is reused). */
  externalApiPath?: string;
  externalApiDomain?: string;
  externalApiModule?: string;
  force?: boolean;
  plugins?: string[];
}

export async function runCreateWebhook(dir: string, flags: CreateWebhookFlags): Promise<ScaffoldResult> {
  const fs = new StagedFS(resolve(dir));
  const config = loadProject(fs);
  if (flags.group !== "core") validateGroup(flags.group);
  validateVersion(flags.version);
  validateKind(flags.kind);
  if (flags.plural !== undefined) validatePlural(flags.plural);
  if (flags.spoke?.length && !flags.conversion) {
    throw new KbtsError("--spoke names the versions of a conversion webhook", {
      where: "--spoke",
      fix: "add --conversion (the version of --version is the hub)",
    });
  }
  if (!flags.defaulting && !flags.programmaticValidation && !flags.conversion) {
    throw new KbtsError(
      "create webhook requires at least one of --defaulting, --programmatic-validation and --conversion",
      {
        where: "--defaulting, --programmatic-validation, --conversion",
        fix: "e.g. kbts create webhook --group cache --version v1alpha1 --kind Memcached --programmatic-validation",
      },
    );
  }
  checkWebhookPaths(config, flags);
  if (flags.externalApiModule !== undefined && flags.externalApiPath === undefined) {
    throw new KbtsError("--external-api-module requires --external-api-path", {
      where: "--external-api-module",
      fix: "name the import path of the kind's types with --external-api-path",
    });
  }
  const chain = pluginChain(config, flags.plugins);
  const existing = findResource(config, flags);
  const externalFlag = (
    [
      ["--external-api-path", flags.externalApiPath],
      ["--external-api-domain", flags.externalApiDomain],
    ] as const
  ).find(([, v]) => v !== undefined)?.[0];
  if (externalFlag && existing?.api) {
    throw new KbtsError(
      `${externalFlag} is for a kind defined outside the project; ${flags.kind} is the project's own`,
      {
        where: externalFlag,
        fix: `drop ${externalFlag}`,
      },
    );
  }
  const external =
    !existing?.api &&
    (flags.externalApiPath !== undefined ||
      flags.externalApiDomain !== undefined ||
      existing?.external === true);
  if (external && flags.conversion) {
    throw new KbtsError(
      `${flags.kind} is an external kind: conversion webhooks are for the project's own kinds`,
      {
        where: "--conversion",
        fix: "drop --conversion; the kind's owner converts its versions",
      },
    );
  }
  const source = external ? await resolveKindSource(fs.root, config, flags, existing) : undefined;
  const core = !source && isCoreResource(config, flags);
  if (core && flags.conversion) {
    throw new KbtsError(
      `${flags.kind} is a built-in kind: conversion webhooks are for the project's own kinds`,
      {
        where: "--conversion",
        fix: "drop --conversion, or name a kind created with kbts create api",
      },
    );
  }
  if (core) checkBuiltinWebhookKind(flags.group, flags.version, flags.kind);
  if (!core && !source && !existing?.api) {
    throw new KbtsError(`no API found for ${flags.group}/${flags.version}, Kind=${flags.kind}`, {
      where: PROJECT_FILE,
      fix: "run 'kbts create api' first, or pass --external-api-path for a kind defined outside the project",
    });
  }
  const force = flags.force ?? false;
  const had = existing?.webhooks ?? {};
  const spokes = flags.conversion ? conversionSpokes(config, flags, had) : [];
  const clash =
    (flags.defaulting && had.defaulting) ||
    (flags.programmaticValidation && had.validation) ||
    (flags.conversion && had.conversion);
  if (clash && !force) {
    throw new KbtsError(`webhook already exists for ${flags.group}/${flags.version}, Kind=${flags.kind}`, {
      where: PROJECT_FILE,
      fix: flags.conversion
        ? "pass --force to re-scaffold the conversion files with the spokes given and those in PROJECT (your edits to them are overwritten)"
        : "pass --force to re-scaffold the webhook file",
    });
  }
  const admission = Boolean(flags.defaulting || flags.programmaticValidation);
  if (admission && (had.defaulting || had.validation) && !force) {
    throw new KbtsError(
      `a webhook file already exists for ${flags.kind}; adding another webhook type rewrites it`,
      {
        where: "--force",
        fix: "pass --force (your edits to the webhook file are overwritten), or add the handler by hand",
      },
    );
  }
  const namespaced = existing?.api?.namespaced ?? (core ? true : undefined);
  const model: ResourceModel = source
    ? foreignModel(config, flags, source)
    : resourceModel(
        config,
        { ...flags, plural: flags.plural ?? existing?.plural, namespaced: namespaced ?? false },
        core,
      );
  if (!fs.exists("cmd/main.ts")) {
    throw new KbtsError("cmd/main.ts is missing; the webhook could not be registered", {
      where: "cmd/main.ts",
    });
  }
  const options = {
    defaulting: admission && Boolean(flags.defaulting || had.defaulting),
    validation: admission && Boolean(flags.programmaticValidation || had.validation),
    conversion: flags.conversion === true,
    spokes,
    force,
    // A later run that adds a webhook type keeps the paths PROJECT has (the file is rewritten whole).
    defaultingPath: flags.defaultingPath ?? had.defaultingPath,
    validationPath: flags.validationPath ?? had.validationPath,
    source,
  };
  if (options.defaultingPath !== undefined && options.defaultingPath === options.validationPath) {
    throw new KbtsError(`the defaulting and validating webhooks would both be at ${options.defaultingPath}`, {
      where: flags.validationPath !== undefined ? "--validation-path" : "--defaulting-path",
      fix: "give the defaulting and the validating webhook different paths",
    });
  }
  const storedBefore = flags.conversion ? storageVersionsOf(fs, config, model) : [];
  const ctx = projectScaffold(fs, config);
  for (const plugin of chain) await plugin.createWebhook?.(ctx, model, options);
  checkIdentifierCollisions(fs, model.kind);
  fs.write(PROJECT_FILE, formatProject(config));
  const next = flags.conversion
    ? conversionNext(model, spokes, storedBefore)
    : "Next: implement your new Webhook and generate the manifests with:\n$ make manifests";
  return { written: flush(fs), next };
}

/** controller-runtime's rule for a webhook's custom path (builder.generateCustomPath). */
const WEBHOOK_PATH = /^((\/[a-zA-Z0-9_-]+)+|\/)$/;

/**
 * --defaulting-path and --validation-path: each only with its webhook type (as Kubebuilder), a path
 * the webhook server accepts, not /convert (conversion is served there), not the same for both, and
 * not a path another kind's webhook already has.
 */
function checkWebhookPaths(config: ProjectConfig, flags: CreateWebhookFlags): void {
  const given = [
    ["--defaulting-path", flags.defaultingPath, flags.defaulting, "--defaulting"],
    ["--validation-path", flags.validationPath, flags.programmaticValidation, "--programmatic-validation"],
  ] as const;
  for (const [flag, path, enabled, needs] of given) {
    if (path === undefined) continue;
    if (!enabled) {
      throw new KbtsError(`${flag} can only be used with ${needs}`, {
        where: flag,
        fix: `add ${needs}, or drop ${flag}`,
      });
    }
    if (!WEBHOOK_PATH.test(path)) {
      throw new KbtsError(`${flag} ${JSON.stringify(path)} is not a webhook path`, {
        where: flag,
        fix: "start it with / and use only letters, digits, '-' and '_' between slashes (e.g. /my-custom-mutate-path), as controller-runtime requires",
      });
    }
    if (path === "/convert") {
      throw new KbtsError(`${flag} /convert is where the webhook server serves conversion`, {
        where: flag,
        fix: "choose another path",
      });
    }
    const other = (config.resources ?? []).find(
      (r) =>
        !sameGVK(r, flags) && (r.webhooks?.defaultingPath === path || r.webhooks?.validationPath === path),
    );
    if (other) {
      throw new KbtsError(
        `${flag} ${path} is already the path of a webhook of ${other.group}/${other.version}, Kind=${other.kind}`,
        { where: flag, fix: "give each webhook its own path" },
      );
    }
  }
  if (flags.defaultingPath !== undefined && flags.defaultingPath === flags.validationPath) {
    throw new KbtsError(`--defaulting-path and --validation-path are both ${flags.defaultingPath}`, {
      where: "--validation-path",
      fix: "give the defaulting and the validating webhook different paths",
    });
  }
}

/**
 * The spokes of a conversion webhook: --spoke plus those PROJECT already lists for the hub (a re-run
 * with --force adds spokes). Each must be another version of the same kind with API types in PROJECT.
 */
function conversionSpokes(
  config: ProjectConfig,
  flags: CreateWebhookFlags,
  had: { spoke?: string[] },
): string[] {
  const given = flags.spoke ?? [];
  const versions = (config.resources ?? [])
    .filter((r) => r.api && !r.core && r.group === flags.group && r.kind === flags.kind)
    .map((r) => r.version);
  const others = versions.filter((v) => v !== flags.version);
  const known = others.length > 0 ? `the other versions of ${flags.kind} are ${others.join(", ")}` : "";
  const seen = new Set<string>();
  for (const spoke of given) {
    validateVersion(spoke, "--spoke");
    if (spoke === flags.version) {
      throw new KbtsError(
        `spoke ${spoke} is the hub (--version ${flags.version}); a version cannot convert to itself`,
        {
          where: "--spoke",
          fix: known
            ? `name the other versions: ${known}`
            : "create another version first: kbts create api --version <v>",
        },
      );
    }
    if (!versions.includes(spoke)) {
      throw new KbtsError(
        `invalid spoke version ${JSON.stringify(spoke)}: PROJECT has no ${flags.group}/${spoke} ${flags.kind}`,
        {
          where: "--spoke",
          fix: known
            ? `${known}; create ${spoke} first with kbts create api --group ${flags.group} --version ${spoke} --kind ${flags.kind} --controller=false`
            : `create it first: kbts create api --group ${flags.group} --version ${spoke} --kind ${flags.kind} --controller=false`,
        },
      );
    }
    if (seen.has(spoke)) {
      throw new KbtsError(`duplicate spoke version: ${spoke}`, {
        where: "--spoke",
        fix: "name each version once",
      });
    }
    seen.add(spoke);
  }
  const spokes = [...(had.spoke ?? []), ...given.filter((v) => !had.spoke?.includes(v))];
  if (spokes.length === 0) {
    throw new KbtsError(
      `a conversion webhook needs at least one spoke version besides the hub ${flags.version}`,
      {
        where: "--spoke",
        fix: known
          ? `e.g. --spoke ${others.join(",")} (${known})`
          : `create another version of ${flags.kind} first with kbts create api`,
      },
    );
  }
  const otherHub = (config.resources ?? []).find(
    (r) =>
      !r.core &&
      r.group === flags.group &&
      r.kind === flags.kind &&
      r.version !== flags.version &&
      r.webhooks?.conversion,
  );
  if (otherHub) {
    throw new KbtsError(
      `${flags.kind} already has a conversion hub: ${otherHub.version}; a kind has one hub`,
      {
        where: "--version",
        fix: `add spokes to it with --version ${otherHub.version} --conversion --spoke <versions> --force`,
      },
    );
  }
  return spokes;
}

/** What to do after `create webhook --conversion`: implement the stubs; migrate when the storage version moved. */
function conversionNext(r: ResourceModel, spokes: string[], storedBefore: string[]): string {
  const files = spokes.map((v) => `api/${r.groupDir}${v}/${r.kindLower}_conversion.ts`).join(", ");
  const lines = [
    `Next: implement the conversion functions (each TODO(user)) in ${files}, then generate the manifests and run the round-trip tests with:`,
    "$ make manifests test",
  ];
  const before = storedBefore.filter((v) => v !== r.version);
  if (before.length > 0) {
    const crd = `${r.plural}.${r.qualifiedGroup}`;
    lines.push(
      `The storage version of ${crd} changes from ${before.join(", ")} to ${r.version} (the hub). Objects a cluster stored as ${before.join(", ")} stay so in etcd until rewritten:`,
      `once the new CRD is installed and the operator serves /convert (make deploy), migrate them with`,
      "$ make migrate-storage",
      `It rewrites every ${r.kind} in ${r.version} and leaves status.storedVersions [${r.version}], so ${before.join(", ")} can later stop being served and be removed.`,
    );
  }
  return lines.join("\n");
}

/** Two kinds of one group with the same plural would share one CRD name: the second would get no CRD. */
function refusePluralTaken(config: ProjectConfig, model: ResourceModel): void {
  const taken = (config.resources ?? []).find(
    (r) =>
      !r.core &&
      r.kind !== model.kind &&
      qualifiedGroup(r.group, r.domain ?? config.domain ?? "") === model.qualifiedGroup &&
      (r.plural ?? pluralize(r.kind)) === model.plural,
  );
  if (taken) {
    throw new KbtsError(
      `plural ${JSON.stringify(model.plural)} is already the resource name of kind ${taken.kind} in group ${model.qualifiedGroup}`,
      {
        where: "--plural",
        fix: "give this kind another --plural (each kind of a group needs its own resource name)",
      },
    );
  }
}
