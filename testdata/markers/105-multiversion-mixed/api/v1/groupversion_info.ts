// +kubebuilder:object:generate=true
// +groupName=mixed.kbts.test
export const GroupVersion = { group: "mixed.kbts.test", version: "v1" } as const;
