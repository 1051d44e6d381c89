// +kubebuilder:object:generate=true
// +groupName=schemaless.kbts.test
export const GroupVersion = { group: "schemaless.kbts.test", version: "v1" } as const;
