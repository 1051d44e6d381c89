/** A free TCP port on 127.0.0.1: the runtime's envtest helper, which never hands out one port twice. */
export { freePort } from "../../runtime/src/envtest/ports.js";
