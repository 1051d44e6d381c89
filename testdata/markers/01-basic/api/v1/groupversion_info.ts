// +kubebuilder:object:generate=true
// +groupName=basic.kbts.test
export const GroupVersion = { group: "basic.kbts.test", version: "v1" } as const;
