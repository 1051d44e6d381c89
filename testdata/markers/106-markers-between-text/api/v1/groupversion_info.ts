// +kubebuilder:object:generate=true
// +groupName=interleave.kbts.test
export const GroupVersion = { group: "interleave.kbts.test", version: "v1" } as const;
