// +kubebuilder:object:generate=true
// +groupName=celcoll.kbts.test
export const GroupVersion = { group: "celcoll.kbts.test", version: "v1" } as const;
