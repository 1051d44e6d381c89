// +groupName=validoptionaloldself.broken.kbts.test
export const GroupVersion = { group: "validoptionaloldself.broken.kbts.test", version: "v1" } as const;
