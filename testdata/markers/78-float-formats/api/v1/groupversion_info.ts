// +kubebuilder:object:generate=true
// +groupName=floatfmt.kbts.test
export const GroupVersion = { group: "floatfmt.kbts.test", version: "v1" } as const;
