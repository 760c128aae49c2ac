/** Shapes of the Fawn API answers the UI reads (docs/API.md). */

export interface ModelInfo {
  name: string;
  display_name: string | null;
  description: string | null;
  offline_demo: boolean;
  is_default: boolean;
}

export interface ModelList {
  models: ModelInfo[];
}

export interface ServerInfo {
  auth_mode: string;
  version: string;
}

export interface User {
  id: string;
  email: string;
}

export interface UploadedFile {
  filename: string;
  size: number;
  path: string;
  virtual_path: string;
  artifact_url: string;
}

export interface UploadAnswer {
  files: UploadedFile[];
}

export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

/** The lead agent's thread values the UI reads. */
export interface ThreadValues extends Record<string, unknown> {
  messages?: unknown[];
  title?: string | null;
  artifacts?: string[];
  todos?: TodoItem[] | null;
}
