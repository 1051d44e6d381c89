// +groupName=validescapedname.broken.kbts.test
export const GroupVersion = { group: "validescapedname.broken.kbts.test", version: "v1" } as const;
