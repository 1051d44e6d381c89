import { KbtsError } from "../errors.js";
import type { Registry } from "../markers/registry.js";
import { checkRbac, formatRbacReport } from "./check.js";

/**
 * `kbts manifests --check-rbac`: prints the report and fails (exit 1) when code uses a permission no
 * marker grants; unused grants and unresolved calls fail too with --strict.
 */
export async function runCheckRbac(
  flags: { paths?: string[]; strict?: boolean },
  markers: Registry,
  root = process.cwd(),
) {
  const report = await checkRbac({ root, markers, ...(flags.paths ? { paths: flags.paths } : {}) });
  process.stdout.write(formatRbacReport(report));
  const { missing, unused, unresolved } = report;
  const summary = `${missing.length} missing, ${unused.length} unused, ${unresolved.length} unresolved`;
  if (missing.length > 0) {
    throw new KbtsError(`check-rbac: ${summary}: the operator would be refused ("forbidden") at run time`, {
      fix: "add the +kubebuilder:rbac markers shown above (fix:), then run `kbts manifests`",
    });
  }
  if (flags.strict && unused.length + unresolved.length > 0) {
    throw new KbtsError(`check-rbac: ${summary} (an error with --strict)`, {
      fix: "remove the verbs no code uses from their markers; pass kinds as descriptors kbts can follow",
    });
  }
  process.stdout.write(`check-rbac: ${summary}\n`);
}
