// +kubebuilder:object:generate=true
// +groupName=select.kbts.test
export const GroupVersion = { group: "select.kbts.test", version: "v1" } as const;
