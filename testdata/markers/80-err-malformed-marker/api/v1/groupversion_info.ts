// +kubebuilder:object:generate=true
// +groupName=malformed.kbts.test
export const GroupVersion = { group: "malformed.kbts.test", version: "v1" } as const;
