import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { KbtsError } from "../errors.js";
import { KBTS_ROOT } from "../version.js";
import { BUNDLES, cliBundleIsCurrent } from "./cli-bundle.js";

/**
 * kbts' two npm packages as tarballs for offline use (`make dist`, and `kbts init` vendoring them into a
 * project):
 * - kbts-runtime-<v>.tgz: `npm pack` of runtime/ (@kbts/runtime, its compiled dist/ only);
 * - kbts-<v>.tgz: the CLI (bin/, dist/, templates/) with @kbts/runtime bundled, so
 *   `npm install -g ./kbts-<v>.tgz` needs nothing but the registry (for third-party packages), and the
 *   runtime tarball in vendor/, so an installed kbts carries both tarballs `kbts init` vendors into a
 *   project.
 * `npm publish` (each package's `prepack` builds it) publishes the packages as they are instead: kbts
 * depends on @kbts/runtime by version and has no vendor/, which is how an installed kbts tells it came
 * from a registry.
 */

/** The folder inside the kbts package that holds the runtime tarball. */
const VENDOR = "vendor";

/**
 * Where kbts runs from: a source checkout (runtime/ and src/ beside it), a package installed from
 * `make dist`'s tarball (which carries the runtime tarball in vendor/), or one installed from a registry
 * (`npm i -g kbts`: @kbts/runtime is a dependency like any other, and there is no vendor/).
 */
export type KbtsInstall = "checkout" | "tarball" | "registry";

export function kbtsInstall(root = KBTS_ROOT): KbtsInstall {
  if (existsSync(join(root, "runtime", "package.json")) && existsSync(join(root, "src"))) return "checkout";
  return existsSync(join(root, VENDOR)) ? "tarball" : "registry";
}

interface PackageJson {
  name: string;
  version: string;
  description?: string;
  type?: string;
  license?: string;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  files?: string[];
  bundleDependencies?: string[];
}

export function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
}

/** npm pack's file name for a package: @scope/name@1.2.3 → scope-name-1.2.3.tgz. */
export function tarballName(pkg: Pick<PackageJson, "name" | "version">): string {
  return `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.version}.tgz`;
}

export interface Tarballs {
  /** Absolute path of kbts-<v>.tgz. */
  kbts: string;
  /** Absolute path of kbts-runtime-<v>.tgz. */
  runtime: string;
}

function npmPack(dir: string, destination: string): string {
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
    const e = err as { stderr?: string; message: string };
    throw new KbtsError(`npm pack failed in ${dir}: ${(e.stderr || e.message).trim()}`);
  }
}

/**
 * kbts' package.json as published: @kbts/runtime is bundled (in node_modules/ of the tarball, since it
 * is on no registry yet) at its exact version, and its dependencies are kbts' own, so npm installs
 * them beside it, where Node's resolution finds them from the bundled copy.
 */
function publishedPackageJson(cli: PackageJson, runtime: PackageJson): PackageJson {
  const dependencies: Record<string, string> = { ...cli.dependencies };
  for (const [name, range] of Object.entries(runtime.dependencies ?? {})) {
    if (dependencies[name] !== undefined && dependencies[name] !== range) {
      throw new KbtsError(
        `package.json asks for ${name}@${dependencies[name]} but runtime/package.json for ${name}@${range}: kbts and the runtime it bundles must agree`,
        { where: "package.json", fix: `use the same range for ${name} in both` },
      );
    }
    dependencies[name] = range;
  }
  dependencies[runtime.name] = runtime.version;
  return {
    name: cli.name,
    version: cli.version,
    description: cli.description,
    type: cli.type,
    license: cli.license,
    bin: cli.bin,
    files: [...(cli.files ?? []), VENDOR],
    engines: cli.engines,
    dependencies,
    bundleDependencies: [runtime.name],
    // Not installed with kbts; kept as the versions a scaffolded project's dev tools are pinned to.
    devDependencies: cli.devDependencies,
  };
}

/**
 * `npm pack` of kbts from `root` (a checkout or an installed kbts) with package.json `pkg`, the
 * runtime tarball in vendor/ and unpacked in node_modules/ (the bundled copy).
 */
function packCli(root: string, pkg: PackageJson, runtimeTarball: string, destination: string): string {
  const stage = mkdtempSync(join(tmpdir(), "kbts-pack-"));
  try {
    for (const dir of pkg.files ?? []) {
      if (dir !== VENDOR) cpSync(join(root, dir), join(stage, dir), { recursive: true });
    }
    // npm does not keep file times, so bin/kbts.js cannot tell a stale bundle from the tarball: leave a
    // stale one out (the CLI then runs unbundled, the same but slower to start).
    for (const bundle of BUNDLES) {
      if (!cliBundleIsCurrent(root, bundle)) rmSync(join(stage, bundle), { force: true });
    }
    for (const doc of ["README.md", "LICENSE"]) {
      if (existsSync(join(root, doc))) copyFileSync(join(root, doc), join(stage, doc));
    }
    mkdirSync(join(stage, VENDOR));
    copyFileSync(runtimeTarball, join(stage, VENDOR, basename(runtimeTarball)));
    const bundled = join(stage, "node_modules", ...(pkg.bundleDependencies?.[0] ?? "").split("/"));
    mkdirSync(bundled, { recursive: true });
    execFileSync("tar", ["xzf", runtimeTarball, "-C", bundled, "--strip-components=1"]);
    // npm takes a bundled package's dependencies to be in the bundle too, and would install none of
    // them: the bundled copy declares none, and kbts' package.json declares them (see above).
    const bundledPkg = readPackageJson(bundled);
    delete bundledPkg.dependencies;
    writeFileSync(join(bundled, "package.json"), `${JSON.stringify(bundledPkg, null, 2)}\n`);
    writeFileSync(join(stage, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
    return npmPack(stage, destination);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * Packs a checkout's two packages into `destination`. The checkout must be built (`npx tsc -b`):
 * the packages ship compiled JavaScript only.
 */
export function packCheckout(destination: string, root = KBTS_ROOT): Tarballs {
  for (const built of ["dist/cli/main.js", "runtime/dist/index.js"]) {
    if (!existsSync(join(root, built))) {
      throw new KbtsError(`${join(root, built)} is missing: the checkout is not built`, {
        fix: "run `npx tsc -b tsconfig.json` (or `make build`) in the checkout first",
      });
    }
  }
  mkdirSync(destination, { recursive: true });
  const runtime = npmPack(join(root, "runtime"), destination);
  const pkg = publishedPackageJson(readPackageJson(root), readPackageJson(join(root, "runtime")));
  return { kbts: packCli(root, pkg, runtime, destination), runtime };
}

/**
 * The tarballs of the running kbts, into `destination`: packed from the checkout, or, for an installed
 * kbts, its own package packed again with the runtime tarball it carries in vendor/.
 */
export function ownTarballs(destination: string): Tarballs {
  const install = kbtsInstall();
  if (install === "checkout") return packCheckout(destination);
  if (install === "registry") {
    throw new KbtsError(
      `kbts in ${KBTS_ROOT} was installed from a registry and carries no tarballs to vendor`,
      {
        fix: "depend on the published packages (kbts init --runtime registry, the default here), or install kbts from `make dist`'s tarball for offline projects",
      },
    );
  }
  const pkg = readPackageJson(KBTS_ROOT);
  const name = pkg.bundleDependencies?.[0] ?? "@kbts/runtime";
  const runtimeFile = join(KBTS_ROOT, VENDOR, tarballName({ name, version: pkg.dependencies?.[name] ?? "" }));
  if (!existsSync(runtimeFile)) {
    throw new KbtsError(`${runtimeFile} is missing: this kbts installation is incomplete`, {
      fix: "reinstall kbts from its tarball (npm install -g ./kbts-<version>.tgz)",
    });
  }
  mkdirSync(destination, { recursive: true });
  const runtime = join(destination, basename(runtimeFile));
  copyFileSync(runtimeFile, runtime);
  return { kbts: packCli(KBTS_ROOT, pkg, runtime, destination), runtime };
}
