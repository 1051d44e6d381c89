import type { Client } from "../client/types.js";
import type { Logger } from "../log/types.js";
import type { EventRecorder } from "./types.js";

// Placeholder until runtime/src/events provides createEventRecorder: events are logged, not written.
export function eventRecorderFor(_client: Client, component: string, logger: Logger): EventRecorder {
  const log = logger.child({ component });
  return {
    event(object, type, reason, message) {
      log.info(
        {
          object: { namespace: object.metadata?.namespace, name: object.metadata?.name, kind: object.kind },
          type,
          reason,
        },
        message,
      );
    },
  };
}
