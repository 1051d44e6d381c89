/**
 * `kbts edit`: changes a project's settings in PROJECT after init, as Kubebuilder's `edit` does.
 * It writes PROJECT only, never code: when a setting moves files (multigroup puts each group's APIs,
 * controllers and webhooks in a folder of their own), it lists what to move by hand and writes nothing
 * it could not do safely.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { KbtsError } from "../errors.js";
import { formatProject, PROJECT_FILE, type ProjectConfig } from "../project/config.js";
import { StagedFS } from "../scaffold/fs.js";
import { loadProject } from "./commands.js";

export interface EditFlags {
  /** --multigroup[=true|false]; undefined: not given. */
  multigroup?: boolean;
}

export interface EditResult {
  written: string[];
  /** What the user still has to do (moves by hand), or that nothing changed. */
  next: string;
}

export async function runEdit(dir: string, flags: EditFlags): Promise<EditResult> {
  const root = resolve(dir);
  const fs = new StagedFS(root);
  const config = loadProject(fs);
  if (flags.multigroup === undefined) {
    throw new KbtsError("nothing to edit", {
      where: "kbts edit",
      fix: "give a setting to change, e.g. --multigroup or --multigroup=false",
    });
  }
  const was = config.multigroup === true;
  if (was === flags.multigroup) {
    return { written: [], next: `PROJECT already has multigroup: ${was}; nothing changed.` };
  }
  const groups = [...new Set(ownResources(config).map((r) => r.group))];
  if (!flags.multigroup && groups.length > 1) {
    throw new KbtsError(`the project has APIs in ${groups.length} groups (${groups.join(", ")})`, {
      where: "--multigroup=false",
      fix: "a single-group project has one group: remove the other groups' APIs first, or keep multigroup",
    });
  }
  const next: ProjectConfig = { ...config, multigroup: flags.multigroup || undefined };
  fs.write(PROJECT_FILE, formatProject(next));
  const moves = moveList(root, config, flags.multigroup);
  const summary = `PROJECT: multigroup is now ${flags.multigroup}; new APIs go in ${flags.multigroup ? "api/<group>/<version>" : "api/<version>"}.`;
  return {
    written: fs.flush(),
    next:
      moves.length === 0
        ? summary
        : `${summary}\nMove the existing code by hand (kbts does not move your files), then fix the imports (cmd/main.ts, tests) and run make manifests:\n${moves.map((m) => `  ${m}`).join("\n")}`,
  };
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
    const candidates = [
      `api/${"{g}"}${r.version}/`,
      `internal/controller/${"{g}"}${kind}_controller.ts`,
      `internal/controller/${"{g}"}${kind}_controller.test.ts`,
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
