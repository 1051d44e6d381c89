// +kubebuilder:object:generate=true
// +groupName=directives.kbts.test
export const GroupVersion = { group: "directives.kbts.test", version: "v1" } as const;
