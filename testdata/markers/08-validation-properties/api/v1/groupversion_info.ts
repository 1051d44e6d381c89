// +kubebuilder:object:generate=true
// +groupName=props.kbts.test
export const GroupVersion = { group: "props.kbts.test", version: "v1" } as const;
