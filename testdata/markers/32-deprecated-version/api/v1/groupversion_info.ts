// +kubebuilder:object:generate=true
// +groupName=deprecated.kbts.test
export const GroupVersion = { group: "deprecated.kbts.test", version: "v1" } as const;
