import { basename, resolve } from "node:path";
import { KbtsError } from "../errors.js";
import { removeStaleTemps, StagedFS } from "../files/staged.js";
import { DEFAULT_LAYOUT, findPlugin, resolvePlugins } from "../plugins/index.js";
import type { PluginContext } from "../plugins/types.js";
import { checkRuntimeSpec, resolveDependencySpecs, VENDOR_DIR } from "../plugins/typescript/dependencies.js";
import { boilerplate } from "../plugins/typescript/plugin.js";
import { formatProject, PROJECT_FILE, type ProjectConfig } from "../project/config.js";
import { validateDomain, validateOwner, validateProjectName, validateRepo } from "../project/names.js";
import { checkHeaderIsComment } from "../scaffold/encode.js";
import { Scaffold } from "../scaffold/scaffold.js";
import { Renderer } from "../scaffold/template.js";
import { kbtsVersion } from "../version.js";
import { flush, header, NAMESPACED_WEBHOOK_WARNING, type ScaffoldResult, scaffoldYear } from "./project.js";

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

/** `kbts init`: a new project from the base layout (or the plugins named). */
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
