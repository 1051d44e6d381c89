/**
 * `autoupdate/v1-alpha`: a scheduled GitHub workflow that keeps a project on the latest kbts
 * scaffold, as Kubebuilder's autoupdate/v1-alpha does: every week it installs the latest kbts with
 * npm and runs `kbts alpha update --force --push --restore-path .github/workflows --open-gh-issue`,
 * which pushes a branch with the update and opens an issue with the link to open a pull request.
 * `kbts edit --plugins autoupdate/v1-alpha` (or `init --plugins ...,autoupdate/v1-alpha`) writes
 * .github/workflows/auto_update.yml; PROJECT records the plugin (with no settings, as Kubebuilder's).
 * Unlike Kubebuilder, an existing workflow (maybe edited: more flags) is kept unless --force.
 */
import { KbtsError } from "../../errors.js";
import { PROJECT_FILE, type ProjectConfig } from "../../project/config.js";
import type { Scaffold } from "../../scaffold/scaffold.js";
import type { EditOptions, Plugin, PluginContext } from "../types.js";

export const AUTOUPDATE_PLUGIN_KEY = "autoupdate.kbts.dev/v1-alpha";
export const AUTOUPDATE_WORKFLOW = ".github/workflows/auto_update.yml";

const SET = "plugins/autoupdate";

function scaffoldWorkflow(scaffold: Scaffold, force: boolean): boolean {
  const existed = scaffold.fs.exists(AUTOUPDATE_WORKFLOW);
  scaffold.template(
    { template: `${SET}/${AUTOUPDATE_WORKFLOW}.hbs`, set: SET, ifExists: force ? "overwrite" : "skip" },
    {},
  );
  return !existed || force;
}

function record(config: ProjectConfig): void {
  config.plugins = {
    ...config.plugins,
    [AUTOUPDATE_PLUGIN_KEY]: config.plugins?.[AUTOUPDATE_PLUGIN_KEY] ?? {},
  };
}

const HOW = `${AUTOUPDATE_WORKFLOW} runs kbts alpha update every Tuesday (and on demand, from the Actions tab): it pushes a branch kbts-update-from-<from>-to-<to> and opens an issue to review it. Protect your main branch so updates go through pull requests.`;

export const autoupdatePlugin: Plugin = {
  key: AUTOUPDATE_PLUGIN_KEY,
  description: "Proposes kbts scaffold updates via GitHub Actions (kbts alpha update on a schedule)",
  init(ctx: PluginContext) {
    scaffoldWorkflow(ctx.scaffold, false);
    record(ctx.config);
  },
  edit(ctx: PluginContext, options: EditOptions): string {
    // alpha update starts from the kbts that made the project: PROJECT must say which.
    if (ctx.config.cliVersion === undefined) {
      throw new KbtsError("PROJECT has no cliVersion, which kbts alpha update needs", {
        where: PROJECT_FILE,
        fix: "add cliVersion: <the kbts version that scaffolded the project> to PROJECT, then run this again",
      });
    }
    const written = scaffoldWorkflow(ctx.scaffold, options.force);
    record(ctx.config);
    return written ? HOW : `${AUTOUPDATE_WORKFLOW} is there already; kept (--force writes it again).`;
  },
};
