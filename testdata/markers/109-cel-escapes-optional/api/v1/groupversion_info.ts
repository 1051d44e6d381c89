// +kubebuilder:object:generate=true
// +groupName=celescapes.kbts.test
export const GroupVersion = { group: "celescapes.kbts.test", version: "v1" } as const;
