// +kubebuilder:object:generate=true
// +groupName=nested.kbts.test
export const GroupVersion = { group: "nested.kbts.test", version: "v1" } as const;
