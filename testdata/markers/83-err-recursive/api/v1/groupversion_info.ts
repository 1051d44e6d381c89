// +kubebuilder:object:generate=true
// +groupName=recursive.kbts.test
export const GroupVersion = { group: "recursive.kbts.test", version: "v1" } as const;
