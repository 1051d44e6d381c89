// +kubebuilder:object:generate=true
// +groupName=k8scomment.kbts.test
export const GroupVersion = { group: "k8scomment.kbts.test", version: "v1" } as const;
