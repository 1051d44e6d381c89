import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { KbtsError } from "../../errors.js";
import { isNpmVersionSpec } from "../../scaffold/encode.js";

/**
 * Where a scaffolded project gets kbts and @kbts/runtime from (`kbts init --runtime SPEC`):
 * - `link` (default when kbts runs from a git checkout): `file:` paths to the checkout's runtime/ and
 *   root. npm links them, so `npm install` needs no registry for them, and their own dependencies are
 *   already in the checkout's node_modules. The project follows the checkout as it changes
 *   (run `npx tsc -b` there so runtime/dist is current).
 * - `pack`: `npm pack` the checkout's runtime and CLI into ~/.cache/kbts/packs and reference the
 *   tarballs: a frozen copy; their dependencies come from the npm cache or registry.
 * - anything else is an npm version or range for both packages (`^0.1.0`, `0.1.0`, `latest`);
 *   `registry` means the range matching this kbts (the default of a published kbts).
 */
export const KBTS_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function kbtsPackage(): { version: string; devDependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(KBTS_ROOT, "package.json"), "utf8"));
}

export function isCheckout(root = KBTS_ROOT): boolean {
  return existsSync(join(root, "runtime", "package.json")) && existsSync(join(root, "src"));
}

export interface DependencySpecs {
  runtimeSpec: string;
  kbtsSpec: string;
}

/** Checks SPEC without side effects (so bad input fails before anything is written). */
export function checkRuntimeSpec(spec: string | undefined): void {
  if ((spec === "link" || spec === "pack") && !isCheckout()) {
    throw new KbtsError(`--runtime ${spec} needs kbts to run from a source checkout`, {
      where: "--runtime",
      fix: "use --runtime registry (or a version range such as ^0.1.0)",
    });
  }
  if (spec !== undefined && spec.trim() === "") {
    throw new KbtsError("--runtime is empty", {
      where: "--runtime",
      fix: "use link, pack, registry or a version",
    });
  }
  // Anything else lands in package.json as a version: only npm's version grammar is accepted.
  if (spec !== undefined && !["link", "pack", "registry"].includes(spec) && !isNpmVersionSpec(spec)) {
    throw new KbtsError(`--runtime ${JSON.stringify(spec)} is not link, pack, registry or an npm version`, {
      where: "--runtime",
      fix: "use link, pack, registry, a version or range (0.1.0, ^0.1.0, >=0.1.0 <1) or a dist-tag (latest)",
    });
  }
}

export function resolveDependencySpecs(spec: string | undefined): DependencySpecs {
  checkRuntimeSpec(spec);
  const mode = spec ?? (isCheckout() ? "link" : "registry");
  if (mode === "link") {
    return {
      runtimeSpec: `file:${join(KBTS_ROOT, "runtime")}`,
      kbtsSpec: `file:${KBTS_ROOT.replace(/\/$/, "")}`,
    };
  }
  if (mode === "pack") {
    const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "kbts", "packs");
    mkdirSync(dir, { recursive: true });
    return {
      runtimeSpec: `file:${pack(join(KBTS_ROOT, "runtime"), dir)}`,
      kbtsSpec: `file:${pack(KBTS_ROOT, dir)}`,
    };
  }
  const version = mode === "registry" ? `^${kbtsPackage().version}` : mode;
  return { runtimeSpec: version, kbtsSpec: version };
}

function pack(dir: string, destination: string): string {
  try {
    const out = execFileSync(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", destination],
      {
        cwd: dir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const [info] = JSON.parse(out) as Array<{ filename: string }>;
    if (!info) throw new Error("npm pack printed nothing");
    return join(destination, info.filename);
  } catch (err) {
    throw new KbtsError(`npm pack failed in ${dir}: ${err instanceof Error ? err.message : String(err)}`, {
      where: "--runtime pack",
      fix: "build the checkout first (npx tsc -b), or use --runtime link",
    });
  }
}

/** Versions of the dev tools a project uses: the ones kbts itself is built and tested with. */
export function devToolVersions(): { biome: string; typesNode: string; typescript: string; vitest: string } {
  const dev = kbtsPackage().devDependencies ?? {};
  return {
    biome: dev["@biomejs/biome"] ?? "^2.6.8",
    typesNode: dev["@types/node"] ?? "^20.19.0",
    typescript: dev.typescript ?? "~5.9.3",
    vitest: dev.vitest ?? "~4.1.12",
  };
}
