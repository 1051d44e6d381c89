// +kubebuilder:object:generate=true
// +groupName=embedded.kbts.test
export const GroupVersion = { group: "embedded.kbts.test", version: "v1" } as const;
