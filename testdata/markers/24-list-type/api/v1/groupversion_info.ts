// +kubebuilder:object:generate=true
// +groupName=listtype.kbts.test
export const GroupVersion = { group: "listtype.kbts.test", version: "v1" } as const;
