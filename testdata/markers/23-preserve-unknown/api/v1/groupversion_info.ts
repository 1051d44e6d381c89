// +kubebuilder:object:generate=true
// +groupName=preserve.kbts.test
export const GroupVersion = { group: "preserve.kbts.test", version: "v1" } as const;
