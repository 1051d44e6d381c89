// +kubebuilder:object:generate=true
// +groupName=docs.kbts.test
export const GroupVersion = { group: "docs.kbts.test", version: "v1" } as const;
