// +kubebuilder:object:generate=true
// +groupName=marshal.kbts.test
export const GroupVersion = { group: "marshal.kbts.test", version: "v1" } as const;
