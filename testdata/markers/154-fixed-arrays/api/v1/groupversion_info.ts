// +kubebuilder:object:generate=true
// +groupName=arrays.kbts.test
export const GroupVersion = { group: "arrays.kbts.test", version: "v1" } as const;
