// +kubebuilder:object:generate=true
// +groupName=unknowntype.kbts.test
export const GroupVersion = { group: "unknowntype.kbts.test", version: "v1" } as const;
