// +kubebuilder:object:generate=true
// +groupName=tuple.kbts.test
export const GroupVersion = { group: "tuple.kbts.test", version: "v1" } as const;
