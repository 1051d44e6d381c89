// +kubebuilder:object:generate=true
// +groupName=objdefaults.kbts.test
export const GroupVersion = { group: "objdefaults.kbts.test", version: "v1" } as const;
