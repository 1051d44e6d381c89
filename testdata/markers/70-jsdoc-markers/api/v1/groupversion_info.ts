// +kubebuilder:object:generate=true
// +groupName=jsdoc.kbts.test
export const GroupVersion = { group: "jsdoc.kbts.test", version: "v1" } as const;
