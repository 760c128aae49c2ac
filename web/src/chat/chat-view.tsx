import type { Client } from "@langchain/langgraph-sdk";
import { useStream } from "@langchain/langgraph-sdk/react";
import { type ReactNode, type UIEvent, useEffect, useMemo, useRef, useState } from "react";
import { errorText } from "../api/error-text.js";
import type { ModelInfo, ThreadValues } from "../api/types.js";
import { useReconnect } from "../api/use-reconnect.js";
import { ArtifactsPanel } from "../artifacts/artifacts-panel.js";
import { chatPreview, PREVIEW_KEY } from "../threads/thread-list.js";
import type { UploadControl } from "../uploads/upload-file.js";
import {
  cancelActiveRuns,
  sdkRunKey,
  unfinishedRunText,
  useRejoinActiveRun,
} from "./active-runs.js";
import { ChatNotices, Welcome } from "./chat-notices.js";
import { Composer, type Draft } from "./composer.js";
import { chatAsMarkdown, downloadText, exportFileName } from "./export-chat.js";
import { type ChatMessage, groupMessages } from "./message-groups.js";
import { MessageList } from "./message-list.js";
import { branchThread, prepareRerun } from "./rerun-turn.js";
import { humanMessage, runConfig, uploadAttachments } from "./send-message.js";
import { keepStoppedMessages } from "./stopped-messages.js";
import { useStoredChoice } from "./stored-choice.js";
import { TodoList } from "./todo-list.js";

interface Props {
  client: Client;
  initialThreadId: string | null;
  models: ModelInfo[];
  onThreadCreated: (threadId: string) => void;
  onRunFinished: () => void;
  onNewChat: () => void;
  /** Open another chat (a branch made from this one). */
  onOpenThread: (threadId: string) => void;
}

/** Only the modes Fawn serves for the UI: full values and streamed message tokens. */
const STREAM_MODES = ["values", "messages-tuple"] as const;

/** One conversation: `useStream` against `/api`, messages, todos, composer, artifacts. */
export function ChatView({
  client,
  initialThreadId,
  models,
  onThreadCreated,
  onRunFinished,
  onNewChat,
  onOpenThread,
}: Props): ReactNode {
  const [threadId, setThreadId] = useState<string | null>(initialThreadId);
  const [sendError, setSendError] = useState<string | null>(null);
  // A send that failed puts its text and files back in the box.
  const [restored, setRestored] = useState<Draft | null>(null);
  // The server was unreachable: watch for it to come back.
  const [offline, setOffline] = useState(false);
  const reconnect = useReconnect(offline);
  const [stopped, setStopped] = useState(false);
  // Whether this view started a run: a stream error then means the run failed; before that, it
  // can only be the thread failing to load.
  const [ranHere, setRanHere] = useState(false);
  // The user's pick; until there is one, the server's default (derived, so a pick made while the
  // list arrives is never overwritten).
  // A stored pick the server no longer offers falls back to the default.
  const [pickedModel, setPickedModel] = useStoredChoice<string>("fawn.model", "", (raw) => raw);
  const model =
    (models.some((m) => m.name === pickedModel) ? pickedModel : null) ??
    (models.find((m) => m.is_default) ?? models[0])?.name ??
    null;
  // Plan mode: the agent keeps a to-do list (`write_todos`), shown above the composer.
  const [planMode, setPlanMode] = useStoredChoice<boolean>(
    "fawn.plan_mode",
    false,
    (raw) => raw === "true",
  );
  // Closed by the user; reopened from the header (new files do not force it open again).
  const [artifactsOpen, setArtifactsOpen] = useState(true);
  // The message being sent until the server creates its run (onCreated).
  const pendingSend = useRef<{ text: string; files: File[]; shownBefore: number } | null>(null);
  // Set when a send never reached the server: its optimistic bubble (and anything after it) is
  // dropped from what is shown, since the server never had it.
  const [unsentFrom, setUnsentFrom] = useState<number | null>(null);
  // The messages on screen, read by onStop (which runs outside a render).
  const shownMessages = useRef<ChatMessage[]>([]);
  const stream = useStream<ThreadValues>({
    client,
    assistantId: "lead_agent",
    threadId,
    onThreadId: (id) => {
      setThreadId(id);
      onThreadCreated(id);
    },
    reconnectOnMount: true,
    fetchStateHistory: false,
    // Stop swaps the streamed values for the stored state: keep the cut-off answer on screen.
    onStop: ({ mutate }) => {
      const shown = shownMessages.current;
      mutate((stored) => ({
        ...stored,
        messages: keepStoppedMessages(
          Array.isArray(stored.messages) ? (stored.messages as unknown as ChatMessage[]) : [],
          shown,
        ),
      }));
    },
    onCreated: () => {
      pendingSend.current = null;
    },
    onFinish: () => onRunFinished(),
    onError: (caught) => {
      onRunFinished();
      // The run was never created (the server could not be reached): the message goes back
      // to the box instead of being lost. Once a run exists, the server holds the message.
      const unsent = pendingSend.current;
      pendingSend.current = null;
      if (unsent) {
        setUnsentFrom(unsent.shownBefore);
        failSend(caught, unsent.text, unsent.files);
      }
    },
  });

  const { lastRunStatus } = useRejoinActiveRun(client, initialThreadId, stream);

  const streamed = stream.messages as unknown as ChatMessage[];
  const messages = useMemo(
    () => (unsentFrom === null ? streamed : streamed.slice(0, unsentFrom)),
    [streamed, unsentFrom],
  );
  shownMessages.current = messages;
  const groups = useMemo(() => groupMessages(messages), [messages]);
  const values = stream.values;
  const artifacts = Array.isArray(values?.artifacts) ? values.artifacts : [];
  const todos = Array.isArray(values?.todos) ? values.todos : [];
  const title = typeof values?.title === "string" && values.title ? values.title : null;
  const lastGroup = groups.at(-1);
  const awaitingAnswer = !stream.isLoading && lastGroup?.kind === "clarification";

  useEffect(() => {
    document.title = title ? `${title} · Fawn` : "Fawn";
  }, [title]);
  // A new title (set by the title middleware) shows in the sidebar at once.
  const refreshList = useRef(onRunFinished);
  refreshList.current = onRunFinished;
  useEffect(() => {
    if (title) refreshList.current();
  }, [title]);

  const bottom = useRef<HTMLDivElement>(null);
  // Follow the conversation as it grows (new messages, streamed tokens), unless the user has
  // scrolled up to read: then stay put until they scroll back to the bottom.
  const pinned = useRef(true);
  const onScroll = (event: UIEvent<HTMLDivElement>): void => {
    const view = event.currentTarget;
    pinned.current = view.scrollHeight - view.scrollTop - view.clientHeight < 80;
  };
  const messageCount = messages.length;
  const lastLength = lastGroup && "text" in lastGroup ? lastGroup.text.length : 0;
  useEffect(() => {
    void messageCount;
    void lastLength;
    if (pinned.current) bottom.current?.scrollIntoView({ block: "end" });
  }, [messageCount, lastLength]);

  const failSend = (caught: unknown, text: string, files: File[]): void => {
    const info = errorText(caught);
    setSendError(info.text);
    setOffline(info.offline);
    setRestored((previous) => ({ text, files, key: (previous?.key ?? 0) + 1 }));
  };

  /** Uploads the attachments (creating the thread first if needed), then starts the run. */
  const send = async (
    text: string,
    files: File[],
    modelName: string | null,
    upload?: UploadControl,
  ): Promise<void> => {
    setSendError(null);
    setOffline(false);
    setStopped(false);
    pinned.current = true;
    // A new chat keeps its first message in the thread's metadata: the chat list shows it until
    // the title middleware names the chat.
    const metadata = threadId === null ? { [PREVIEW_KEY]: chatPreview(text) } : null;
    const { target, uploaded } = await uploadAttachments(client, threadId, files, metadata, upload);
    const human = humanMessage(text, uploaded);
    setRanHere(true);
    const shownBefore = messages.length;
    pendingSend.current = { text, files, shownBefore };
    setUnsentFrom(null);
    // Not awaited: submit settles when the run ends; the composer is free once uploads are done.
    void stream
      .submit(
        { messages: [human] },
        {
          ...(target && !threadId ? { threadId: target } : {}),
          ...(metadata && !target ? { metadata } : {}),
          config: runConfig(modelName, planMode),
          streamMode: [...STREAM_MODES],
          optimisticValues: (previous) => {
            const before = Array.isArray(previous.messages) ? previous.messages : [];
            // What was on screen (without an unsent message's bubble), then this message.
            return { ...previous, messages: [...before.slice(0, shownBefore), human] };
          },
        },
      )
      .catch((caught: unknown) => failSend(caught, text, files));
  };

  /**
   * Reruns the latest turn: the server finds the checkpoint before it and the input to replay
   * (the same user message, or its edited text); the run forks the thread there, so the old turn
   * is replaced in the thread's head and kept in its history.
   */
  const rerun = async (
    route: "regenerate" | "edit-regenerate",
    body: Record<string, string>,
  ): Promise<void> => {
    if (!threadId) return;
    setSendError(null);
    setStopped(false);
    setRanHere(true);
    pinned.current = true;
    try {
      const prepared = await prepareRerun(threadId, route, body);
      void stream
        .submit(prepared.input, {
          checkpoint: prepared.checkpoint,
          metadata: prepared.metadata,
          config: runConfig(model, planMode),
          streamMode: [...STREAM_MODES],
        })
        .catch((caught: unknown) => setSendError(errorText(caught).text));
    } catch (caught) {
      setSendError(errorText(caught).text);
    }
  };

  const stop = async (): Promise<void> => {
    setStopped(true);
    // The SDK cancels the run only when it stored its id; otherwise cancel it here.
    const sdkCancels = threadId !== null && window.sessionStorage.getItem(sdkRunKey(threadId));
    await stream.stop();
    if (threadId && !sdkCancels) await cancelActiveRuns(client, threadId);
    onRunFinished();
  };

  const loadError = stream.error && !ranHere ? errorText(stream.error) : null;
  // An old or deleted chat's link: say so and offer a new chat instead of a composer that fails.
  const missing = loadError?.status === 404;
  const error = sendError
    ? { label: "Could not send the message.", detail: sendError }
    : offline
      ? null
      : missing
        ? null
        : stream.error
          ? {
              label: ranHere ? "The run failed." : "Could not load this chat.",
              detail: errorText(stream.error).text,
            }
          : null;
  const unfinished =
    !ranHere && !stopped && !stream.isLoading ? unfinishedRunText(lastRunStatus) : null;
  const empty = groups.length === 0 && !stream.isThreadLoading;

  return (
    <div className="chat-layout">
      <section className="chat" aria-label="Chat">
        <header className="chat-header">
          <h1 className="chat-title">{title ?? (threadId ? "Chat" : "New chat")}</h1>
          {stream.isLoading && <span className="badge live">working…</span>}
          {threadId && groups.length > 0 && !stream.isLoading && (
            <span className="chat-export">
              <button
                type="button"
                className="link-button"
                onClick={() =>
                  downloadText(
                    exportFileName(title ?? "chat", "md"),
                    "text/markdown",
                    chatAsMarkdown(title ?? "Chat", groups),
                  )
                }
              >
                Export Markdown
              </button>
              <button
                type="button"
                className="link-button"
                onClick={() =>
                  downloadText(
                    exportFileName(title ?? "chat", "json"),
                    "application/json",
                    `${JSON.stringify({ thread_id: threadId, title, messages }, null, 2)}\n`,
                  )
                }
              >
                Export JSON
              </button>
            </span>
          )}
          {threadId && artifacts.length > 0 && !artifactsOpen && (
            <button
              type="button"
              className="link-button artifacts-toggle"
              onClick={() => setArtifactsOpen(true)}
            >
              Artifacts ({artifacts.length})
            </button>
          )}
        </header>
        <div className="messages" data-testid="messages" onScroll={onScroll}>
          {empty && <Welcome />}
          {stream.isThreadLoading && <p className="muted">Loading the conversation…</p>}
          <MessageList
            groups={groups}
            streaming={stream.isLoading}
            awaitingAnswer={awaitingAnswer}
            onRegenerate={(messageId) => void rerun("regenerate", { message_id: messageId })}
            onEditLast={(messageId, text) =>
              void rerun("edit-regenerate", {
                human_message_id: messageId,
                replacement_text: text,
              })
            }
            onBranch={(messageId) => {
              if (!threadId) return;
              setSendError(null);
              branchThread(threadId, messageId)
                .then((branch) => onOpenThread(branch.thread_id))
                .catch((caught: unknown) => setSendError(errorText(caught).text));
            }}
            onAnswer={(answer) =>
              void send(answer, [], model).catch((caught: unknown) => failSend(caught, answer, []))
            }
          />
          <ChatNotices
            missing={missing}
            onNewChat={onNewChat}
            unfinished={unfinished}
            stopped={stopped && !stream.isLoading}
            offline={offline ? { back: reconnect.back } : null}
            error={error}
          />
          <div ref={bottom} />
        </div>
        {todos.length > 0 && <TodoList todos={todos} running={stream.isLoading} />}
        <Composer
          models={models}
          model={model}
          onModelChange={setPickedModel}
          planMode={planMode}
          onPlanModeChange={setPlanMode}
          busy={stream.isLoading}
          onSend={(text, files, upload) =>
            send(text, files, model, upload).catch((caught: unknown) =>
              failSend(caught, text, files),
            )
          }
          restored={restored}
          disabledReason={missing ? "This chat no longer exists; start a new chat." : null}
          onStop={() => void stop()}
        />
      </section>
      {threadId && artifactsOpen && (
        <ArtifactsPanel
          threadId={threadId}
          artifacts={artifacts}
          streaming={stream.isLoading}
          messages={messages}
          onClose={() => setArtifactsOpen(false)}
        />
      )}
    </div>
  );
}
