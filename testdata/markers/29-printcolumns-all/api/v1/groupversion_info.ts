// +kubebuilder:object:generate=true
// +groupName=columns.kbts.test
export const GroupVersion = { group: "columns.kbts.test", version: "v1" } as const;
