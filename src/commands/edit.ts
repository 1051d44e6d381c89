/**
 * `kbts edit`: changes a project's settings in PROJECT after init, as Kubebuilder's `edit` does.
 * --multigroup writes PROJECT only, never moves code: it lists the folders to move by hand.
 * --namespaced also carries init's namespaced templates into the project (namespaced-edit.ts).
 * --plugins runs the named plugins' edit (e.g. helm/v2-alpha's chart).
 * --license/--owner/--license-file put a new license header on the project (license.ts).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { KbtsError } from "../errors.js";
import { formatStaged } from "../files/format.js";
import { StagedFS } from "../files/staged.js";
import { resolvePlugins } from "../plugins/registry.js";
import { formatProject, PROJECT_FILE, type ProjectConfig } from "../project/config.js";
import { controllerFileName, controllerNames } from "../project/controllers.js";
import { Scaffold } from "../scaffold/scaffold.js";
import { Renderer } from "../scaffold/template.js";
import { hasLicenseFlags, type LicenseFlags, relicense } from "./license.js";
import { editNamespaced } from "./namespaced-edit.js";
import { loadProjectConfig, NAMESPACED_WEBHOOK_WARNING } from "./project.js";

export interface EditFlags extends LicenseFlags {
  /** --multigroup[=true|false]; undefined: not given. */
  multigroup?: boolean;
  /** --namespaced[=true|false]; undefined: not given. */
  namespaced?: boolean;
  /** --force: overwrite scaffold-owned config files whose edits overlap a change. */
  force?: boolean;
  /** Plugins whose edit runs (--plugins). */
  plugins?: string[];
  /** helm/v2-alpha: the kustomize output to read (--manifests) and the chart's folder (--output-dir). */
  manifests?: string;
  outputDir?: string;
}

export interface EditResult {
  written: string[];
  /** What the user still has to do (moves by hand), or that nothing changed. */
  next: string;
}

export async function runEdit(dir: string, flags: EditFlags): Promise<EditResult> {
  const root = resolve(dir);
  const fs = new StagedFS(root);
  const config = loadProjectConfig(fs);
  if (flags.plugins?.length) return runPluginEdits(fs, config, flags);
  if (flags.manifests !== undefined || flags.outputDir !== undefined) {
    throw new KbtsError("--manifests and --output-dir are options of a plugin's edit", {
      where: "kbts edit",
      fix: "name the plugin, e.g. kbts edit --plugins helm/v2-alpha",
    });
  }
  if (flags.multigroup === undefined && flags.namespaced === undefined && !hasLicenseFlags(flags)) {
    throw new KbtsError("nothing to edit", {
      where: "kbts edit",
      fix: "give a setting to change, e.g. --multigroup, --multigroup=false, --namespaced or --namespaced=false, --license MIT --owner <name>, or a plugin: --plugins helm/v2-alpha",
    });
  }
  const next: ProjectConfig = { ...config };
  const lines: string[] = [];
  if (flags.multigroup !== undefined) lines.push(...editMultigroup(root, config, next, flags.multigroup));
  if (flags.namespaced !== undefined) {
    const was = config.namespaced === true;
    if (was === flags.namespaced) {
      lines.push(`PROJECT already has namespaced: ${was}; nothing changed.`);
    } else {
      next.namespaced = flags.namespaced || undefined;
      // The file header is added by init only to new files; carried changes never touch it.
      const edit = await editNamespaced(
        new Scaffold(fs, new Renderer(), ""),
        next,
        flags.namespaced,
        flags.force === true,
      );
      lines.push(
        flags.namespaced
          ? "PROJECT: namespaced is now true: the manager watches WATCH_NAMESPACE (its own namespace) with a Role and RoleBinding."
          : "PROJECT: namespaced is now false: the manager watches every namespace with a ClusterRole and ClusterRoleBinding.",
        "Run make manifests to regenerate config/rbac/role.yaml from the controllers' RBAC markers.",
      );
      if (flags.namespaced && (config.resources ?? []).some((r) => r.webhooks !== undefined)) {
        lines.push(NAMESPACED_WEBHOOK_WARNING);
      }
      for (const h of edit.byHand) {
        lines.push(
          `${h.path} has edits where this change goes; kbts left it as it is. Apply by hand:\n${h.patch}`,
        );
      }
    }
  }
  // Last, so a header carried into files by --namespaced above is re-headed too.
  if (hasLicenseFlags(flags)) lines.push(...relicense(fs, flags).lines);
  if (formatProject(next) !== formatProject(config)) fs.write(PROJECT_FILE, formatProject(next));
  return { written: fs.flush(), next: lines.join("\n") };
}

/** Sets multigroup in `next`; returns what to tell the user (the folders to move by hand). */
function editMultigroup(
  root: string,
  config: ProjectConfig,
  next: ProjectConfig,
  multigroup: boolean,
): string[] {
  const was = config.multigroup === true;
  if (was === multigroup) return [`PROJECT already has multigroup: ${was}; nothing changed.`];
  const groups = [...new Set(ownResources(config).map((r) => r.group))];
  if (!multigroup && groups.length > 1) {
    throw new KbtsError(`the project has APIs in ${groups.length} groups (${groups.join(", ")})`, {
      where: "--multigroup=false",
      fix: "a single-group project has one group: remove the other groups' APIs first, or keep multigroup",
    });
  }
  next.multigroup = multigroup || undefined;
  const moves = moveList(root, config, multigroup);
  const summary = `PROJECT: multigroup is now ${multigroup}; new APIs go in ${multigroup ? "api/<group>/<version>" : "api/<version>"}.`;
  if (moves.length === 0) return [summary];
  return [
    summary,
    "Move the existing code by hand (kbts does not move your files), then fix the imports (cmd/main.ts, tests) and run make manifests:",
    ...moves.map((m) => `  ${m}`),
  ];
}

/** `kbts edit --plugins a,b`: each plugin's edit against one staged tree, then PROJECT, then one flush. */
async function runPluginEdits(fs: StagedFS, config: ProjectConfig, flags: EditFlags): Promise<EditResult> {
  if (flags.multigroup !== undefined || flags.namespaced !== undefined || hasLicenseFlags(flags)) {
    throw new KbtsError("--multigroup/--namespaced/--license and --plugins are separate edits", {
      where: "kbts edit",
      fix: "run kbts edit with the setting and kbts edit --plugins ... one after the other",
    });
  }
  const plugins = resolvePlugins(flags.plugins ?? []);
  const without = plugins.filter((p) => !p.edit);
  if (without.length > 0) {
    throw new KbtsError(`plugin ${without.map((p) => p.key).join(", ")} has no edit subcommand`, {
      where: "--plugins",
      fix: "name a plugin that edits a project, e.g. helm/v2-alpha or grafana/v1-alpha",
    });
  }
  const scaffold = new Scaffold(fs, new Renderer(), "");
  const next: string[] = [];
  for (const plugin of plugins) {
    next.push(
      await (plugin.edit?.(
        { scaffold, config },
        {
          force: flags.force === true,
          manifests: flags.manifests,
          outputDir: flags.outputDir,
        },
      ) ?? ""),
    );
  }
  fs.write(PROJECT_FILE, formatProject(config));
  formatStaged(fs);
  const kept = scaffold.kept.length
    ? [`Kept (you may have edited them; --force regenerates all but Chart.yaml): ${scaffold.kept.join(", ")}`]
    : [];
  return { written: fs.flush(), next: [...kept, ...next].join("\n") };
}

/** The resources this project defines (not core or external kinds): the ones with folders to move. */
function ownResources(config: ProjectConfig) {
  return (config.resources ?? []).filter((r) => !r.core && !r.external);
}

/** "from -> to" for each existing folder or file of a resource whose place depends on multigroup. */
function moveList(root: string, config: ProjectConfig, multigroup: boolean): string[] {
  const moves: string[] = [];
  const seen = new Set<string>();
  for (const r of ownResources(config)) {
    const kind = r.kind.toLowerCase();
    const place = (group: boolean) => (group ? `${r.group}/` : "");
    const files = [kind, ...controllerNames(r).map((name) => controllerFileName(name, r.kind))];
    const candidates = [
      `api/${"{g}"}${r.version}/`,
      ...[...new Set(files)].flatMap((f) => [
        `internal/controller/${"{g}"}${f}_controller.ts`,
        `internal/controller/${"{g}"}${f}_controller.test.ts`,
      ]),
      `internal/controller/${"{g}"}suite_test.ts`,
      `internal/webhook/${"{g}"}${r.version}/`,
    ];
    for (const pattern of candidates) {
      const from = pattern.replace("{g}", place(!multigroup));
      const to = pattern.replace("{g}", place(multigroup));
      if (seen.has(from) || !existsSync(join(root, from))) continue;
      seen.add(from);
      moves.push(`${from} -> ${to}`);
    }
  }
  return moves;
}
