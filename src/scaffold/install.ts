import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { KbtsError } from "../errors.js";

/** The step a new project needs before any make target works: every tool runs from node_modules. */
export const INSTALL_COMMAND = "npm install";

/** Whether the project at `root` has its dependencies installed (kbts itself in node_modules/.bin). */
export function dependenciesInstalled(root: string): boolean {
  return existsSync(join(root, "node_modules", ".bin", "kbts"));
}

/**
 * Runs `npm install` in a freshly scaffolded project, its output shown as it comes. The project's
 * files are already written: a failure says so and what to run once the cause is fixed.
 */
export async function installDependencies(root: string): Promise<void> {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const code = await new Promise<number | string>((resolve) => {
    const child = spawn(npm, ["install", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
    child.on("error", (err) => resolve(err.message));
    child.on("exit", (c, signal) => resolve(c ?? signal ?? 1));
  });
  if (code !== 0) {
    throw new KbtsError(
      `the project is written, but ${INSTALL_COMMAND} failed (${typeof code === "number" ? `exit ${code}` : code})`,
      { fix: `fix the cause above, then run \`${INSTALL_COMMAND}\` in ${root}` },
    );
  }
}

/**
 * Runs `make <target>` in a project just scaffolded, its output shown as it comes (as Kubebuilder's
 * deploy-image runs `make manifests` after create api). The files are already written: a failure
 * says so and what to run once the cause is fixed.
 */
export async function runProjectMake(root: string, target: string): Promise<void> {
  const code = await new Promise<number | string>((resolve) => {
    const child = spawn("make", [target], { cwd: root, stdio: "inherit" });
    child.on("error", (err) => resolve(err.message));
    child.on("exit", (c, signal) => resolve(c ?? signal ?? 1));
  });
  if (code !== 0) {
    throw new KbtsError(
      `the files are written, but make ${target} failed (${typeof code === "number" ? `exit ${code}` : code})`,
      { fix: `fix the cause above, then run \`make ${target}\` in ${root}` },
    );
  }
}
