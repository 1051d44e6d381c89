import { readFileSync } from "node:fs";
import { compareStrings } from "../compare.js";
import { KbtsError } from "../errors.js";
import { DEFAULT_PATHS, findSourceFiles } from "../loading/program.js";
import { MarkerCollector } from "../markers/collect.js";
import { formatLocation, instancesOf, type MarkerInstance, type Registry } from "../markers/registry.js";
import { ts } from "../ts/typescript.js";
import { type Permission, scanUsages, type Unresolved, type Usage } from "./check-usage.js";
import { type GuardRule, guardMarker } from "./guard-markers.js";
import { type RbacRule, rbacMarker } from "./markers.js";

/**
 * `kbts manifests --check-rbac`: the permissions the code uses (check-usage.ts) against those the
 * `+kubebuilder:rbac` markers grant. Used but not granted is a "forbidden" at run time (an error);
 * granted but never used breaks least privilege (reported; an error only with --strict, because code
 * kbts cannot follow may use it); calls whose kind cannot be followed are listed, never dropped.
 */

export interface RbacCheckOptions {
  root: string;
  /** Files whose markers make the role (as `kbts manifests --paths`); default api/** and internal/**. */
  paths?: string[];
  /** Every marker kbts understands (manifests/generators.ts): passed in, as the generators sit above rbac/. */
  markers: Registry;
}

/** One permission used by code and granted by no marker, at the call. */
export interface MissingPermission extends Permission {
  where: string;
  call: string;
}

/** One permission a marker grants that no call uses, at the marker. */
export interface UnusedPermission extends Permission {
  where: string;
  marker: string;
}

export interface RbacReport {
  missing: MissingPermission[];
  unused: UnusedPermission[];
  unresolved: Unresolved[];
}

/** Controller code lives in cmd/ as well; tests (`*.test.ts`, `*_test.ts`, test/) are not the operator. */
const USAGE_PATHS = ["cmd/**/*.ts", ...DEFAULT_PATHS];
const isTest = (file: string) => /(_test|\.test)\.ts$/.test(file) || /(^|\/)test\//.test(file);

/** What the markers grant and guard, and what the code uses: the inputs of --check-rbac and --explain-rbac. */
export async function scanGrantsAndUsages(opts: RbacCheckOptions): Promise<{
  grants: MarkerInstance<RbacRule>[];
  guards: MarkerInstance<GuardRule>[];
  usages: Usage[];
  unresolved: Unresolved[];
}> {
  const { root } = opts;
  const markerFiles = await findSourceFiles(root, opts.paths);
  // findSourceFiles refuses given paths that match nothing; here an empty cmd/ is fine.
  const code = await findSourceFiles(root, USAGE_PATHS).catch(() => []);
  const usageFiles = [...new Set([...code, ...markerFiles])]
    .filter((f) => !isTest(f.slice(root.length)))
    .sort(compareStrings);
  if (usageFiles.length === 0) {
    throw new KbtsError(`no TypeScript under cmd/, api/ or internal/ of ${root}`, {
      fix: "run `kbts manifests --check-rbac` at the root of a kbts project",
    });
  }
  const markers = packageMarkers(opts.markers, root, markerFiles);
  const { usages, unresolved } = await scanUsages(root, usageFiles);
  return {
    grants: instancesOf(markers, rbacMarker),
    guards: instancesOf(markers, guardMarker),
    usages,
    unresolved,
  };
}

export async function checkRbac(opts: RbacCheckOptions): Promise<RbacReport> {
  const { grants, usages, unresolved } = await scanGrantsAndUsages(opts);
  return compareGrants(grants, usages, unresolved);
}

function packageMarkers(registry: Registry, root: string, files: string[]): MarkerInstance[] {
  const collector = new MarkerCollector(registry, root);
  return files.flatMap((f) => {
    const sf = ts.createSourceFile(f, readFileSync(f, "utf8"), ts.ScriptTarget.Latest, true);
    return collector.packageMarkers(sf);
  });
}

const matches = (granted: string[] | undefined, wanted: string) =>
  (granted ?? []).some((g) => g === "*" || g === wanted);
const groupsOf = (rule: RbacRule) => (rule.groups ?? []).map((g) => (g === "core" ? "" : g));

function grants(rule: RbacRule, p: Permission): boolean {
  if ((rule.urls ?? []).length > 0) return false;
  return (
    matches(groupsOf(rule), p.group) && matches(rule.resources, p.resource) && matches(rule.verbs, p.verb)
  );
}

/** Pure comparison, so tests can hand it usages directly. */
export function compareGrants(
  markers: MarkerInstance<RbacRule>[],
  usages: Usage[],
  unresolved: Unresolved[],
): RbacReport {
  const missing = usages
    .filter((u) => !markers.some((m) => grants(m.value, u)))
    .map(({ group, resource, verb, where, call }) => ({ group, resource, verb, where, call }));
  const unused: UnusedPermission[] = [];
  for (const m of markers) {
    const rule = m.value;
    if ((rule.urls ?? []).length > 0) continue; // non-resource URLs are not reached through the client
    for (const group of groupsOf(rule))
      for (const resource of rule.resources ?? [])
        for (const verb of rule.verbs) {
          // A wildcard is unused only when nothing at all falls under it.
          const used = usages.some(
            (u) =>
              (group === "*" || group === u.group) &&
              (resource === "*" || resource === u.resource) &&
              (verb === "*" || verb === u.verb),
          );
          if (!used) unused.push({ group, resource, verb, where: formatLocation(m.loc), marker: m.text });
        }
  }
  return {
    missing: dedupe(missing),
    unused,
    unresolved: [...unresolved].sort((a, b) => byLocation(a.where, b.where)),
  };
}

function dedupe<T extends { where: string; group: string; resource: string; verb: string }>(xs: T[]): T[] {
  const seen = new Set<string>();
  return xs
    .filter((x) => {
      const k = `${x.where} ${x.group} ${x.resource} ${x.verb}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => byLocation(a.where, b.where));
}

/** file:line:col in file order, then line and column as numbers. */
export function byLocation(a: string, b: string): number {
  const pa = a.split(":");
  const pb = b.split(":");
  return (
    compareStrings(pa[0] ?? "", pb[0] ?? "") || Number(pa[1]) - Number(pb[1]) || Number(pa[2]) - Number(pb[2])
  );
}

const describe = (p: Permission) => `${p.verb} ${p.group === "" ? "" : `${p.group}/`}${p.resource}`;

/**
 * The report as printed: one line per finding, grouped; every missing permission with the marker that
 * grants it. Empty when all is well.
 */
export function formatRbacReport(report: RbacReport): string {
  const lines: string[] = [];
  // One marker per call site: the verbs of one call on one resource together.
  const byCall = new Map<string, MissingPermission[]>();
  for (const m of report.missing) {
    const k = `${m.where}\u0000${m.group}\u0000${m.resource}`;
    byCall.set(k, [...(byCall.get(k) ?? []), m]);
  }
  for (const ms of byCall.values()) {
    const first = ms[0] as MissingPermission;
    const verbs = ms.map((m) => m.verb);
    lines.push(
      `${first.where}: missing: ${verbs.join(", ")} on ${describe({ ...first, verb: "" }).trim()} (${first.call}) is not granted by any +kubebuilder:rbac marker`,
      `  fix: // +kubebuilder:rbac:groups=${first.group === "" ? '""' : first.group},resources=${first.resource},verbs=${verbs.join(";")}`,
    );
  }
  for (const u of report.unused) {
    lines.push(`${u.where}: unused: ${describe(u)} is granted but no code uses it`);
  }
  for (const u of report.unresolved) {
    lines.push(`${u.where}: unresolved: ${u.call}: ${u.reason}; check its permissions by hand`);
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}
