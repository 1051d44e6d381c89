// +kubebuilder:object:generate=true
// +groupName=conditions.kbts.test
export const GroupVersion = { group: "conditions.kbts.test", version: "v1" } as const;
