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
