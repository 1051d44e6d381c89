// +kubebuilder:object:generate=true
// +groupName=target.kbts.test
export const GroupVersion = { group: "target.kbts.test", version: "v1" } as const;
