import { t } from "../markers/args.js";
import { defineMarker, type MarkerDefinition } from "../markers/registry.js";

/** One `+kubebuilder:rbac:...` marker. */
export interface RbacRule {
  groups?: string[];
  resources?: string[];
  resourceNames?: string[];
  verbs: string[];
  urls?: string[];
  namespace?: string;
  roleName?: string;
}

export const rbacMarker = defineMarker<RbacRule>({
  name: "kubebuilder:rbac",
  targets: ["package"],
  args: {
    kind: "fields",
    fields: {
      groups: { type: t.strings, optional: true },
      resources: { type: t.strings, optional: true },
      resourceNames: { type: t.strings, optional: true },
      verbs: { type: t.strings },
      urls: { type: t.strings, optional: true },
      namespace: { type: t.string, optional: true },
      roleName: { type: t.string, optional: true },
    },
  },
  help: "a permission of the manager's role (groups, resources, resourceNames, verbs, urls, namespace, roleName)",
});

/** The markers the RBAC generator reads. */
export const rbacGeneratorMarkers: MarkerDefinition[] = [rbacMarker];
