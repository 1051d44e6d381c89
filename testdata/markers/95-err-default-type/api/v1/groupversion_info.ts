// +kubebuilder:object:generate=true
// +groupName=defaulttype.kbts.test
export const GroupVersion = { group: "defaulttype.kbts.test", version: "v1" } as const;
