// +kubebuilder:object:generate=true
// +groupName=maps.kbts.test
export const GroupVersion = { group: "maps.kbts.test", version: "v1" } as const;
