/**
 * The parity corpus: each directory NN-name/ is one case.
 *   api/<version>/*.ts   the TypeScript API package kbts reads
 *   go/<version>/*.go    its Go twin (absent for error cases), read by controller-gen
 *   expected/            controller-gen's output for the twin (written by regen.ts), or
 *   expected/error.txt   for cases that must fail: every non-empty line must appear in the error
 *   expected/warning.txt for cases that must warn: every non-empty line must appear in a warning
 *                        (a line "A ... B" needs A then B on one line of the message); beside
 *                        expected/config/ (an output case), the warnings that come with that output
 *   case.json            optional generator options: { "allowDangerousTypes": true, "roleName": "x" }
 *   WHY.md               present when kbts deliberately differs; expected/ is then kbts' (hand-checked)
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readTree } from "../controller-gen/index.js";

export const MARKERS_DIR = dirname(fileURLToPath(import.meta.url));

export interface CaseOptions {
  allowDangerousTypes?: boolean;
  roleName?: string;
}

export interface Case {
  name: string;
  dir: string;
  options: CaseOptions;
  /** Has a Go twin, so controller-gen is the oracle for expected/ (unless WHY.md says otherwise). */
  hasGo: boolean;
  /** kbts differs from controller-gen on purpose; the reason is in WHY.md. */
  differs: boolean;
  kind: "output" | "error" | "warning";
  /** An output case that must also warn (expected/warning.txt beside expected/config/). */
  warns: boolean;
}

export function listCases(): Case[] {
  return readdirSync(MARKERS_DIR)
    .filter((n) => /^\d{2,3}-/.test(n) && statSync(join(MARKERS_DIR, n)).isDirectory())
    .sort()
    .map((name) => {
      const dir = join(MARKERS_DIR, name);
      const optionsFile = join(dir, "case.json");
      const options = existsSync(optionsFile)
        ? (JSON.parse(readFileSync(optionsFile, "utf8")) as CaseOptions)
        : {};
      const warns = existsSync(join(dir, "expected/warning.txt"));
      const kind = existsSync(join(dir, "expected/error.txt"))
        ? "error"
        : warns && !existsSync(join(dir, "expected/config"))
          ? "warning"
          : "output";
      return {
        name,
        dir,
        options,
        hasGo: existsSync(join(dir, "go")),
        differs: existsSync(join(dir, "WHY.md")),
        kind,
        warns,
      };
    });
}

/** The expected manifests of an output case, keyed like generator output (config/...). */
export function expectedFiles(c: Case): Map<string, string> {
  return new Map([...readTree(join(c.dir, "expected"))].filter(([path]) => path.startsWith("config/")));
}

/** Required fragments of an error/warning case: the non-empty lines of expected/{error,warning}.txt. */
export function expectedFragments(c: Case): string[] {
  const file = join(c.dir, "expected", c.kind === "error" ? "error.txt" : "warning.txt");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
}

/** Whether message contains fragment; "A ... B" means A then B on the same line. */
export function containsFragment(message: string, fragment: string): boolean {
  const parts = fragment.split(" ... ");
  if (parts.length === 1) return message.includes(fragment);
  return message.split("\n").some((line) => {
    let at = 0;
    for (const part of parts) {
      const i = line.indexOf(part, at);
      if (i < 0) return false;
      at = i + part.length;
    }
    return true;
  });
}

/**
 * The only difference allowed between kbts and controller-gen: the tool-version annotation
 * (controller-gen.kubebuilder.io/version: v0.23.0 versus kbts' own key), dropped from both sides.
 */
export function normalizeManifest(text: string): string {
  return text
    .split("\n")
    .filter((line) => !/^ {4}[\w./-]*(controller-gen|kbts)[\w./-]*\/version: /.test(line))
    .join("\n");
}
