// +groupName=celunknownfield.broken.kbts.test
export const GroupVersion = { group: "celunknownfield.broken.kbts.test", version: "v1" } as const;
