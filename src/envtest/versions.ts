import { compareVersions } from "@kbts/runtime/envtest";
import { KbtsError } from "../errors.js";

/** A parsed version request: an exact release, or the newest patch of a minor. */
export type VersionSpec =
  | { kind: "exact"; version: string }
  | { kind: "minor"; major: number; minor: number };

/** Accepts `1.36.3`, `v1.36.3`, `1.36`, `1.36.x`, `~1.36`. */
export function parseVersionSpec(input: string): VersionSpec {
  const s = input.trim().replace(/^[v~]/, "");
  let m = /^(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (m) return { kind: "exact", version: `${m[1]}.${m[2]}.${m[3]}` };
  m = /^(\d+)\.(\d+)(?:\.[x*])?$/.exec(s);
  if (m) return { kind: "minor", major: Number(m[1]), minor: Number(m[2]) };
  throw new KbtsError(`invalid Kubernetes version "${input}"`, {
    where: "VERSION",
    fix: "use a release like 1.36.3 or a minor like 1.36 (its newest patch)",
  });
}

/** Plain releases only (no -alpha/-rc), without the leading v. */
export function stableReleases(versions: string[]): string[] {
  return versions
    .map((v) => v.trim().replace(/^v/, ""))
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
    .sort(compareVersions);
}

/** The newest release in candidates that the spec accepts. */
export function pickVersion(spec: VersionSpec, candidates: string[]): string | undefined {
  const matching = stableReleases(candidates).filter((v) => {
    if (spec.kind === "exact") return v === spec.version;
    const [major, minor] = v.split(".").map(Number);
    return major === spec.major && minor === spec.minor;
  });
  return matching.at(-1);
}

/** The minor before version's, as a spec (`1.36.3` → `1.35`), for falling back when a release fails to build. */
export function previousMinor(version: string): VersionSpec | undefined {
  const [major = 1, minor = 0] = version.split(".").map(Number);
  return minor > 0 ? { kind: "minor", major, minor: minor - 1 } : undefined;
}

export function describeSpec(spec: VersionSpec): string {
  return spec.kind === "exact" ? spec.version : `${spec.major}.${spec.minor}.x`;
}
