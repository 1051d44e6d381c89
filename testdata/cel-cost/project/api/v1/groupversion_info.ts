// +kubebuilder:object:generate=true
// +groupName=cost.kbts.test
export const GroupVersion = { group: "cost.kbts.test", version: "v1" } as const;
