// +groupName=celmessageexpressionnotstring.broken.kbts.test
export const GroupVersion = {
  group: "celmessageexpressionnotstring.broken.kbts.test",
  version: "v1",
} as const;
