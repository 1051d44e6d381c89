/**
 * Golden projects: what a sequence of kbts commands writes, kept under testdata/ so a template
 * change shows up in review as a change of the generated files. `make testdata` regenerates them;
 * a unit test regenerates each into a temporary directory and compares, file by file.
 * Commands run in-process against the sources, with a fixed year (SOURCE_DATE_EPOCH) and registry
 * dependency ranges, so the output is the same on every machine.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../src/cli/main.js";
import { setupEnvtest } from "../src/envtest/setup.js";

/**
 * A kbts command line; the hand-written files of a tutorial copied over the scaffold (a testdata/
 * directory); one testdata/ file copied into the project (`copy` to `to`); or what `make
 * build-installer` writes: `kubectl kustomize <kustomize>` into `output`, with the kubectl of the
 * installed control plane (`make tools`), so every machine writes the same manifests.
 */
export type GoldenStep =
  | string[]
  | { overlay: string }
  | { copy: string; to: string }
  | { kustomize: string; output: string };

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

// Issue 31's Memcached operator: Kubebuilder's deploy-image example (its project-v4-with-plugins
// flags), whose scaffolded controller is built on dependent resources; the README counts its lines
// beside the hand-written versions (testdata/memcached-lines.test.ts keeps the count true).
GOLDEN_PROJECTS["project-memcached"] = [
  [
    "init",
    "--domain=testproject.org",
    "--repo=example.com/memcached",
    "--project-name=memcached",
    "--runtime=registry",
    "--skip-install",
  ],
  [
    "create",
    "api",
    "--group=example.com",
    "--version=v1alpha1",
    "--kind=Memcached",
    "--image=memcached:1.6.26-alpine3.19",
    "--image-container-command=memcached,--memory-limit=64,-o,modern,-v",
    "--image-container-port=11211",
    "--run-as-user=1001",
    "--plugins=deploy-image/v1-alpha",
  ],
  { overlay: "tutorial-memcached" },
  ["manifests"],
  ["generate"],
];

// One kind in three versions (issue 15): v1alpha1 first, then v1 and v2; the types diverge
// (testdata/tutorial-multiversion/types), v1 becomes the conversion hub with v1alpha1 and v2 as spokes,
// and the scaffolded conversion stubs are filled in (tutorial-multiversion/conversion).
// Issue 16's third golden project, Kubebuilder's project-v4-with-plugins in kbts: a namespaced
// operator (WATCH_NAMESPACE, a Role) with the Helm and Grafana plugins, a CRD of its own, a controller
// for a built-in kind (apps/v1 Deployment) and one for a third-party CRD's kind (cert-manager's
// Certificate, types generated from the CRD file in hack/). Then a custom-metrics dashboard from a
// config of the user's, `make build-installer` (manifests, kustomize) and the chart made from its
// output, as `make helm-chart` does.
GOLDEN_PROJECTS["project-platform"] = [
  [
    "init",
    "--domain=example.com",
    "--repo=example.com/platform",
    "--project-name=platform",
    "--namespaced",
    "--plugins=helm/v2-alpha,grafana/v1-alpha",
    "--runtime=registry",
    "--skip-install",
  ],
  ["create", "api", "--group=platform", "--version=v1alpha1", "--kind=Tenant"],
  ["create", "api", "--group=apps", "--version=v1", "--kind=Deployment", "--resource=false", "--controller"],
  { copy: "external-crds/cert-manager.io_certificates.yaml", to: "hack/certificates.yaml" },
  [
    "create",
    "api",
    "--group=cert-manager",
    "--version=v1",
    "--kind=Certificate",
    "--resource=false",
    "--controller",
    "--external-api-path=hack/certificates.yaml",
    "--external-api-domain=io",
  ],
  { copy: "grafana/custom-metrics.yaml", to: "grafana/custom-metrics/config.yaml" },
  ["edit", "--plugins=grafana/v1-alpha"],
  ["manifests"],
  { kustomize: "config/default", output: "dist/install.yaml" },
  ["edit", "--plugins=helm/v2-alpha"],
];

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

export const TESTDATA = fileURLToPath(new URL("./", import.meta.url));

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
  await continueGoldenSteps(steps, dir);
}

/** Runs more golden steps in a project directory `dir` as it is (e.g. make manifests after alpha generate). */
export async function continueGoldenSteps(steps: GoldenStep[], dir: string): Promise<void> {
  const cwd = process.cwd();
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const write = process.stdout.write;
  process.env.SOURCE_DATE_EPOCH = GOLDEN_EPOCH;
  process.chdir(dir);
  // The commands' "wrote ..." lines are noise here; errors still reach stderr.
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    for (const args of steps) {
      if ("overlay" in args) {
        cpSync(join(TESTDATA, args.overlay), dir, { recursive: true });
        continue;
      }
      if ("copy" in args) {
        mkdirSync(dirname(join(dir, args.to)), { recursive: true });
        cpSync(join(TESTDATA, args.copy), join(dir, args.to));
        continue;
      }
      if ("kustomize" in args) {
        await kustomize(dir, args.kustomize, args.output);
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

/** `$(KUBECTL) kustomize <dir> > <output>` in the project, as its make build-installer runs it. */
async function kustomize(project: string, dir: string, output: string): Promise<void> {
  let kubectl: string;
  try {
    kubectl = join((await setupEnvtest({ installedOnly: true })).dir, "kubectl");
  } catch (err) {
    throw new Error(
      `the golden projects' kustomize step needs the control plane's kubectl: run make tools first (${(err as Error).message})`,
    );
  }
  const manifests = execFileSync(kubectl, ["kustomize", dir], { cwd: project, encoding: "utf8" });
  mkdirSync(dirname(join(project, output)), { recursive: true });
  writeFileSync(join(project, output), manifests);
}

/**
 * Every file of a tree (relative paths, sorted), without installed or built output. dist/chart and
 * dist/install.yaml are kept: helm/v2-alpha's chart is source that lives beside the compiled output,
 * and is made from the kustomize output (make build-installer's dist/install.yaml).
 */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === "node_modules") continue;
      if (e.name === "dist") {
        const chart = join(d, e.name, "chart");
        if (e.isDirectory() && existsSync(chart)) walk(chart);
        const installer = join(d, e.name, "install.yaml");
        if (e.isDirectory() && existsSync(installer)) out.push(relative(dir, installer).split(sep).join("/"));
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
    try {
      await generateGolden(name, aside);
    } catch (err) {
      rmSync(aside, { recursive: true, force: true });
      throw err;
    }
    rmSync(target, { recursive: true, force: true });
    renameSync(aside, target);
    process.stderr.write(`regenerated testdata/${name}\n`);
  }
}
