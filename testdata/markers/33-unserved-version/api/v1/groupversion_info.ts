// +kubebuilder:object:generate=true
// +groupName=unserved.kbts.test
export const GroupVersion = { group: "unserved.kbts.test", version: "v1" } as const;
