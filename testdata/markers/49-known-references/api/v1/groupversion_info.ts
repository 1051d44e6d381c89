// +kubebuilder:object:generate=true
// +groupName=refs.kbts.test
export const GroupVersion = { group: "refs.kbts.test", version: "v1" } as const;
