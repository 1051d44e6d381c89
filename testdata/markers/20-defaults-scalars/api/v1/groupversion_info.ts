// +kubebuilder:object:generate=true
// +groupName=defaults.kbts.test
export const GroupVersion = { group: "defaults.kbts.test", version: "v1" } as const;
