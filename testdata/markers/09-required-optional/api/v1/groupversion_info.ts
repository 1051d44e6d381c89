// +kubebuilder:object:generate=true
// +groupName=reqopt.kbts.test
export const GroupVersion = { group: "reqopt.kbts.test", version: "v1" } as const;
