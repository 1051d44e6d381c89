// +kubebuilder:object:generate=true
// +groupName=unique.kbts.test
export const GroupVersion = { group: "unique.kbts.test", version: "v1" } as const;
