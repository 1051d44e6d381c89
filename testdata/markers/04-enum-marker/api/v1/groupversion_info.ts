// +kubebuilder:object:generate=true
// +groupName=enums.kbts.test
export const GroupVersion = { group: "enums.kbts.test", version: "v1" } as const;
