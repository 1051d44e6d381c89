// +kubebuilder:object:generate=true
// +groupName=any.kbts.test
export const GroupVersion = { group: "any.kbts.test", version: "v1" } as const;
