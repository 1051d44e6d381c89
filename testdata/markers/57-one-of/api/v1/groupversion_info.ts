// +kubebuilder:object:generate=true
// +groupName=oneof.kbts.test
export const GroupVersion = { group: "oneof.kbts.test", version: "v1" } as const;
