// +kubebuilder:object:generate=true
// +groupName=names.kbts.test
export const GroupVersion = { group: "names.kbts.test", version: "v1" } as const;
