/**
 * `kbts edit --license/--owner/--license-file`: a new license header for an existing project. It goes
 * into hack/boilerplate.ts.txt (what later scaffolds put on new files) and replaces the old header on
 * every TypeScript file that still starts with it, exactly as it was written (YEAR as any year, which
 * is kept). A file whose header is no longer the old one was re-headed by its owner: it is left as it
 * is and listed.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { compareStrings } from "../compare.js";
import { KbtsError } from "../errors.js";
import { SKIP_DIRS, type StagedFS } from "../files/staged.js";
import type { License } from "../plugins/types.js";
import { boilerplate } from "../plugins/typescript/plugin.js";
import { validateOwner } from "../project/names.js";
import { checkHeaderIsComment } from "../scaffold/encode.js";
import { scaffoldYear } from "./project.js";

export const BOILERPLATE = "hack/boilerplate.ts.txt";
export const LICENSES: readonly License[] = ["apache2", "MIT", "copyright", "none"];

export interface LicenseFlags {
  license?: string;
  owner?: string;
  /** --license-file: a file holding the new header (a comment block), instead of --license/--owner. */
  licenseFile?: string;
}

export const hasLicenseFlags = (f: LicenseFlags) =>
  f.license !== undefined || f.owner !== undefined || f.licenseFile !== undefined;

/** --license-file's content, or an error that names the file. */
export function readLicenseFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new KbtsError(
      `cannot read the license file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      {
        where: "--license-file",
        fix: "give the path of a file holding the license header as a comment block (/* ... */)",
      },
    );
  }
}

export interface Relicensed {
  /** Files whose header kbts replaced (boilerplate included), staged on the fs. */
  changed: string[];
  /** TypeScript files that do not start with the old header: left as they are. */
  leftAlone: string[];
  /** What to tell the user. */
  lines: string[];
}

/**
 * Stages the new header on `fs` (nothing is written until the caller flushes). Without --license the
 * project's current license is kept (so `--owner` alone changes the owner), and without --owner its
 * current owner.
 */
export function relicense(fs: StagedFS, flags: LicenseFlags): Relicensed {
  const oldText = (fs.read(BOILERPLATE) ?? "").trimEnd();
  const next = newHeader(oldText, flags);
  if (next === oldText) {
    return {
      changed: [],
      leftAlone: [],
      lines: [`${BOILERPLATE} already holds this header; nothing changed.`],
    };
  }
  const changed: string[] = [];
  if (fs.exists(BOILERPLATE) || next !== "") {
    // `none` leaves an empty file: later scaffolds read it as "no header", as if it were missing.
    fs.write(BOILERPLATE, next === "" ? "" : `${next}\n`);
    changed.push(BOILERPLATE);
  }
  const leftAlone: string[] = [];
  const old = oldText === "" ? undefined : headerPattern(oldText);
  for (const path of typeScriptFiles(fs.root)) {
    const content = fs.read(path) ?? "";
    const updated = old ? replaceHeader(content, old, next) : addHeader(content, next);
    if (updated === undefined) {
      if (!isGenerated(content)) leftAlone.push(path);
      continue;
    }
    if (updated !== content) {
      fs.write(path, updated);
      changed.push(path);
    }
  }
  const files = changed.filter((p) => p !== BOILERPLATE).length;
  const lines = [
    next === ""
      ? `The license header is gone from ${files} files; ${BOILERPLATE} is empty, so new files get none.`
      : `${BOILERPLATE} holds the new header; it replaced the old one on ${files} files.`,
  ];
  if (leftAlone.length > 0) {
    lines.push(
      `These files do not start with the old header (you changed it, or wrote them): kbts left them as they are:`,
      ...leftAlone.map((p) => `  ${p}`),
    );
  }
  if (fs.exists("README.md")) lines.push("README.md's License section is yours: update it by hand.");
  return { changed, leftAlone, lines };
}

/** The header the flags ask for, YEAR kept literally (as boilerplate() gives it). */
function newHeader(oldText: string, flags: LicenseFlags): string {
  if (flags.license !== undefined && !(LICENSES as readonly string[]).includes(flags.license)) {
    throw new KbtsError(`unknown license ${JSON.stringify(flags.license)}`, {
      where: "--license",
      fix: `use one of ${LICENSES.join(", ")}, or --license-file <path> for another header`,
    });
  }
  if (flags.owner !== undefined) validateOwner(flags.owner);
  if (flags.licenseFile !== undefined) {
    const text = readLicenseFile(flags.licenseFile).trimEnd();
    if (text !== "") checkHeaderIsComment(text, flags.licenseFile);
    return text;
  }
  const current = currentLicense(oldText);
  const license = (flags.license as License | undefined) ?? current?.license;
  if (license === undefined) {
    throw new KbtsError(`${BOILERPLATE} holds a header that is none of kbts' licenses`, {
      where: "--owner",
      fix: `give the license too (--license ${LICENSES.join("|")}), or the whole header with --license-file`,
    });
  }
  return boilerplate({ license, owner: flags.owner ?? current?.owner });
}

/** Which of kbts' licenses (and owner) a header is, if any. */
function currentLicense(text: string): { license: License; owner?: string } | undefined {
  if (text === "") return { license: "none" };
  const owner = /^Copyright YEAR (.+)\.$/m.exec(text)?.[1];
  for (const license of LICENSES) {
    for (const candidate of [owner, undefined]) {
      if (boilerplate({ license, owner: candidate }) === text) return { license, owner: candidate };
    }
  }
  return undefined;
}

/**
 * The old header at the very top of a file, YEAR standing for the year it was written with. Every
 * YEAR is that one year, as scaffolding stamps it: a header with different years was edited by hand.
 */
function headerPattern(text: string): RegExp {
  const parts = text.split(/\bYEAR\b/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const [first = "", ...rest] = parts;
  return new RegExp(`^${first}${rest.map((p, i) => (i === 0 ? `(\\d{4})${p}` : `\\1${p}`)).join("")}`);
}

/** The file with `next` instead of the old header, or undefined when it does not start with it. */
function replaceHeader(content: string, old: RegExp, next: string): string | undefined {
  const match = old.exec(content);
  if (!match) return undefined;
  const rest = content.slice(match[0].length);
  if (next === "") return rest.replace(/^\s*\n/, "");
  return `${stamp(next, match[1])}${rest}`;
}

/**
 * A project that had no header: the new one goes on every TypeScript file that starts with no
 * license block of its own (a `/*` comment that is not a `/**` doc comment).
 */
function addHeader(content: string, next: string): string | undefined {
  if (/^\/\*(?!\*)/.test(content.trimStart())) return undefined;
  if (isGenerated(content)) return content;
  return `${stamp(next, undefined)}\n\n${content}`;
}

/** YEAR as the year the file was first written with, else this year (what scaffolding stamps). */
function stamp(header: string, year: string | undefined): string {
  return header.replace(/\bYEAR\b/g, year ?? scaffoldYear());
}

/** Generated files (zz_generated.kinds.ts, `kbts generate --from-crd`) carry no license header. */
function isGenerated(content: string): boolean {
  return /^\/\/ Code generated .* DO NOT EDIT\.?$/m.test(content.split("\n", 3).join("\n"));
}

/** The project's .ts files, sorted; dependencies, builds and git are not the project's. */
function typeScriptFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(full);
      } else if (e.isFile() && e.name.endsWith(".ts")) {
        out.push(relative(root, full).split("\\").join("/"));
      }
    }
  };
  walk(root);
  return out.sort(compareStrings);
}
