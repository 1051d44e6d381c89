// +kubebuilder:object:generate=true
// +groupName=maptype.kbts.test
export const GroupVersion = { group: "maptype.kbts.test", version: "v1" } as const;
