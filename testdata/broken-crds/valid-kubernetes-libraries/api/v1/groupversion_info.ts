// +groupName=validkuberneteslibraries.broken.kbts.test
export const GroupVersion = { group: "validkuberneteslibraries.broken.kbts.test", version: "v1" } as const;
