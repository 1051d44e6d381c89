// +groupName=printcolumnjsonpathbraces.broken.kbts.test
export const GroupVersion = { group: "printcolumnjsonpathbraces.broken.kbts.test", version: "v1" } as const;
