// +kubebuilder:object:generate=true
// +groupName=aliases.kbts.test
export const GroupVersion = { group: "aliases.kbts.test", version: "v1" } as const;
