// +kubebuilder:object:generate=true
// +groupName=typeval.kbts.test
export const GroupVersion = { group: "typeval.kbts.test", version: "v1" } as const;
