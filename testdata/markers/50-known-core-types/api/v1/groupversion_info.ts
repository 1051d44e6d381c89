// +kubebuilder:object:generate=true
// +groupName=core.kbts.test
export const GroupVersion = { group: "core.kbts.test", version: "v1" } as const;
