// +kubebuilder:object:generate=true
// +groupName=named.kbts.test
export const GroupVersion = { group: "named.kbts.test", version: "v1" } as const;
