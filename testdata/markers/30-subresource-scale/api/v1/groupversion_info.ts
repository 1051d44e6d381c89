// +kubebuilder:object:generate=true
// +groupName=scale.kbts.test
export const GroupVersion = { group: "scale.kbts.test", version: "v1" } as const;
