import type { CustomResourceDefinition } from "../crd/types.js";
import { KbtsError } from "../errors.js";
import { generateManifests, type ManifestOptions } from "../manifests/generate.js";
import { type BreakingChange, type BreakingReport, compareCrds } from "./compare.js";
import { withCheckoutAt } from "./git.js";
import { siteCollector } from "./sources.js";

export interface BreakingOptions extends Omit<ManifestOptions, "root" | "visitMarkers" | "unchecked"> {
  /** The project root today. */
  root: string;
  /** The git ref (branch, tag, commit) whose CRDs are the base. */
  since: string;
}

export interface BreakingResult extends BreakingReport {
  /** The commit the ref named. */
  commit: string;
  /** How many CRDs the base had. */
  compared: number;
  /** The project did not exist at the ref (nothing to compare). */
  missing: boolean;
  warnings: { where: string; message: string }[];
}

/**
 * `kbts manifests --breaking-since <ref>`: the CRDs generated from the project at `ref` (in a
 * temporary worktree, by this same kbts, in process) against today's. Writes nothing.
 */
export async function findBreakingChanges(opts: BreakingOptions): Promise<BreakingResult> {
  const { since, root, ...generation } = opts;
  const { sites, visit } = siteCollector(root);
  // The ref is checked first: a wrong one is reported before anything is generated.
  return withCheckoutAt(root, since, async ({ commit, root: baseRoot, missing }) => {
    const today = await generateManifests({ ...generation, root, visitMarkers: visit });
    const after = [...today.crds.values()];
    const warnings = today.warnings;
    if (missing) return { changes: [], safe: [], commit, compared: 0, missing, warnings };
    let before: CustomResourceDefinition[];
    try {
      // The base is generated as it was: kbts' own checks may have grown stricter since.
      const base = await generateManifests({ ...generation, root: baseRoot, unchecked: true });
      before = [...base.crds.values()];
    } catch (err) {
      if (!(err instanceof KbtsError)) throw err;
      throw new KbtsError(
        `could not generate the CRDs at ${since} (${commit.slice(0, 12)}):\n  ${err.format().replaceAll("\n", "\n  ")}`,
        {
          where: "--breaking-since",
          fix: "compare with a ref whose API types kbts can read (a later tag or commit)",
        },
      );
    }
    return { ...compareCrds(before, after, sites), commit, compared: before.length, missing, warnings };
  });
}

/** One change as the CLI prints it: what, where, and the marker that made it. */
export function formatChange(c: BreakingChange): string {
  const head = `${c.crd}${c.version ? ` ${c.version}` : ""}${c.path ? ` ${c.path}` : ""}: ${c.message}`;
  const by = c.marker ? `by ${c.marker} at ${c.where}` : c.where ? `at ${c.where}` : "";
  const lines = [head];
  if (by) lines.push(`  ${by}`);
  if (c.accepted) lines.push(`  accepted at ${c.accepted.where}: ${c.accepted.reason}`);
  return lines.join("\n");
}

/** The report as the CLI prints it: safe-looking changes, accepted ones, then the breaking ones. */
export function formatReport(result: BreakingResult, since: string): { text: string; breaking: number } {
  const ref = `${since} (${result.commit.slice(0, 12)})`;
  if (result.missing)
    return { text: `the project did not exist at ${ref}: nothing to compare\n`, breaking: 0 };
  const lines: string[] = [];
  for (const s of result.safe) {
    const at = `${s.crd} ${s.version}${s.path ? ` ${s.path}` : ""}`;
    lines.push(`not breaking: ${at}: ${s.message}${s.where ? `\n  at ${s.where}` : ""}`);
  }
  const accepted = result.changes.filter((c) => c.accepted);
  const breaking = result.changes.filter((c) => !c.accepted);
  for (const c of accepted) lines.push(`accepted: ${formatChange(c)}`);
  for (const c of breaking) lines.push(`breaking: ${formatChange(c)}`);
  const summary = `${result.compared} CRD(s) compared with ${ref}`;
  lines.push(
    breaking.length === 0
      ? `no breaking changes: ${summary}${accepted.length ? `; ${accepted.length} accepted` : ""}`
      : `${breaking.length} breaking change(s): ${summary}`,
  );
  return { text: `${lines.join("\n")}\n`, breaking: breaking.length };
}

/** Runs the gate and prints its report; throws (exit 1) when a change breaks and is not accepted. */
export async function runBreakingSince(opts: BreakingOptions): Promise<void> {
  const result = await findBreakingChanges(opts);
  for (const w of result.warnings) process.stderr.write(`warning: ${w.where}: ${w.message}\n`);
  const { text, breaking } = formatReport(result, opts.since);
  process.stdout.write(text);
  if (breaking === 0) return;
  throw new KbtsError(`${breaking} breaking change(s) since ${opts.since}`, {
    fix:
      'keep the old behaviour, or accept a change on purpose with // +kbts:breaking:accept="reason" on the field ' +
      "(for a removed field, on the field or type that held it; for a version, scope or storage change, on the kind's type), " +
      'and for a storage version change say how objects move: // +kbts:breaking:migration="..."',
  });
}
