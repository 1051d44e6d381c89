// +kubebuilder:object:generate=true
// +groupName=precedence.kbts.test
export const GroupVersion = { group: "precedence.kbts.test", version: "v1" } as const;
