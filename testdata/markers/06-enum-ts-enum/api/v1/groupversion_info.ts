// +kubebuilder:object:generate=true
// +groupName=tsenums.kbts.test
export const GroupVersion = { group: "tsenums.kbts.test", version: "v1" } as const;
