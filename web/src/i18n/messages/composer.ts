import { defineMessages } from "../define-messages.js";

/** The message box under a chat. */
export const composerMessages = defineMessages(
  "composer",
  {
    message: "Message",
    placeholder: "Message Fawn…",
    uploading: "Uploading…",
    attach: "Attach",
    model: "Model",
    plan: "Plan",
    planHint: "The agent plans with a to-do list first",
    subagents: "Sub-agents",
    subagentsHint: "The agent may hand parts of the work to sub-agents that run in parallel",
    send: "Send",
    stop: "Stop",
    busyHint: "A run is in progress: wait for it to finish or press Stop, then send.",
    filesOnly: "Please look at the attached files.",
  },
  {
    message: "消息",
    placeholder: "给 Fawn 发消息…",
    uploading: "正在上传…",
    attach: "附件",
    model: "模型",
    plan: "计划",
    planHint: "智能体先用待办清单做计划",
    subagents: "子智能体",
    subagentsHint: "智能体可以把部分工作交给并行运行的子智能体",
    send: "发送",
    stop: "停止",
    busyHint: "有任务正在运行：请等待它结束或点击“停止”，然后再发送。",
    filesOnly: "请查看附加的文件。",
  },
);
