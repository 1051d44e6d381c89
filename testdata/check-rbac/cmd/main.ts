import { createManager } from "@kbts/runtime";
import { setupWidgetController } from "../internal/controller/widget_controller.js";

const mgr = await createManager({});
setupWidgetController(mgr);
await mgr.start(new AbortController().signal);
