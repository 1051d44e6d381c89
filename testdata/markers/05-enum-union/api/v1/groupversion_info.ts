// +kubebuilder:object:generate=true
// +groupName=unions.kbts.test
export const GroupVersion = { group: "unions.kbts.test", version: "v1" } as const;
