import type { BaseMessage } from "@langchain/core/messages";
import { Annotation, type Messages, messagesStateReducer } from "@langchain/langgraph";
import {
  type DelegationEntry,
  lastWrite,
  mergeArtifacts,
  mergeDelegations,
  mergePromoted,
  mergeSandbox,
  mergeSkillContext,
  mergeViewedImages,
  type PromotedTools,
  replaceUnlessNull,
  type SandboxState,
  type SkillContextEntry,
  type ViewedImage,
} from "./thread-state-reducers.js";

export interface ThreadDataState {
  workspace_path?: string;
  uploads_path?: string;
  outputs_path?: string;
}

export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

export interface UploadedFile {
  filename: string;
  size: number;
  path: string;
  extension?: string;
  [key: string]: unknown;
}

export interface BackgroundTask {
  task_id: string;
  task_name: string;
  status: string;
  updated_at: string;
}

/**
 * The lead agent's graph state: messages plus the reference's thread fields, every one optional
 * so a thread created by any client (or an older Fawn) loads. The reducers are where parallel
 * writes meet, see thread-state-reducers.ts.
 */
export const ThreadStateAnnotation = Annotation.Root({
  messages: Annotation<BaseMessage[], Messages>({
    reducer: messagesStateReducer,
    default: () => [],
  }),
  sandbox: Annotation<SandboxState | null, SandboxState | null | undefined>({
    reducer: mergeSandbox,
    default: () => null,
  }),
  thread_data: Annotation<ThreadDataState | null>({ reducer: lastWrite, default: () => null }),
  title: Annotation<string | null>({ reducer: lastWrite, default: () => null }),
  artifacts: Annotation<string[], string[] | null | undefined>({
    reducer: mergeArtifacts,
    default: () => [],
  }),
  todos: Annotation<TodoItem[] | null, TodoItem[] | null | undefined>({
    reducer: replaceUnlessNull,
    default: () => null,
  }),
  goal: Annotation<Record<string, unknown> | null, Record<string, unknown> | null | undefined>({
    reducer: replaceUnlessNull,
    default: () => null,
  }),
  uploaded_files: Annotation<UploadedFile[] | null>({ reducer: lastWrite, default: () => null }),
  viewed_images: Annotation<
    Record<string, ViewedImage>,
    Record<string, ViewedImage> | null | undefined
  >({ reducer: mergeViewedImages, default: () => ({}) }),
  promoted: Annotation<PromotedTools | null, PromotedTools | null | undefined>({
    reducer: mergePromoted,
    default: () => null,
  }),
  delegations: Annotation<DelegationEntry[], DelegationEntry[] | null | undefined>({
    reducer: mergeDelegations,
    default: () => [],
  }),
  skill_context: Annotation<SkillContextEntry[], SkillContextEntry[] | null | undefined>({
    reducer: mergeSkillContext,
    default: () => [],
  }),
  summary_text: Annotation<string | null>({ reducer: lastWrite, default: () => null }),
  background_tasks: Annotation<BackgroundTask[] | null>({
    reducer: lastWrite,
    default: () => null,
  }),
});

export type ThreadState = typeof ThreadStateAnnotation.State;
export type ThreadStateUpdate = typeof ThreadStateAnnotation.Update;
