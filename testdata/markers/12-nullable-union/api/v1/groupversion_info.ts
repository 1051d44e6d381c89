// +kubebuilder:object:generate=true
// +groupName=nullunion.kbts.test
export const GroupVersion = { group: "nullunion.kbts.test", version: "v1" } as const;
