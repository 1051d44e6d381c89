// +kubebuilder:object:generate=true
// +groupName=ship.multi.kbts.test
export const GroupVersion = { group: "ship.multi.kbts.test", version: "v1" } as const;
