// +kubebuilder:object:generate=true
// +groupName=unknown.kbts.test
export const GroupVersion = { group: "unknown.kbts.test", version: "v1" } as const;
