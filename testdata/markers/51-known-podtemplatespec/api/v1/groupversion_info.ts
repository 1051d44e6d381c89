// +kubebuilder:object:generate=true
// +groupName=podtemplate.kbts.test
export const GroupVersion = { group: "podtemplate.kbts.test", version: "v1" } as const;
