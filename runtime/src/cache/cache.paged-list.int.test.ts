// The cache's integration tests (cache.int.test.ts) again, with every initial state listed in pages
// (KBTS_WATCH_LIST=false, before the reflector's defaults are read) instead of streamed by WatchList:
// both ways of getting the initial state must pass the same informer tests (issue 30, item 2).
process.env.KBTS_WATCH_LIST = "false";
await import("./cache.int.test.js");
