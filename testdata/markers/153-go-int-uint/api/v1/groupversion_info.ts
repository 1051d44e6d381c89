// +kubebuilder:object:generate=true
// +groupName=ints.kbts.test
export const GroupVersion = { group: "ints.kbts.test", version: "v1" } as const;
