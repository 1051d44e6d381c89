// +kubebuilder:object:generate=true
// +groupName=crew.multi.kbts.test
export const GroupVersion = { group: "crew.multi.kbts.test", version: "v1" } as const;
