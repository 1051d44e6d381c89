// +kubebuilder:object:generate=true
// +groupName=mixed.kbts.test
export const GroupVersion = { group: "mixed.kbts.test", version: "v2beta1" } as const;
