// +kubebuilder:object:generate=true
// +groupName=mapkeys.kbts.test
export const GroupVersion = { group: "mapkeys.kbts.test", version: "v1" } as const;
