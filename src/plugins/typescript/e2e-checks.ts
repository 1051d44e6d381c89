import type { ResourceModel } from "../../project/resource.js";
import type { Scaffold } from "../../scaffold/scaffold.js";
import type { WebhookOptions } from "../types.js";

/** The project's e2e suite (templates/typescript/init/test/e2e/e2e.test.ts.hbs). */
export const E2E_TEST = "test/e2e/e2e.test.ts";

/** The check of a kind's admission webhooks (a fragment template). */
const WEBHOOK_CHECK_FRAGMENT = "typescript/fragments/e2e/webhook-check.ts.hbs";

/** Where `create webhook` adds a kind's check, inside the suite's describe. */
const CHECKS_MARKER = "e2e-webhooks-checks";

/** Where a plugin that narrows a webhook adds the manifest its check sends (see addWebhookCheckManifest). */
const MANIFESTS_MARKER = "e2e-webhook-check-manifests";

/**
 * The table the checks read, added with the first check (a suite without webhook checks has no use for
 * it, and an unused declaration is a lint warning in the project). Written as biome prints it.
 */
const MANIFESTS_TABLE = `  /**
   * The manifest a kind's webhook check sends, by apiVersion/kind, for kinds whose webhooks receive only
   * some objects (a namespaceSelector or matchConditions patched into config/webhook): the plugin that
   * narrows them adds here how to make one they receive. Other kinds send their sample, or a plain Pod.
   */
  const webhookCheckManifests: Record<string, () => Promise<string>> = {
    // +kubebuilder:scaffold:${MANIFESTS_MARKER}
  };
`;

/** The key of a kind in the table of webhook check manifests: its apiVersion/kind. */
export function webhookCheckKey(
  r: Pick<ResourceModel, "core" | "qualifiedGroup" | "version" | "kind">,
): string {
  return `${r.core ? "" : `${r.qualifiedGroup}/`}${r.version}/${r.kind}`;
}

/**
 * Adds a kind's webhook check to the e2e suite (the table of manifests with the first one): a server-side
 * dry run passes through the kind's admission webhooks, and the manager's request counter of each moves.
 * The formatter rewraps an inserted check, so a re-run finds it by its title, not by its lines.
 */
export function addWebhookCheck(
  s: Scaffold,
  r: ResourceModel,
  o: Pick<WebhookOptions, "defaulting" | "validation">,
  paths: { mutatePath: string; validatePath: string },
): void {
  const e2e = s.fs.read(E2E_TEST);
  const check = webhookCheck(s, r, o, paths);
  if (!check || e2e === undefined || e2e.includes(check.title)) return;
  const table = e2e.includes(`+kubebuilder:scaffold:${MANIFESTS_MARKER}`) ? [] : [MANIFESTS_TABLE];
  s.insert(E2E_TEST, { [CHECKS_MARKER]: [...table, check.code] });
}

/**
 * For a plugin that narrows a kind's webhooks (a namespaceSelector, matchConditions): the manifest their
 * check sends instead of the kind's own, as an entry of the suite's table (`"<apiVersion>/<kind>": async
 * () => { ...set-up...; return manifest; }`, indented as the table's entries are and printed as biome
 * prints it, so a re-run finds it and adds nothing). The kind's check must be there (addWebhookCheck).
 */
export function addWebhookCheckManifest(s: Scaffold, entry: string): void {
  s.insert(E2E_TEST, { [MANIFESTS_MARKER]: [entry.replace(/\n$/, "")] });
}

/**
 * The check test/e2e gets for a kind's admission webhooks: a server-side dry run of the kind's sample
 * (a Pod for Pod webhooks), or of what the table of manifests makes for it, passes through them, so the
 * manager's webhook request counter moves. Kinds with no object to send that passes the API server's own
 * validation (other built-in kinds) get none; the scaffolded caBundle check still covers their
 * configurations.
 */
function webhookCheck(
  s: Scaffold,
  r: ResourceModel,
  o: Pick<WebhookOptions, "defaulting" | "validation">,
  paths: { mutatePath: string; validatePath: string },
): { title: string; code: string } | undefined {
  const sample = `config/samples/${r.group}_${r.version}_${r.kindLower}.yaml`;
  let manifest: string;
  if (!r.core && s.fs.read(sample) !== undefined) {
    manifest = `inOperatorNamespace(readFileSync(${JSON.stringify(sample)}, "utf8"))`;
  } else if (r.core && r.kind === "Pod") {
    manifest = `JSON.stringify({
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "e2e-webhook-check", namespace },
          spec: { containers: [{ name: "app", image: "busybox" }] },
        })`;
  } else {
    return undefined;
  }
  const types = [o.defaulting ? "defaulting" : "", o.validation ? "validating" : ""].filter((t) => t !== "");
  const title = `it("calls the ${r.kind} ${types.join(" and ")} webhooks"`;
  const code = s.fragment(WEBHOOK_CHECK_FRAGMENT, {
    title,
    checkKey: webhookCheckKey(r),
    manifest,
    paths: [o.defaulting ? paths.mutatePath : "", o.validation ? paths.validatePath : ""].filter(
      (p) => p !== "",
    ),
  });
  return { title, code };
}
