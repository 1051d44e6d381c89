import type { WriteOptions } from "./write.js";

/** The flags of `kbts manifests` that generate and write. */
export interface ManifestsFlags {
  paths?: string[];
  crdOutput?: string;
  roleName?: string;
  allowDangerousTypes?: boolean;
  check?: boolean;
  strict?: boolean;
  /** false (`--no-cache`): always generate, and record nothing. */
  cache?: boolean;
  /** Regenerate on every save until interrupted. */
  watch?: boolean;
}

/** The generator's and writer's options for these flags. */
export function writeOptions(flags: ManifestsFlags, root: string): WriteOptions {
  return {
    root,
    ...(flags.paths ? { paths: flags.paths } : {}),
    ...(flags.crdOutput ? { crdOutput: flags.crdOutput } : {}),
    ...(flags.roleName ? { roleName: flags.roleName } : {}),
    allowDangerousTypes: flags.allowDangerousTypes ?? false,
    check: flags.check ?? false,
    strict: flags.strict ?? false,
  };
}
