// +kubebuilder:object:generate=true
// +groupName=time.kbts.test
export const GroupVersion = { group: "time.kbts.test", version: "v1" } as const;
