// +kubebuilder:object:generate=true
// +groupName=celtype.kbts.test
export const GroupVersion = { group: "celtype.kbts.test", version: "v1" } as const;
