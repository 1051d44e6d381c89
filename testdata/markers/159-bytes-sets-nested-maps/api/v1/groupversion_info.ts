// +kubebuilder:object:generate=true
// +groupName=bytes.kbts.test
export const GroupVersion = { group: "bytes.kbts.test", version: "v1" } as const;
