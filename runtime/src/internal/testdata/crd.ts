/**
 * A CRD for tests whose spec and status take any fields (x-kubernetes-preserve-unknown-fields), with
 * a status subresource: for tests about watching, caching and applying a custom kind, not its schema.
 */
export function schemalessCRD(o: {
  group: string;
  kind: string;
  plural: string;
  scope: "Namespaced" | "Cluster";
  version?: string;
}) {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${o.plural}.${o.group}` },
    spec: {
      group: o.group,
      names: { kind: o.kind, plural: o.plural, singular: o.kind.toLowerCase(), listKind: `${o.kind}List` },
      scope: o.scope,
      versions: [
        {
          name: o.version ?? "v1",
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
                status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
              },
            },
          },
        },
      ],
    },
  };
}
