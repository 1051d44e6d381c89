// +kubebuilder:object:generate=true
// +groupName=noroot.kbts.test
export const GroupVersion = { group: "noroot.kbts.test", version: "v1" } as const;
