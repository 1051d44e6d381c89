// +kubebuilder:object:generate=true
// +groupName=basics.kbts.test
export const GroupVersion = { group: "basics.kbts.test", version: "v1" } as const;
