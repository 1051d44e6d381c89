// +kubebuilder:object:generate=true
// +groupName=paths.kbts.test
export const GroupVersion = { group: "paths.kbts.test", version: "v1" } as const;
