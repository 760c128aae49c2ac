import { defineMessages } from "../define-messages.js";

/** Sentences the workspace says itself about failed calls (the server's own sentences pass through). */
export const errorMessages = defineMessages(
  "errors",
  {
    offline:
      "Fawn's server cannot be reached. Check that it is running; the page reconnects by itself.",
  },
  {
    offline: "无法连接 Fawn 服务器。请确认它正在运行；页面会自动重新连接。",
  },
);
