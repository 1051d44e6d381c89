// +kubebuilder:object:generate=true
// +groupName=function.kbts.test
export const GroupVersion = { group: "function.kbts.test", version: "v1" } as const;
