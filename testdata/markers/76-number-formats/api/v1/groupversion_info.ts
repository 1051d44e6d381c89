// +kubebuilder:object:generate=true
// +groupName=numbers.kbts.test
export const GroupVersion = { group: "numbers.kbts.test", version: "v1" } as const;
