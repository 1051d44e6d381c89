// +kubebuilder:object:generate=true
// +groupName=celsyntax.kbts.test
export const GroupVersion = { group: "celsyntax.kbts.test", version: "v1" } as const;
