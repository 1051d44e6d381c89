// +kubebuilder:object:generate=true
// +groupName=rootless.kbts.test
export const GroupVersion = { group: "rootless.kbts.test", version: "v1" } as const;
