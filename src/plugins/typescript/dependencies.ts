import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { KbtsError } from "../../errors.js";
import { type KbtsInstall, kbtsInstall, ownTarballs, readPackageJson } from "../../packaging/pack.js";
import { isNpmVersionSpec } from "../../project/names.js";
import { KBTS_ROOT } from "../../version.js";

/**
 * Where a scaffolded project gets kbts and @kbts/runtime from (`kbts init --runtime SPEC`):
 * - `registry` (default of a kbts installed from a registry, `npm i -g kbts`): the range matching this
 *   kbts (`^<version>`) for both packages, which `npm install` fetches from the registry like any other.
 * - `vendor` (default of a kbts installed from `make dist`'s tarball, for offline use): the two packages'
 *   tarballs are copied into the project's vendor/kbts/ and package.json names them
 *   (`file:vendor/kbts/kbts-<v>.tgz`), so the project installs with no checkout in sight (third-party
 *   packages from the registry), and its Docker build context is complete. A kbts from a registry
 *   carries no tarballs, so it cannot vendor them.
 * - `link` (default from a git checkout): `file:` paths to the checkout's runtime/ and root. npm links
 *   them, so the project follows the checkout as it changes (run `npx tsc -b` there). A development
 *   mode: such a project only installs on the machine that has the checkout.
 * - anything else is an npm version, range or dist-tag for both packages.
 */
export const VENDOR_DIR = "vendor/kbts";

/** A file kbts init copies into the project as it is (a vendored tarball). */
export interface VendoredFile {
  path: string;
  content: Uint8Array;
}

export interface DependencySpecs {
  runtimeSpec: string;
  kbtsSpec: string;
  /** Files to write into the project with the scaffold (empty unless `vendor`). */
  vendored: VendoredFile[];
}

const MODES = ["vendor", "link", "registry"];

/** The --runtime a project gets when init is given none: what fits where this kbts came from. */
export function defaultRuntimeMode(install: KbtsInstall = kbtsInstall()): "link" | "vendor" | "registry" {
  return install === "checkout" ? "link" : install === "tarball" ? "vendor" : "registry";
}

/** Checks SPEC without side effects (so bad input fails before anything is written). */
export function checkRuntimeSpec(spec: string | undefined, install: KbtsInstall = kbtsInstall()): void {
  if (spec === "link" && install !== "checkout") {
    throw new KbtsError(`--runtime ${spec} needs kbts to run from a source checkout`, {
      where: "--runtime",
      fix: `use --runtime ${defaultRuntimeMode(install)} (the default), registry or a version range such as ^0.1.0`,
    });
  }
  if (spec === "vendor" && install === "registry") {
    throw new KbtsError(
      `--runtime ${spec} needs kbts installed from \`make dist\`'s tarball: this kbts came from a registry and carries no tarballs to vendor`,
      {
        where: "--runtime",
        fix: "use --runtime registry (the default) or a version range such as ^0.1.0, or install kbts with `npm install -g ./kbts-<version>.tgz` for an offline project",
      },
    );
  }
  if (spec !== undefined && spec.trim() === "") {
    throw new KbtsError("--runtime is empty", {
      where: "--runtime",
      fix: "use vendor, link, registry or a version",
    });
  }
  // Anything else lands in package.json as a version: only npm's version grammar is accepted.
  if (spec !== undefined && !MODES.includes(spec) && !isNpmVersionSpec(spec)) {
    throw new KbtsError(`--runtime ${JSON.stringify(spec)} is not vendor, link, registry or an npm version`, {
      where: "--runtime",
      fix: "use vendor, link, registry, a version or range (0.1.0, ^0.1.0, >=0.1.0 <1) or a dist-tag (latest)",
    });
  }
}

export function resolveDependencySpecs(spec: string | undefined): DependencySpecs {
  checkRuntimeSpec(spec);
  const mode = spec ?? defaultRuntimeMode();
  if (mode === "link") {
    return {
      runtimeSpec: `file:${join(KBTS_ROOT, "runtime")}`,
      kbtsSpec: `file:${KBTS_ROOT}`,
      vendored: [],
    };
  }
  if (mode === "vendor") {
    const out = mkdtempSync(join(tmpdir(), "kbts-vendor-"));
    try {
      const tarballs = ownTarballs(out);
      const vendored = [tarballs.runtime, tarballs.kbts].map((file) => ({
        path: `${VENDOR_DIR}/${basename(file)}`,
        content: readFileSync(file),
      }));
      const [runtime, kbts] = vendored.map((f) => `file:${f.path}`) as [string, string];
      return { runtimeSpec: runtime, kbtsSpec: kbts, vendored };
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  const version = mode === "registry" ? `^${readPackageJson(KBTS_ROOT).version}` : mode;
  return { runtimeSpec: version, kbtsSpec: version, vendored: [] };
}

/** The Node.js LTS major a scaffolded Dockerfile builds on by default (its NODE_VERSION build argument). */
export const NODE_LTS_MAJOR = "24";

/**
 * Versions of the dev tools a project uses: the ones kbts itself is built and tested with. vite is
 * pinned as kbts pins it: vite 8.4 (through vitest) names an optional dependency the registry lacks,
 * so a lockfile npm writes without it makes `npm ci` (the Dockerfile's) refuse to install.
 *
 * A project's compiler is TypeScript 7, the one kbts builds with. kbts holds it under an alias
 * (`@typescript/native`: `npm:typescript@…`) because its own `typescript` is TypeScript 6, whose
 * compiler API TypeDoc and its tests need (7.0 has none); a project needs only the compiler.
 */
export function devToolVersions(): {
  biome: string;
  esbuild: string;
  typesNode: string;
  typescript: string;
  vite: string;
  vitest: string;
} {
  const pkg = readPackageJson(KBTS_ROOT);
  const dev = { ...pkg.dependencies, ...pkg.devDependencies };
  return {
    biome: dev["@biomejs/biome"] ?? "^2.6.8",
    esbuild: dev.esbuild ?? "^0.28.2",
    typesNode: dev["@types/node"] ?? "^20.19.0",
    typescript: dev["@typescript/native"]?.replace(/^npm:typescript@/, "") ?? "~7.0.2",
    vite: dev.vite ?? "8.3.8",
    vitest: dev.vitest ?? "~4.1.12",
  };
}
