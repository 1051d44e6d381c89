// +groupName=validoptionalfield.broken.kbts.test
export const GroupVersion = { group: "validoptionalfield.broken.kbts.test", version: "v1" } as const;
