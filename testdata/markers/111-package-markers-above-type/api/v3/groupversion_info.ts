// +kubebuilder:object:generate=true
// +groupName=placement.kbts.test
export const GroupVersion = { group: "placement.kbts.test", version: "v3" } as const;
