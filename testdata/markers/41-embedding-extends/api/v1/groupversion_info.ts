// +kubebuilder:object:generate=true
// +groupName=embed.kbts.test
export const GroupVersion = { group: "embed.kbts.test", version: "v1" } as const;
