import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { KbtsError } from "../errors.js";
import type { StagedFS } from "./staged.js";

/**
 * Runs the project's formatter (biome: format + organize imports, with the project's biome.json)
 * over the staged TypeScript files, as Kubebuilder runs gofmt/goimports over what it generates.
 * Templates are written formatted already; this settles what they cannot know in advance: the
 * order of imports added at insertion points and line breaks that depend on names.
 * One biome process for all files, on a temporary copy; skipped when biome is not installed.
 */
function biomeCommand(): string[] | undefined {
  const require = createRequire(import.meta.url);
  // The native binary directly when it is there (saves the Node.js start of biome's JS launcher).
  for (const pkg of [
    `@biomejs/cli-${process.platform}-${process.arch}`,
    `@biomejs/cli-${process.platform}-${process.arch}-musl`,
  ]) {
    try {
      return [require.resolve(`${pkg}/biome${process.platform === "win32" ? ".exe" : ""}`)];
    } catch {
      // try the next candidate
    }
  }
  try {
    return [process.execPath, require.resolve("@biomejs/biome/bin/biome")];
  } catch {
    return undefined;
  }
}

/**
 * One `biome check --write` over the copy. A failure that is not an interrupt is tried once more (a
 * loaded machine has made biome fail once in a while, and a silent failure wrote unformatted files that
 * differ from every other run's); if it fails again, the files keep their template form and the user
 * is told why, since `make lint` will report them.
 */
function runBiome(biome: string[], dir: string): void {
  const [command = "", ...prefix] = biome;
  const args = [
    ...prefix,
    "check",
    "--write",
    "--linter-enabled=false",
    "--no-errors-on-unmatched",
    "--vcs-enabled=false",
    ".",
  ];
  let failure = "";
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      execFileSync(command, args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
      return;
    } catch (err) {
      const { signal, status, stderr } = err as { signal?: string; status?: number; stderr?: Buffer };
      // Ctrl-C reaches biome too: stop here, before anything is written, rather than write unformatted.
      if (signal || status === 130 || status === 143) {
        throw new KbtsError(
          `formatting was interrupted (${signal ?? `exit ${status}`}); nothing was written`,
        );
      }
      failure =
        (stderr?.toString() ?? "")
          .trim()
          .split("\n")
          .find((l) => l.trim() !== "") ?? `exit ${status}`;
    }
  }
  process.stderr.write(
    `kbts: warning: biome could not format the generated TypeScript (${failure}); files keep their template form, run \`make fmt\`\n`,
  );
}

export function formatStaged(fs: StagedFS): void {
  const files = fs.changes().filter((c) => c.path.endsWith(".ts"));
  const config = fs.read("biome.json");
  const biome = biomeCommand();
  if (files.length === 0 || config === undefined || biome === undefined) return;
  const dir = mkdtempSync(join(tmpdir(), "kbts-format-"));
  try {
    writeFileSync(join(dir, "biome.json"), config);
    for (const f of files) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.content);
    }
    runBiome(biome, dir);
    for (const f of files) fs.write(f.path, readFileSync(join(dir, f.path), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
