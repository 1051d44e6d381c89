// +kubebuilder:object:generate=true
// +groupName=items.kbts.test
export const GroupVersion = { group: "items.kbts.test", version: "v1" } as const;
