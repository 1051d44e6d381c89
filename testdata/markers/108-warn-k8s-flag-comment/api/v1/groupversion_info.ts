// +kubebuilder:object:generate=true
// +groupName=k8sflagcomment.kbts.test
export const GroupVersion = { group: "k8sflagcomment.kbts.test", version: "v1" } as const;
