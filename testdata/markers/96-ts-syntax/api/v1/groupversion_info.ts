// +kubebuilder:object:generate=true
// +groupName=syntax.kbts.test
export const GroupVersion = { group: "syntax.kbts.test", version: "v1" } as const;
