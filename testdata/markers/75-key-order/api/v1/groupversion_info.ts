// +kubebuilder:object:generate=true
// +groupName=keyorder.kbts.test
export const GroupVersion = { group: "keyorder.kbts.test", version: "v1" } as const;
