// +kubebuilder:object:generate=true
// +groupName=utility.kbts.test
export const GroupVersion = { group: "utility.kbts.test", version: "v1" } as const;
