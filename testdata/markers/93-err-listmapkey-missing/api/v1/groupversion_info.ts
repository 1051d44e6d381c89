// +kubebuilder:object:generate=true
// +groupName=mapkey.kbts.test
export const GroupVersion = { group: "mapkey.kbts.test", version: "v1" } as const;
