// +kubebuilder:object:generate=true
// +groupName=example.kbts.test
export const GroupVersion = { group: "example.kbts.test", version: "v1" } as const;
