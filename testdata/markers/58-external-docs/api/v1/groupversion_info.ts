// +kubebuilder:object:generate=true
// +groupName=extdocs.kbts.test
export const GroupVersion = { group: "extdocs.kbts.test", version: "v1" } as const;
