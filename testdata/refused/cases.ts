/**
 * The broken-input corpus of issue 18: each directory is one input kbts refuses, with the command,
 * its flags, the files laid over a base project (empty, `project` = kbts init, `api` = init + create
 * api cache/v1 Widget), the location and text of the expected error, and, where the input reaches the
 * API server, the nearest manifest (server.json; object.json when the server takes the schema but
 * refuses every object). refused.test.ts runs kbts on each; server.int.test.ts asks the real API server.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCreateApi, runCreateWebhook, runInit } from "../../src/commands/index.js";
import { generateKinds } from "../../src/kinds/generate.js";
import { writeManifests } from "../../src/manifests/write.js";

export const CORPUS = fileURLToPath(new URL(".", import.meta.url));

export interface RefusedCase {
  name: string;
  about: string;
  base: "empty" | "project" | "api";
  command: "init" | "create api" | "create webhook" | "manifests" | "generate";
  flags: Record<string, unknown>;
  where: string;
  message: string;
  edits?: Array<{ file: string; replace: string; with: string }>;
  /** The manifest closest to what the input means, for the API server. */
  server?: Record<string, unknown>;
  /** An object of the server's CRD that the server must refuse. */
  object?: Record<string, unknown>;
}

export function listRefusedCases(): RefusedCase[] {
  return readdirSync(CORPUS, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => {
      const dir = join(CORPUS, e.name);
      const json = (f: string) =>
        existsSync(join(dir, f))
          ? (JSON.parse(readFileSync(join(dir, f), "utf8")) as Record<string, unknown>)
          : undefined;
      return {
        name: e.name,
        ...(json("case.json") as object),
        server: json("server.json"),
        object: json("object.json"),
      } as RefusedCase;
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Builds the three bases once into `work`. */
export async function buildBases(work: string): Promise<Record<RefusedCase["base"], string>> {
  const bases = { empty: join(work, "empty"), project: join(work, "project"), api: join(work, "api") };
  mkdirSync(bases.empty, { recursive: true });
  mkdirSync(bases.project, { recursive: true });
  await runInit(bases.project, { domain: "example.com", repo: "example.com/widget", runtime: "registry" });
  cpSync(bases.project, bases.api, { recursive: true });
  await runCreateApi(bases.api, { group: "cache", version: "v1", kind: "Widget" });
  return bases;
}

/** Lays the case's files and edits over a copy of its base in `dir`. */
export function prepare(c: RefusedCase, base: string, dir: string): void {
  cpSync(base, dir, { recursive: true });
  const files = join(CORPUS, c.name, "files");
  if (existsSync(files)) cpSync(files, dir, { recursive: true });
  for (const e of c.edits ?? []) {
    const path = join(dir, e.file);
    writeFileSync(path, readFileSync(path, "utf8").replace(new RegExp(e.replace, "m"), e.with));
  }
}

/** Runs the case's command in `dir` (the library behind the CLI command). */
export async function runCase(c: RefusedCase, dir: string): Promise<unknown> {
  const f = c.flags as never;
  switch (c.command) {
    case "init":
      return runInit(dir, f);
    case "create api":
      return runCreateApi(dir, f);
    case "create webhook":
      return runCreateWebhook(dir, f);
    case "manifests":
      return writeManifests({ root: dir, ...(c.flags as object) });
    case "generate":
      return generateKinds({ root: dir, ...(c.flags as object) });
  }
}
