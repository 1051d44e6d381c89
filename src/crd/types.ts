import type {
  CustomResourceDefinitionNames,
  CustomResourceDefinition as CustomResourceDefinitionObject,
  CustomResourceDefinitionVersion,
  JSONSchemaProps,
  ObjectMeta,
} from "@kbts/runtime";

/**
 * The CustomResourceDefinition kbts writes: the runtime's apiextensions.k8s.io/v1 type, narrowed to
 * what a generated CRD always has (a name, a spec, a schema per version, all names).
 */
export type CrdVersion = CustomResourceDefinitionVersion & { schema: { openAPIV3Schema: JSONSchemaProps } };

type Spec = NonNullable<CustomResourceDefinitionObject["spec"]>;

export type CustomResourceDefinition = Omit<
  CustomResourceDefinitionObject,
  "apiVersion" | "kind" | "metadata" | "spec" | "status"
> & {
  apiVersion: "apiextensions.k8s.io/v1";
  kind: "CustomResourceDefinition";
  metadata: Required<Pick<ObjectMeta, "name">> & Pick<ObjectMeta, "annotations" | "labels">;
  spec: Omit<Spec, "names" | "versions" | "scope"> & {
    /** Looser than the runtime's: controller-gen writes +kubebuilder:resource:scope as given. */
    scope: string;
    names: CustomResourceDefinitionNames & { listKind: string; singular: string };
    versions: CrdVersion[];
  };
};

/**
 * Whether an object read from a manifests file is a CRD. By its kind only: a file someone else wrote
 * (the CRD directory, kustomize's output) is trusted to be one as the API server would take it.
 */
export function isCrd(o: { kind?: unknown }): o is CustomResourceDefinition {
  return o.kind === "CustomResourceDefinition";
}
