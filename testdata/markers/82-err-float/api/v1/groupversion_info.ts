// +kubebuilder:object:generate=true
// +groupName=float.kbts.test
export const GroupVersion = { group: "float.kbts.test", version: "v1" } as const;
