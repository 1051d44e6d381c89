// +kubebuilder:object:generate=true
// +groupName=multi.kbts.test
export const GroupVersion = { group: "multi.kbts.test", version: "v1beta1" } as const;
