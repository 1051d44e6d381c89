// +kubebuilder:object:generate=true
// +groupName=floats.kbts.test
export const GroupVersion = { group: "floats.kbts.test", version: "v1" } as const;
