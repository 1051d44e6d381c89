// +kubebuilder:object:generate=true
// +groupName=intstr.kbts.test
export const GroupVersion = { group: "intstr.kbts.test", version: "v1" } as const;
