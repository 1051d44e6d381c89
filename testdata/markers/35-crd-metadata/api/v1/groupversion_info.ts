// +kubebuilder:object:generate=true
// +groupName=meta.kbts.test
export const GroupVersion = { group: "meta.kbts.test", version: "v1" } as const;
