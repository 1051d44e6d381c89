// +kubebuilder:object:generate=true
// +groupName=repeat.kbts.test
export const GroupVersion = { group: "repeat.kbts.test", version: "v1" } as const;
