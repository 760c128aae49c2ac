import { defineMessages } from "../define-messages.js";

/** The workspace shell: top bar, sidebar, navigation, start-up screens and the language picker. */
export const shellMessages = defineMessages(
  "shell",
  {
    openMenu: "Open the menu",
    closeMenu: "Close the menu",
    hideSidebar: "Hide the sidebar",
    showSidebar: "Show the sidebar",
    workspaceNav: "Workspace",
    sidebar: "Sidebar",
    language: "Language",
    commandPalette: "Command palette",
    shortcuts: "Keyboard shortcuts",
    serverDown: "The Fawn server is not answering: {message}",
  },
  {
    openMenu: "打开菜单",
    closeMenu: "关闭菜单",
    hideSidebar: "隐藏侧边栏",
    showSidebar: "显示侧边栏",
    workspaceNav: "工作区",
    sidebar: "侧边栏",
    language: "语言",
    commandPalette: "命令面板",
    shortcuts: "键盘快捷键",
    serverDown: "Fawn 服务器没有响应：{message}",
  },
);
