import { defineMessages } from "../define-messages.js";

/** Attached files: chips, progress, drop target and the limits' sentences. */
export const uploadsMessages = defineMessages(
  "uploads",
  {
    attached: "Attached files",
    remove: "Remove {name}",
    open: "Open {name}",
    progress: "Uploading {name}",
    uploaded: "{name} uploaded",
    cancel: "Cancel upload",
    cancelled: "The upload was cancelled; your message and files are back in the box.",
    dropHere: "Drop files to attach them to your message",
    tooMany: "At most {max} files can go with one message; the others were not attached.",
    tooLarge: "{name} is larger than {max}, the most one file can be; it was not attached.",
    totalTooLarge:
      "Together the files would be larger than {max}; the last ones were not attached.",
    dismiss: "Dismiss",
  },
  {
    attached: "已附加的文件",
    remove: "移除 {name}",
    open: "打开 {name}",
    progress: "正在上传 {name}",
    uploaded: "{name} 已上传",
    cancel: "取消上传",
    cancelled: "上传已取消，你的消息和文件已放回输入框。",
    dropHere: "将文件拖放到此处，附加到你的消息中",
    tooMany: "一条消息最多附带 {max} 个文件，其余文件未附加。",
    tooLarge: "{name} 超过了单个文件的上限 {max}，未附加。",
    totalTooLarge: "这些文件合计将超过 {max}，最后几个文件未附加。",
    dismiss: "关闭",
  },
);
