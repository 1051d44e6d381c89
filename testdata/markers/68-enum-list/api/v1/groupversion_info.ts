// +kubebuilder:object:generate=true
// +groupName=enumlist.kbts.test
export const GroupVersion = { group: "enumlist.kbts.test", version: "v1" } as const;
