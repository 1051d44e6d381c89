import { describe, expect, it } from "vitest";
import { toYamlDocuments } from "../yaml/emit.js";
import { generateRoles } from "./generate.js";

describe("RBAC merge and sort (controller-gen GenerateRoles)", () => {
  it("merges resources with equal verbs, unions verbs of equal rules, sorts by key", () => {
    const roles = generateRoles(
      [
        { groups: ["crew.example.com"], resources: ["captains"], verbs: ["get", "list", "watch"] },
        { groups: ["crew.example.com"], resources: ["sailors"], verbs: ["watch", "list", "get"] },
        { groups: ["crew.example.com"], resources: ["captains/status"], verbs: ["get", "update", "patch"] },
        { groups: ["core"], resources: ["events"], verbs: ["create", "patch"] },
        { groups: ["crew.example.com"], resources: ["captains"], verbs: ["create"] },
        { urls: ["/metrics"], verbs: ["get"] },
        { groups: ["apps"], resources: ["deployments"], verbs: ["get", "*"] },
      ],
      "manager-role",
    );
    expect(toYamlDocuments(roles as never)).toBe(`---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- nonResourceURLs:
  - /metrics
  verbs:
  - get
- apiGroups:
  - ""
  resources:
  - events
  verbs:
  - create
  - patch
- apiGroups:
  - apps
  resources:
  - deployments
  verbs:
  - '*'
- apiGroups:
  - crew.example.com
  resources:
  - captains
  verbs:
  - create
  - get
  - list
  - watch
- apiGroups:
  - crew.example.com
  resources:
  - captains/status
  verbs:
  - get
  - patch
  - update
- apiGroups:
  - crew.example.com
  resources:
  - sailors
  verbs:
  - get
  - list
  - watch
`);
  });

  it("writes one Role per namespace after the ClusterRole, and honours roleName", () => {
    const roles = generateRoles(
      [
        { groups: [""], resources: ["secrets"], verbs: ["get"], namespace: "system" },
        { groups: [""], resources: ["pods"], verbs: ["get"] },
        { groups: [""], resources: ["configmaps"], verbs: ["get"], roleName: "other" },
      ],
      "manager-role",
    ) as { kind: string; metadata: { name: string; namespace?: string } }[];
    expect(roles.map((r) => [r.kind, r.metadata.name, r.metadata.namespace])).toEqual([
      ["ClusterRole", "manager-role", undefined],
      ["ClusterRole", "other", undefined],
      ["Role", "manager-role", "system"],
    ]);
  });

  it("writes nothing without rules", () => {
    expect(generateRoles([], "manager-role")).toEqual([]);
  });
});
