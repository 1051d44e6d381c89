import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../cli/main.js";

/**
 * Golden projects: what a sequence of kbts commands writes, kept under testdata/ so a template
 * change shows up in review as a change of the generated files. `make testdata` regenerates them;
 * a unit test regenerates each into a temporary directory and compares, file by file.
 * Commands run in-process against the sources, with a fixed year (SOURCE_DATE_EPOCH) and registry
 * dependency ranges, so the output is the same on every machine.
 */
/** A kbts command line, or the hand-written files of a tutorial copied over the scaffold (a testdata/ directory). */
export type GoldenStep = string[] | { overlay: string };

export const GOLDEN_PROJECTS: Record<string, GoldenStep[]> = {
  "project-v1": [
    [
      "init",
      "--domain=testproject.org",
      "--repo=example.com/project-v1",
      "--project-name=project-v1",
      "--owner=The kbts authors",
      "--multigroup",
      "--runtime=registry",
      "--skip-install",
    ],
    ["create", "api", "--group=crew", "--version=v1", "--kind=Captain"],
    [
      "create",
      "api",
      "--group=crew",
      "--version=v1",
      "--kind=Admiral",
      "--plural=admirales",
      "--namespaced=false",
    ],
    ["create", "api", "--group=crew", "--version=v2", "--kind=Captain", "--controller=false"],
    ["create", "api", "--group=ship", "--version=v1beta1", "--kind=Frigate"],
    [
      "create",
      "webhook",
      "--group=crew",
      "--version=v1",
      "--kind=Captain",
      "--defaulting",
      "--programmatic-validation",
    ],
    ["create", "webhook", "--group=core", "--version=v1", "--kind=Pod", "--programmatic-validation"],
  ],
  // The GPUBudget operator (issue 6), written entirely by the gpu-budget/v1-alpha plugin.
  "project-gpubudget": [
    [
      "init",
      "--domain=lab.example.com",
      "--repo=lab.example.com/gpubudget",
      "--project-name=gpubudget",
      "--runtime=registry",
      "--skip-install",
    ],
    [
      "create",
      "api",
      "--group=capacity",
      "--version=v1alpha1",
      "--kind=GPUBudget",
      "--plugins=gpu-budget/v1-alpha",
    ],
  ],
};

// The CronTab tutorial (../shared/mission/building-an-operator.txt) in TypeScript: the scaffold, the
// tutorial's own code from testdata/tutorial-crontab/, then what make manifests and make generate write.
GOLDEN_PROJECTS["project-crontab"] = [
  [
    "init",
    "--domain=example.com",
    "--repo=example.com/crontab",
    "--project-name=crontab",
    "--runtime=registry",
    "--skip-install",
  ],
  ["create", "api", "--group=stable", "--version=v1", "--kind=CronTab"],
  { overlay: "tutorial-crontab" },
  ["manifests"],
  ["generate"],
];

// One kind in three versions (issue 15): v1alpha1 first, then v1 and v2; the types diverge
// (testdata/tutorial-multiversion/types), v1 becomes the conversion hub with v1alpha1 and v2 as spokes,
// and the scaffolded conversion stubs are filled in (tutorial-multiversion/conversion).
GOLDEN_PROJECTS["project-multiversion"] = [
  [
    "init",
    "--domain=example.com",
    "--repo=example.com/multiversion",
    "--project-name=multiversion",
    "--runtime=registry",
    "--skip-install",
  ],
  ["create", "api", "--group=cache", "--version=v1alpha1", "--kind=Memcached"],
  ["create", "api", "--group=cache", "--version=v1", "--kind=Memcached", "--controller=false"],
  ["create", "api", "--group=cache", "--version=v2", "--kind=Memcached", "--controller=false"],
  { overlay: "tutorial-multiversion/types" },
  [
    "create",
    "webhook",
    "--group=cache",
    "--version=v1",
    "--kind=Memcached",
    "--conversion",
    "--spoke=v1alpha1,v2",
  ],
  { overlay: "tutorial-multiversion/conversion" },
  ["manifests"],
  ["generate"],
];

/** 2026-01-01T00:00:00Z: the year in generated license headers. */
export const GOLDEN_EPOCH = "1767225600";

export const TESTDATA = fileURLToPath(new URL("../../testdata/", import.meta.url));

/** Runs the commands of one golden project in `dir` (created empty). */
export async function generateGolden(name: string, dir: string): Promise<void> {
  const steps = GOLDEN_PROJECTS[name];
  if (!steps) throw new Error(`unknown golden project ${name}`);
  await runGoldenSteps(steps, dir);
}

/** Runs kbts commands (and overlays) in `dir` (created empty), as the golden projects are made. */
export async function runGoldenSteps(steps: GoldenStep[], dir: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const cwd = process.cwd();
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const write = process.stdout.write;
  process.env.SOURCE_DATE_EPOCH = GOLDEN_EPOCH;
  process.chdir(dir);
  // The commands' "wrote ..." lines are noise here; errors still reach stderr.
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    for (const args of steps) {
      if (!Array.isArray(args)) {
        cpSync(join(TESTDATA, args.overlay), dir, { recursive: true });
        continue;
      }
      const code = await main(["node", "kbts", ...args]);
      if (code !== 0) throw new Error(`kbts ${args.join(" ")} exited ${code} in ${dir}`);
    }
  } finally {
    process.stdout.write = write;
    process.chdir(cwd);
    if (epoch === undefined) delete process.env.SOURCE_DATE_EPOCH;
    else process.env.SOURCE_DATE_EPOCH = epoch;
  }
}

/**
 * Every file of a tree (relative paths, sorted), without installed or built output. dist/chart is
 * kept: helm/v2-alpha's chart is source that lives beside the compiled output.
 */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === "node_modules") continue;
      if (e.name === "dist") {
        const chart = join(d, e.name, "chart");
        if (e.isDirectory() && existsSync(chart)) walk(chart);
        continue;
      }
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(relative(dir, full).split(sep).join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

export function readTree(dir: string): Map<string, string> {
  return new Map(listTree(dir).map((p) => [p, readFileSync(join(dir, p), "utf8")]));
}

/** `make testdata`: rewrites every golden project under testdata/ (built aside, then swapped in). */
export async function writeGoldenProjects(): Promise<void> {
  for (const name of Object.keys(GOLDEN_PROJECTS)) {
    const target = join(TESTDATA, name);
    const aside = `${target}.new-${process.pid}`;
    await generateGolden(name, aside);
    rmSync(target, { recursive: true, force: true });
    renameSync(aside, target);
    process.stderr.write(`regenerated testdata/${name}\n`);
  }
}
