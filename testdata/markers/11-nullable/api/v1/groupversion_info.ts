// +kubebuilder:object:generate=true
// +groupName=nullable.kbts.test
export const GroupVersion = { group: "nullable.kbts.test", version: "v1" } as const;
