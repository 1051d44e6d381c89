// +kubebuilder:object:generate=true
// +groupName=immutable.kbts.test
export const GroupVersion = { group: "immutable.kbts.test", version: "v1" } as const;
