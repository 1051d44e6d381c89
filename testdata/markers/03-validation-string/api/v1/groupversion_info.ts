// +kubebuilder:object:generate=true
// +groupName=strings.kbts.test
export const GroupVersion = { group: "strings.kbts.test", version: "v1" } as const;
