// +kubebuilder:object:generate=true
// +groupName=inline.kbts.test
export const GroupVersion = { group: "inline.kbts.test", version: "v1" } as const;
