// +kubebuilder:object:generate=true
// +groupName=celfield.kbts.test
export const GroupVersion = { group: "celfield.kbts.test", version: "v1" } as const;
