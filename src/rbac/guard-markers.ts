import { t } from "../markers/args.js";
import { defineMarker } from "../markers/registry.js";

/**
 * `+kbts:guard`: what RBAC cannot say. A rule grants `patch` on every namespace; a guard says which
 * fields of it the manager's ServiceAccount may change, and `kbts manifests` turns it into a
 * ValidatingAdmissionPolicy that refuses that account's other changes (guards.ts).
 */
export interface GuardRule {
  groups: string[];
  resources: string[];
  verbs: string[];
  /** As written: `metadata.labels['key']`, `metadata.annotations['key']`, or a field path `spec.x`. */
  fields: string[];
}

/** One allowed field, parsed. */
export type GuardField =
  | { kind: "key"; map: "labels" | "annotations"; key: string; text: string }
  | { kind: "path"; path: string[]; text: string };

/** Writes that arrive as UPDATE: a guard narrows what they may change (create and delete cannot be). */
export const GUARD_VERBS = ["patch", "update"];

export const guardMarker = defineMarker<GuardRule>({
  name: "kbts:guard",
  targets: ["package"],
  args: {
    kind: "fields",
    fields: {
      groups: { type: t.strings },
      resources: { type: t.strings },
      verbs: { type: t.strings },
      fields: { type: t.strings },
    },
  },
  help: "the only fields the manager may change on resources a +kubebuilder:rbac rule lets it patch/update (groups, resources, verbs, fields=metadata.labels['key'];spec.x); enforced by a ValidatingAdmissionPolicy in config/rbac/write_guards.yaml",
  repeatable: true,
  convert: (args) => checkGuard(args as unknown as GuardRule),
});

function checkGuard(rule: GuardRule): GuardRule {
  const rule2 = { ...rule, groups: rule.groups.map((g) => (g === "core" ? "" : g)) };
  if (rule2.resources.length === 0 || rule2.resources.some((r) => r.trim() === "" || r === "*")) {
    throw new Error("resources must name the guarded resources (e.g. resources=namespaces); no wildcard");
  }
  if (rule2.resources.some((r) => r.includes("/"))) {
    throw new Error("a guard narrows the resource itself, not a subresource: drop the /subresource");
  }
  if (rule2.groups.includes("*")) throw new Error('groups must be named (groups="" for the core group)');
  const bad = rule2.verbs.filter((v) => !GUARD_VERBS.includes(v));
  if (rule2.verbs.length === 0 || bad.length > 0) {
    throw new Error(
      `verbs ${bad.length ? bad.join(";") : "is empty"}: a guard narrows writes of existing objects, verbs=patch;update (both arrive as UPDATE); create and delete cannot be narrowed by field`,
    );
  }
  if (rule2.fields.length === 0) throw new Error("fields is empty: name what the manager may change");
  for (const f of rule2.fields) parseGuardField(f);
  return rule2;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Parses one `fields=` entry; throws an Error saying what is wrong. */
export function parseGuardField(text: string): GuardField {
  const key = /^metadata\.(labels|annotations)\['([^'\\]+)'\]$/.exec(text);
  if (key) return { kind: "key", map: key[1] as "labels" | "annotations", key: key[2] as string, text };
  const path = text.split(".");
  if (text.includes("[") || path.some((p) => !IDENT.test(p))) {
    throw new Error(
      `field ${JSON.stringify(text)} is not a field path: write metadata.labels['key'], metadata.annotations['key'] or a dotted path such as spec.replicas`,
    );
  }
  return { kind: "path", path, text };
}
