/**
 * Scaffolded projects' own e2e suites, as their CI runs them: `kbts init` and `create api` / `create
 * webhook` (or a plugin's `create api`) with the built CLI, its dependencies installed
 * (e2e/support/installs.ts), then `make setup-test-e2e test-e2e` (a local control plane in cluster
 * mode, the operator deployed with `make deploy` and run on this host with its pod's identity) and
 * `make cleanup-test-e2e`, which must leave no process behind. Each project pins its suite's test count, so a check that is
 * skipped (or never scaffolded) fails here.
 */
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { cmdlineOf, processes } from "../runtime/src/internal/proc.js";
import { descendantsOf, programsOf, stillRunning } from "./support/envtest-cli.js";
import { installDependencies } from "./support/installs.js";
import { runMake } from "./support/make.js";
import { KBTS } from "./support/paths.js";

/** A project to scaffold, and how many checks its scaffolded test/e2e holds. */
interface ScaffoldedProject {
  name: string;
  /** The kbts commands that write it, in order, run in its directory. */
  commands: string[][];
  tests: number;
}

const PROJECTS: ScaffoldedProject[] = [
  {
    // A kind with defaulting and validating webhooks, and a Pod webhook that receives every pod.
    name: "memcached",
    commands: [
      ["init", "--domain", "example.com", "--repo", "example.com/memcached", "--skip-install"],
      ["create", "api", "--group", "cache", "--version", "v1alpha1", "--kind", "Memcached"],
      ["create", "webhook", "--group", "cache", "--version", "v1alpha1", "--kind", "Memcached"].concat([
        "--defaulting",
        "--programmatic-validation",
      ]),
      [
        "create",
        "webhook",
        "--group",
        "core",
        "--version",
        "v1",
        "--kind",
        "Pod",
        "--programmatic-validation",
      ],
    ],
    tests: 6,
  },
  {
    // The GPUBudget operator: its Pod webhook receives only GPU pods in namespaces a Deny budget labels.
    name: "gpubudget",
    commands: [
      ["init", "--domain", "lab.example.com", "--repo", "lab.example.com/gpubudget", "--skip-install"],
      ["create", "api", "--group", "capacity", "--version", "v1alpha1", "--kind", "GPUBudget"].concat([
        "--plugins",
        "gpu-budget/v1-alpha",
      ]),
    ],
    tests: 5,
  },
  {
    // A hub with two spokes: conversion served with the certificate rotator's CA (no cert-manager), and a
    // check that reads the sample back in every version.
    name: "multiversion",
    commands: [
      ["init", "--domain", "example.com", "--repo", "example.com/multiversion", "--skip-install"],
      ["create", "api", "--group", "cache", "--version", "v1alpha1", "--kind", "Memcached"],
      ["create", "api", "--group", "cache", "--version", "v1", "--kind", "Memcached", "--controller=false"],
      ["create", "api", "--group", "cache", "--version", "v2", "--kind", "Memcached", "--controller=false"],
      ["create", "webhook", "--group", "cache", "--version", "v1", "--kind", "Memcached"].concat([
        "--conversion",
        "--spoke",
        "v1alpha1,v2",
      ]),
    ],
    tests: 5,
  },
];

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-scaffold-e2e-"));
// The make targets find the control plane binaries here; KUBECONFIG unset: the local control plane it is.
const env = { KUBEBUILDER_ASSETS: process.env.KUBEBUILDER_ASSETS ?? "", KUBECONFIG: undefined };
const make = (project: string, targets: string[]) => runMake(project, targets, env, { ci: false });

/** Processes whose working directory is in the project: the control plane, its components, the manager. */
function processesInProject(project: string): string[] {
  const found: string[] = [];
  for (const { pid } of processes()) {
    try {
      if (!readlinkSync(`/proc/${pid}/cwd`).startsWith(project)) continue;
      found.push(`${pid} ${cmdlineOf(pid).replaceAll("\0", " ")}`);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/**
 * The local control plane of make setup-test-e2e: `kbts envtest start` (its pid is in .e2e/envtest.pid)
 * and every process under it (etcd, kube-apiserver, the cluster-mode components, their watchdogs).
 */
function controlPlane(project: string): number[] {
  const root = Number(readFileSync(join(project, ".e2e", "envtest.pid"), "utf8"));
  return [root, ...descendantsOf(root)];
}

afterAll(async () => {
  for (const { name } of PROJECTS) await make(join(work, name), ["cleanup-test-e2e"]);
  rmSync(work, { recursive: true, force: true });
});

for (const { name, commands, tests } of PROJECTS) {
  const project = join(work, name);

  describe.sequential(`the scaffolded test/e2e of ${name}`, () => {
    it("is scaffolded by the built kbts and its dependencies install", async () => {
      mkdirSync(project, { recursive: true });
      for (const args of commands) {
        const r = await execa("node", [KBTS, ...args], { cwd: project, all: true, reject: false });
        expect(r.exitCode, `kbts ${args.join(" ")}\n${r.all}`).toBe(0);
      }
      const install = await installDependencies(project);
      expect(install.exitCode, install.all).toBe(0);
    }, 300_000);

    it(`make setup-test-e2e test-e2e deploys the operator and passes its ${tests} checks`, async () => {
      const r = await make(project, ["setup-test-e2e", "test-e2e"]);
      expect(r.exitCode, r.all).toBe(0);
      expect(r.all).toContain("setup-test-e2e: local control plane ready");
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips vitest's colours
      const plain = r.all.replace(/\x1b\[[0-9;]*m/g, "");
      expect(plain).toMatch(new RegExp(`Tests\\s+${tests} passed \\(${tests}\\)`));
    }, 600_000);

    it("make cleanup-test-e2e stops the control plane and leaves no process", async () => {
      expect(processesInProject(project)).not.toEqual([]);
      const plane = controlPlane(project);
      expect(programsOf(plane)).toEqual(
        expect.arrayContaining([
          "etcd",
          "kube-apiserver",
          "kube-controller-manager",
          "kube-scheduler",
          "kwok",
        ]),
      );
      const r = await make(project, ["cleanup-test-e2e"]);
      expect(r.exitCode, r.all).toBe(0);
      expect(r.all).toContain("cleanup-test-e2e: stopped the local control plane");
      expect(stillRunning(plane)).toEqual([]);
      expect(processesInProject(project)).toEqual([]);
    }, 120_000);
  });
}
