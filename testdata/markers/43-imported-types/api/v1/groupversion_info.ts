// +kubebuilder:object:generate=true
// +groupName=imports.kbts.test
export const GroupVersion = { group: "imports.kbts.test", version: "v1" } as const;
