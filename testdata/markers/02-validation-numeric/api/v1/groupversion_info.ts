// +kubebuilder:object:generate=true
// +groupName=numeric.kbts.test
export const GroupVersion = { group: "numeric.kbts.test", version: "v1" } as const;
