// +kubebuilder:object:generate=true
// +groupName=typemarker.kbts.test
export const GroupVersion = { group: "typemarker.kbts.test", version: "v1" } as const;
