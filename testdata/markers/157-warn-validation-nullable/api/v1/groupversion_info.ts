// +kubebuilder:object:generate=true
// +groupName=nullhint.kbts.test
export const GroupVersion = { group: "nullhint.kbts.test", version: "v1" } as const;
