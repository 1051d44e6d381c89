// +kubebuilder:object:generate=true
// +groupName=plurals.kbts.test
export const GroupVersion = { group: "plurals.kbts.test", version: "v1" } as const;
