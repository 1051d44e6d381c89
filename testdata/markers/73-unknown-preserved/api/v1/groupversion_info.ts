// +kubebuilder:object:generate=true
// +groupName=unknownok.kbts.test
export const GroupVersion = { group: "unknownok.kbts.test", version: "v1" } as const;
