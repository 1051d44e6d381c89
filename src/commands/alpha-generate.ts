/**
 * `kbts alpha generate`: re-scaffolds a project from its PROJECT file with this kbts' templates, as
 * Kubebuilder's `alpha generate` does, to move a project to newer templates. It replays init (with
 * the project's own license header and runtime source), then create api for every kind (APIs first,
 * then controllers of kinds without an API of theirs), then create webhook, with the flags PROJECT
 * recorded. The user's code is not carried over: they merge it from the old tree.
 *
 * Kubebuilder cleans the project directory (all but .git) before it re-scaffolds in place. kbts
 * builds the new tree aside first and moves it in only when every step worked, and it re-scaffolds
 * in place, or into a non-empty --output-dir, only with --force.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { compareStrings } from "../compare.js";
import { KbtsError } from "../errors.js";
import { AUTOUPDATE_PLUGIN_KEY } from "../plugins/autoupdate/index.js";
import {
  DEPLOY_IMAGE_PLUGIN_KEY,
  deployImageResources,
  recordedImageOptions,
} from "../plugins/deployimage/record.js";
import { GPU_BUDGET_PLUGIN_KEY } from "../plugins/gpu-budget/index.js";
import { CUSTOM_METRICS_CONFIG, GRAFANA_PLUGIN_KEY } from "../plugins/grafana/index.js";
import { HELM_PLUGIN_KEY } from "../plugins/helm/index.js";
import { boilerplate } from "../plugins/typescript/plugin.js";
import {
  findResource,
  PROJECT_FILE,
  type ProjectConfig,
  parseProject,
  type Resource,
  sameGVK,
} from "../project/config.js";
import { runCreateApi } from "./create-api.js";
import { runCreateWebhook } from "./create-webhook.js";
import { runEdit } from "./edit.js";
import { type InitFlags, runInit } from "./init.js";

export interface AlphaGenerateFlags {
  /** The project whose PROJECT (and license header) is read; default: the current directory. */
  inputDir?: string;
  /** Where the new tree goes; default: the input directory itself (then --force is needed). */
  outputDir?: string;
  force?: boolean;
  /** init's --runtime for the new tree; default: what the input's package.json uses. */
  runtime?: string;
}

export interface AlphaGenerateResult {
  written: string[];
  next: string;
}

const BOILERPLATE = "hack/boilerplate.ts.txt";

export async function runAlphaGenerate(cwd: string, flags: AlphaGenerateFlags): Promise<AlphaGenerateResult> {
  const input = resolve(cwd, flags.inputDir ?? ".");
  const projectPath = join(input, PROJECT_FILE);
  if (!existsSync(projectPath)) {
    throw new KbtsError(`${projectPath} not found`, {
      where: flags.inputDir === undefined ? "kbts alpha generate" : "--input-dir",
      fix: "run it in a kbts project, or pass --input-dir with the directory that holds PROJECT",
    });
  }
  const config = parseProject(readFileSync(projectPath, "utf8"), projectPath);
  const output = resolve(cwd, flags.outputDir ?? input);
  const inPlace = output === input;
  if (inPlace && !flags.force) {
    throw new KbtsError("re-scaffolding in place replaces every file of the project but .git", {
      where: flags.outputDir === undefined ? "kbts alpha generate" : "--output-dir",
      fix: "pass --output-dir DIR to write the new scaffold beside it and merge your code by hand, or --force to replace the project (commit it first)",
    });
  }
  if (!inPlace && existsSync(output) && readdirSync(output).length > 0 && !flags.force) {
    throw new KbtsError(`${output} is not empty`, {
      where: "--output-dir",
      fix: "give an empty or new directory, or pass --force to replace what is in it (but .git)",
    });
  }
  mkdirSync(dirname(output), { recursive: true });
  // Aside on the same file system as the output, so moving it in is a rename.
  const aside = mkdtempSync(join(dirname(output), ".kbts-generate-"));
  try {
    const notes = await replay(input, aside, config, flags.runtime ?? runtimeOf(input));
    const written = readdirSync(aside, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(aside, join(e.parentPath, e.name)))
      .sort(compareStrings);
    mkdirSync(output, { recursive: true });
    for (const entry of readdirSync(output)) {
      if (entry !== ".git") rmSync(join(output, entry), { recursive: true, force: true });
    }
    for (const entry of readdirSync(aside)) renameSync(join(aside, entry), join(output, entry));
    const where = relative(cwd, output) || ".";
    return {
      written,
      next: [
        `Re-scaffolded ${where} from ${relative(cwd, projectPath) || PROJECT_FILE} with kbts' current templates.`,
        inPlace
          ? "Your code was replaced: bring it back from version control (e.g. git diff, git checkout -p), then:"
          : `Merge your code into it (e.g. git diff --no-index ${relative(cwd, input) || "."} ${where}), then:`,
        "$ npm install && make manifests generate && make test",
        ...notes,
      ].join("\n"),
    };
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
}

/** init's --runtime as the input project's package.json has it: vendored, linked or from a registry. */
function runtimeOf(input: string): string | undefined {
  let spec: string | undefined;
  try {
    const pkg = JSON.parse(readFileSync(join(input, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    spec = pkg.dependencies?.["@kbts/runtime"];
  } catch {
    return undefined;
  }
  if (spec === undefined) return undefined;
  if (spec.startsWith("file:vendor/")) return "vendor";
  if (spec.startsWith("file:") || spec.startsWith("link:")) return "link";
  return "registry";
}

/**
 * init's license flags that give back the project's header: --license none when it has none,
 * apache2 with the owner init put in it, else the header itself (--license-file).
 */
function licenseOf(path: string): Pick<InitFlags, "license" | "owner" | "licenseText" | "licenseFile"> {
  if (!existsSync(path)) return { license: "none" };
  const text = readFileSync(path, "utf8");
  const owner = /^Copyright YEAR (.+)\.$/m.exec(text)?.[1];
  for (const candidate of [owner, undefined]) {
    if (text.trimEnd() === boilerplate({ license: "apache2", owner: candidate })) {
      return { license: "apache2", owner: candidate };
    }
  }
  return { licenseText: text, licenseFile: path };
}

/** The plugin keys that scaffolded a kind, beyond the project's layout (e.g. gpu-budget/v1-alpha). */
function kindPlugins(config: ProjectConfig, r: Resource): string[] {
  const keys: string[] = [];
  for (const [key, value] of Object.entries(config.plugins ?? {})) {
    const resources = (value as { resources?: Resource[] } | undefined)?.resources ?? [];
    if (resources.some((e) => sameGVK(e, r))) keys.push(key);
  }
  return keys;
}

/** create api's and create webhook's --external-api-* flags for an external kind, as PROJECT has them. */
function externalFlags(r: Resource) {
  if (!r.external) return {};
  return { externalApiPath: r.path, externalApiDomain: r.domain, externalApiModule: r.module };
}

/** An external kind's local source (its CRD file, say) is an input of the scaffold: it comes along. */
function bringExternalSource(input: string, dir: string, r: Resource): void {
  if (!r.external || !r.path?.startsWith("./") || !existsSync(join(input, r.path))) return;
  if (existsSync(join(dir, r.path))) return;
  mkdirSync(dirname(join(dir, r.path)), { recursive: true });
  cpSync(join(input, r.path), join(dir, r.path), { recursive: true });
}

const REPLAYED_PLUGINS = new Set([
  GPU_BUDGET_PLUGIN_KEY,
  DEPLOY_IMAGE_PLUGIN_KEY,
  HELM_PLUGIN_KEY,
  GRAFANA_PLUGIN_KEY,
  AUTOUPDATE_PLUGIN_KEY,
]);

/** The flags deploy-image/v1-alpha recorded for a kind in PROJECT (its image, command, port, user). */
function imageFlagsOf(config: ProjectConfig, r: Resource) {
  const o = recordedImageOptions(deployImageResources(config.plugins).find((e) => sameGVK(e, r)));
  return o === undefined
    ? {}
    : {
        image: o.image,
        imageContainerCommand: o.command,
        imageContainerPort: o.port,
        runAsUser: o.runAsUser,
      };
}

async function replay(
  input: string,
  dir: string,
  config: ProjectConfig,
  runtime: string | undefined,
): Promise<string[]> {
  const notes: string[] = [];
  for (const key of Object.keys(config.plugins ?? {})) {
    if (!REPLAYED_PLUGINS.has(key)) {
      throw new KbtsError(`PROJECT names the plugin ${key}, which alpha generate cannot replay yet`, {
        where: join(input, PROJECT_FILE),
        fix: "re-scaffold without it (remove it from PROJECT's plugins) and add it again afterwards",
      });
    }
  }
  await runInit(dir, {
    domain: config.domain,
    repo: config.repo,
    projectName: config.projectName,
    ...licenseOf(join(input, BOILERPLATE)),
    multigroup: config.multigroup === true,
    namespaced: config.namespaced === true,
    plugins: config.layout,
    runtime,
  });
  const resources = config.resources ?? [];
  // APIs first (with their controllers), as Kubebuilder does: controllers and webhooks need them.
  for (const r of resources) {
    if (!r.api) continue;
    const plugins = kindPlugins(config, r);
    const named = r.controllers?.length ? r.controllers.map((c) => c.name) : [];
    // The kind's own controller heading a list is made with its API, as it was: a plugin such as
    // deploy-image/v1-alpha makes both at once, and the named create that follows lists it first again.
    const ownFirst = named.length > 1 && named[0] === r.kind.toLowerCase();
    await runCreateApi(dir, {
      group: r.group,
      version: r.version,
      kind: r.kind,
      plural: r.plural,
      namespaced: r.api.namespaced === true,
      resource: true,
      controller: ownFirst || (named.length === 0 && r.controller === true),
      plugins: plugins.length > 0 ? plugins : undefined,
      ...imageFlagsOf(config, r),
    });
    // Named controllers (--controller-name) one by one, in PROJECT's order, as Kubebuilder replays them.
    for (const controllerName of ownFirst ? named.slice(1) : named) {
      await runCreateApi(dir, {
        group: r.group,
        version: r.version,
        kind: r.kind,
        plural: r.plural,
        resource: false,
        controller: true,
        controllerName,
      });
    }
  }
  // Controllers of kinds this project does not define (built-in or external kinds). An external
  // kind's local source (its CRD file, say) is an input of the scaffold: it comes along.
  for (const r of resources) {
    if (r.api) continue;
    bringExternalSource(input, dir, r);
    const names: (string | undefined)[] = r.controllers?.length
      ? r.controllers.map((c) => c.name)
      : r.controller
        ? [undefined]
        : [];
    for (const controllerName of names) {
      await runCreateApi(dir, {
        group: r.group,
        version: r.version,
        kind: r.kind,
        resource: false,
        controller: true,
        controllerName,
        ...externalFlags(r),
      });
    }
  }
  // Webhooks last; a plugin's create api may have made some already (GPUBudget's Pod webhook). Each
  // kind is one PROJECT entry, so what the creates above wrote is read once.
  const created = parseProject(readFileSync(join(dir, PROJECT_FILE), "utf8"));
  for (const r of resources) {
    const w = r.webhooks;
    if (!w) continue;
    const made = findResource(created, r)?.webhooks;
    const defaulting = w.defaulting === true && made?.defaulting !== true;
    const validation = w.validation === true && made?.validation !== true;
    const conversion = w.conversion === true && made?.conversion !== true;
    if (!defaulting && !validation && !conversion) continue;
    // A webhook of an external kind that has no controller: its source has not come along yet.
    bringExternalSource(input, dir, r);
    await runCreateWebhook(dir, {
      group: r.group,
      version: r.version,
      kind: r.kind,
      plural: r.plural,
      defaulting,
      programmaticValidation: validation,
      conversion,
      spoke: conversion ? w.spoke : undefined,
      defaultingPath: defaulting ? w.defaultingPath : undefined,
      validationPath: validation ? w.validationPath : undefined,
      ...(findResource(created, r) ? {} : externalFlags(r)),
    });
  }
  // helm/v2-alpha, as Kubebuilder's alpha generate re-runs `edit --plugins helm/v2-alpha`: the chart
  // is made from the kustomize output, which comes along when the old tree has it.
  const helm = config.plugins?.[HELM_PLUGIN_KEY] as { manifests?: string; output?: string } | undefined;
  if (helm !== undefined) {
    const manifests = helm.manifests ?? "dist/install.yaml";
    if (existsSync(join(input, manifests))) {
      mkdirSync(dirname(join(dir, manifests)), { recursive: true });
      cpSync(join(input, manifests), join(dir, manifests));
      await runEdit(dir, { plugins: [HELM_PLUGIN_KEY], manifests: helm.manifests, outputDir: helm.output });
    } else {
      notes.push(
        `${manifests} was not there to rebuild the Helm chart from: run make helm-chart after merging.`,
      );
    }
  }
  // grafana/v1-alpha, as Kubebuilder's alpha generate re-runs `edit --plugins grafana/v1-alpha`: the
  // user's custom-metrics config comes along (it is theirs), and the dashboards are made again from it.
  if (config.plugins?.[GRAFANA_PLUGIN_KEY] !== undefined) {
    if (existsSync(join(input, CUSTOM_METRICS_CONFIG))) {
      mkdirSync(dirname(join(dir, CUSTOM_METRICS_CONFIG)), { recursive: true });
      cpSync(join(input, CUSTOM_METRICS_CONFIG), join(dir, CUSTOM_METRICS_CONFIG));
    }
    await runEdit(dir, { plugins: [GRAFANA_PLUGIN_KEY] });
  }
  // autoupdate/v1-alpha, as Kubebuilder's alpha generate re-runs `edit --plugins autoupdate/v1-alpha`.
  if (config.plugins?.[AUTOUPDATE_PLUGIN_KEY] !== undefined) {
    await runEdit(dir, { plugins: [AUTOUPDATE_PLUGIN_KEY] });
  }
  return notes;
}
