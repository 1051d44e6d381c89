// +kubebuilder:object:generate=true
// +groupName=raw.kbts.test
export const GroupVersion = { group: "raw.kbts.test", version: "v1" } as const;
