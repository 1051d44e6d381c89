// +kubebuilder:object:generate=true
// +groupName=classinst.kbts.test
export const GroupVersion = { group: "classinst.kbts.test", version: "v1" } as const;
