// +kubebuilder:object:generate=true
// +groupName=printpath.kbts.test
export const GroupVersion = { group: "printpath.kbts.test", version: "v1" } as const;
