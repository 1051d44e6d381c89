/**
 * `helm/v2-alpha`: a Helm chart in <output-dir>/chart made from the project's kustomize output
 * (`make build-installer`'s dist/install.yaml), as Kubebuilder's helm/v2-alpha. `kbts edit --plugins
 * helm/v2-alpha` (re)generates it; at `kbts init` the plugin writes what does not depend on the
 * kustomize output (Chart.yaml, _helpers.tpl, NOTES.txt, .helmignore), the Makefile's Helm targets and
 * its PROJECT entry, and `make helm-chart` builds the rest once there are manifests.
 */
import { KbtsError } from "../../errors.js";
import type { ProjectConfig } from "../../project/config.js";
import type { Scaffold } from "../../scaffold/scaffold.js";
import { carryTemplateChange } from "../../scaffold/template-change.js";
import type { EditOptions, Plugin, PluginContext } from "../types.js";
import { addMakefileFragment } from "../typescript/makefile.js";
import { scaffoldChart, scaffoldChartBase } from "./chart.js";
import { parseInstallManifests } from "./manifests.js";

export const HELM_PLUGIN_KEY = "helm.kbts.dev/v2-alpha";
export const DEFAULT_MANIFESTS = "dist/install.yaml";
export const DEFAULT_OUTPUT_DIR = "dist";

const MAKEFILE_FRAGMENT = "plugins/helm-fragments/makefile.hbs";
const MAKEFILE_SECTION = "##@ Helm Deployment";
const GITIGNORE_TEMPLATE = "typescript/init/.gitignore.hbs";

/** What PROJECT records under plugins."helm.kbts.dev/v2-alpha" (Kubebuilder's manifests/output). */
export interface HelmPluginConfig {
  manifests: string;
  output: string;
}

function recorded(config: ProjectConfig): HelmPluginConfig | undefined {
  return config.plugins?.[HELM_PLUGIN_KEY] as HelmPluginConfig | undefined;
}

function record(config: ProjectConfig, value: HelmPluginConfig): void {
  config.plugins = { ...config.plugins, [HELM_PLUGIN_KEY]: value };
}

/**
 * The Helm targets (helm-chart, helm-deploy, ...) at the Makefile's insertion point, once: a section
 * already there is kept as it is (edit passes the manifests' namespace, init the project's).
 */
function addMakeTargets(scaffold: Scaffold, namespace: string, release: string, chartDir: string): void {
  // Reads only: is the section there?
  if (scaffold.fs.read("Makefile")?.includes(MAKEFILE_SECTION)) return;
  addMakefileFragment(scaffold, MAKEFILE_FRAGMENT, { namespace, release, chartDir });
}

/**
 * A kbts project ignores dist/ (the compiled manager goes there); the chart in dist/chart is source,
 * so it is let back in.
 */
function keepChartInGit(scaffold: Scaffold, output: string): void {
  if (output !== "dist") return;
  const render = (chartInDist: boolean) => scaffold.fragment(GITIGNORE_TEMPLATE, { chartInDist });
  scaffold.edit(".gitignore", (text) => {
    const carried = carryTemplateChange(".gitignore", text, render(false), render(true));
    // A .gitignore the user has rewritten around dist/ is theirs: `git status` then shows the chart.
    return carried.outcome === "applied" ? carried.text : text;
  });
}

function checkOutputDir(dir: string): void {
  if (dir === "" || dir.startsWith("/") || dir.split("/").includes("..")) {
    throw new KbtsError(`invalid output directory ${JSON.stringify(dir)}`, {
      where: "--output-dir",
      fix: "give a folder inside the project, e.g. dist or charts",
    });
  }
}

export const helmPlugin: Plugin = {
  key: HELM_PLUGIN_KEY,
  description: "Generates a Helm chart for project distribution from the kustomize output",
  init(ctx: PluginContext, options) {
    const settings = { manifests: DEFAULT_MANIFESTS, output: DEFAULT_OUTPUT_DIR };
    const chartDir = `${settings.output}/chart`;
    scaffoldChartBase(ctx.scaffold, { chartDir, projectName: options.projectName, force: false });
    addMakeTargets(ctx.scaffold, `${options.projectName}-system`, options.projectName, chartDir);
    keepChartInGit(ctx.scaffold, settings.output);
    record(ctx.config, settings);
  },
  edit(ctx: PluginContext, options: EditOptions): string {
    const before = recorded(ctx.config);
    const manifests = options.manifests ?? before?.manifests ?? DEFAULT_MANIFESTS;
    const output = (options.outputDir ?? before?.output ?? DEFAULT_OUTPUT_DIR).replace(/\/+$/, "");
    checkOutputDir(output);
    const text = ctx.scaffold.fs.read(manifests);
    if (text === undefined) {
      throw new KbtsError(`${manifests} is missing: the chart is made from the kustomize output`, {
        where: options.manifests === undefined ? manifests : "--manifests",
        fix:
          manifests === DEFAULT_MANIFESTS
            ? "run make build-installer first (it writes dist/install.yaml), then this command again; or make helm-chart"
            : "give --manifests the file kustomize wrote (e.g. kubectl kustomize config/default > dist/install.yaml)",
      });
    }
    const install = parseInstallManifests(text, manifests);
    const projectName = ctx.config.projectName ?? install.prefix;
    const chartDir = `${output}/chart`;
    scaffoldChart(ctx.scaffold, install, { chartDir, projectName, force: options.force });
    // First run (no PROJECT entry, or one from init): the Makefile's Helm section, once.
    addMakeTargets(ctx.scaffold, install.namespace, projectName, chartDir);
    keepChartInGit(ctx.scaffold, output);
    record(ctx.config, { manifests, output });
    const skipped = install.skipped.map((o) => `${o.kind} ${o.metadata.name}`);
    const lines = [
      `Helm chart written to ${chartDir} from ${manifests}.`,
      ...(skipped.length
        ? [
            `Left out (custom resources are not part of a chart; create them after installing): ${skipped.join(", ")}`,
          ]
        : []),
      "Next: check it and install it with:",
      `$ helm lint ${chartDir}`,
      "$ make helm-deploy IMG=<registry>/<project>:<tag>",
    ];
    return lines.join("\n");
  },
};
