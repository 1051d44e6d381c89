import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { KbtsError } from "../errors.js";
import type { StagedFS } from "./fs.js";

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
    try {
      const [command = "", ...prefix] = biome;
      execFileSync(
        command,
        [
          ...prefix,
          "check",
          "--write",
          "--linter-enabled=false",
          "--no-errors-on-unmatched",
          "--vcs-enabled=false",
          ".",
        ],
        { cwd: dir, stdio: "ignore" },
      );
    } catch (err) {
      // Ctrl-C reaches biome too: stop here, before anything is written, rather than write unformatted.
      if ((err as { signal?: string }).signal) {
        throw new KbtsError(
          `formatting was interrupted (${(err as { signal: string }).signal}); nothing was written`,
        );
      }
      // A file biome cannot parse keeps its template form; the project's `make lint` reports it.
    }
    for (const f of files) fs.write(f.path, readFileSync(join(dir, f.path), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
