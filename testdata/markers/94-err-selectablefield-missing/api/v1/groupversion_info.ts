// +kubebuilder:object:generate=true
// +groupName=selectpath.kbts.test
export const GroupVersion = { group: "selectpath.kbts.test", version: "v1" } as const;
