import { defineMessages } from "../define-messages.js";

/** Words used across the workspace: navigation and generic actions. */
export const commonMessages = defineMessages(
  "common",
  {
    brand: "Fawn",
    newChat: "New chat",
    chats: "Chats",
    teams: "Teams",
    agents: "Agents",
    scheduledTasks: "Scheduled tasks",
    settings: "Settings",
    loading: "Loading…",
    save: "Save",
    cancel: "Cancel",
    delete: "Delete",
    close: "Close",
    retry: "Retry",
  },
  {
    brand: "Fawn",
    newChat: "新对话",
    chats: "对话",
    teams: "团队",
    agents: "智能体",
    scheduledTasks: "定时任务",
    settings: "设置",
    loading: "加载中…",
    save: "保存",
    cancel: "取消",
    delete: "删除",
    close: "关闭",
    retry: "重试",
  },
);
