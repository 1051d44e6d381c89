// +groupName=validprintcolumns.broken.kbts.test
export const GroupVersion = { group: "validprintcolumns.broken.kbts.test", version: "v1" } as const;
