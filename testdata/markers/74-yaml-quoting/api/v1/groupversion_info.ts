// +kubebuilder:object:generate=true
// +groupName=quoting.kbts.test
export const GroupVersion = { group: "quoting.kbts.test", version: "v1" } as const;
