import type { Client } from "@langchain/langgraph-sdk";
import { useStream } from "@langchain/langgraph-sdk/react";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { withAgentName } from "../agents/agent-chat.js";
import { useChatAgent } from "../agents/use-chat-agent.js";
import type { ModelInfo, ThreadValues } from "../api/types.js";
import { useReconnect } from "../api/use-reconnect.js";
import { ArtifactsPanel } from "../artifacts/artifacts-panel.js";
import { useFilesPanel } from "../artifacts/use-files-panel.js";
import { useT } from "../i18n/locale-context.js";
import { chatMessages } from "../i18n/messages/chat.js";
import { useErrorText } from "../i18n/use-error-text.js";
import { chatModelChoice, saveChatModel, saveDefaultModel } from "../settings/default-model.js";
import { type ChatRename, chatPreview, PREVIEW_KEY } from "../threads/thread-list.js";
import type { UploadControl } from "../uploads/upload-file.js";
import { cancelActiveRuns, sdkRunKey, useRejoinActiveRun } from "./active-runs.js";
import { ChatHeader } from "./chat-header.js";
import { ChatNotices, Welcome } from "./chat-notices.js";
import { Composer, type Draft } from "./composer.js";
import { useFollowLatest } from "./follow-latest.js";
import { type ChatMessage, groupMessages, turnsOf } from "./message-groups.js";
import { MessageList } from "./message-list.js";
import { useRenamedTitle } from "./renamed-title.js";
import { branchThread, prepareRerun } from "./rerun-turn.js";
import { humanMessage, runConfig, uploadAttachments } from "./send-message.js";
import { keepStoppedMessages } from "./stopped-messages.js";
import { useStoredChoice } from "./stored-choice.js";
import { useSubagentProgress } from "./subagents/use-subagent-progress.js";
import { TodoList } from "./todo-list.js";
import { turnDurations } from "./usage/turn-durations.js";
import { useThreadRuns } from "./usage/use-thread-runs.js";
import { useTokenUsage } from "./usage/use-token-usage.js";
import { useFrameValue } from "./use-frame-value.js";

interface Props {
  client: Client;
  initialThreadId: string | null;
  models: ModelInfo[];
  /** The latest rename from the chat list (of any chat). */
  rename: ChatRename | null;
  onThreadCreated: (threadId: string) => void;
  onRunFinished: () => void;
  onNewChat: () => void;
  /** Open another chat (a branch made from this one). */
  onOpenThread: (threadId: string) => void;
}

/**
 * Only the modes Fawn serves for the UI: full values, streamed message tokens, and `custom`
 * (the `task` tool's sub-agent progress).
 */
const STREAM_MODES = ["values", "messages-tuple", "custom"] as const;

/** One conversation: `useStream` against `/api`, messages, todos, composer, artifacts. */
export function ChatView({
  client,
  initialThreadId,
  models,
  rename,
  onThreadCreated,
  onRunFinished,
  onNewChat,
  onOpenThread,
}: Props): ReactNode {
  const t = useT(chatMessages);
  const sayError = useErrorText();
  // A chat opened for a custom agent (`/?agent=<name>`), or an existing chat started with one
  // (its thread's `metadata.agent_name`): every run of the chat goes to that agent.
  const linkedAgent = useChatAgent();
  const [threadAgent, setThreadAgent] = useState<string | null>(null);
  const agentName = linkedAgent ?? threadAgent;
  useEffect(() => {
    if (initialThreadId === null || linkedAgent !== null) return;
    let live = true;
    client.threads
      .get(initialThreadId)
      .then((thread) => {
        const name = thread.metadata?.agent_name;
        if (live && typeof name === "string") setThreadAgent(name);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [client, initialThreadId, linkedAgent]);
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
  // The model: a pick made in this view, else the chat's own saved pick, else the default for new
  // chats (Settings, or the last pick made in a new chat), else the server's default. Derived, so
  // a pick made while the list arrives is never overwritten; a stored pick the server no longer
  // offers falls back.
  const [viewPick, setViewPick] = useState<string | null>(null);
  const offered = (name: string | null): string | null =>
    name !== null && models.some((m) => m.name === name) ? name : null;
  const model = offered(viewPick) ?? chatModelChoice(threadId, models);
  const pickModel = (name: string): void => {
    setViewPick(name);
    // In an existing chat the pick is that chat's; in a new chat it is also the new default.
    if (threadId) saveChatModel(threadId, name);
    else saveDefaultModel(name);
  };
  // Plan mode: the agent keeps a to-do list (`write_todos`), shown above the composer.
  const [planMode, setPlanMode] = useStoredChoice<boolean>(
    "fawn.plan_mode",
    false,
    (raw) => raw === "true",
  );
  // Sub-agents: the run may delegate with the `task` tool (shown as sub-agent cards).
  const [delegate, setDelegate] = useStoredChoice<boolean>(
    "fawn.subagents",
    false,
    (raw) => raw === "true",
  );
  // The message being sent until the server creates its run (onCreated).
  const pendingSend = useRef<{ text: string; files: File[]; shownBefore: number } | null>(null);
  // Set when a send never reached the server: its optimistic bubble (and anything after it) is
  // dropped from what is shown, since the server never had it.
  const [unsentFrom, setUnsentFrom] = useState<number | null>(null);
  // The messages on screen, read by onStop (which runs outside a render).
  const shownMessages = useRef<ChatMessage[]>([]);
  // Bumped when a run starts or ends here: runs, durations and token usage are read again.
  const [runsVersion, setRunsVersion] = useState(0);
  const bumpRuns = (): void => setRunsVersion((version) => version + 1);
  const runs = useThreadRuns(client, threadId, runsVersion);
  const subagents = useSubagentProgress(threadId, runs);
  // When this page started the current run (its elapsed time until the run list has it).
  const [startedHere, setStartedHere] = useState<number | null>(null);
  const stream = useStream<ThreadValues>({
    client,
    assistantId: "lead_agent",
    threadId,
    onThreadId: (id) => {
      setThreadId(id);
      if (model) saveChatModel(id, model);
      onThreadCreated(id);
    },
    reconnectOnMount: true,
    fetchStateHistory: false,
    // Events of one macrotask land as one update; the list then renders at most once a frame.
    throttle: true,
    onCustomEvent: (data) => subagents.onCustomEvent(data),
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
      bumpRuns();
    },
    onFinish: () => {
      bumpRuns();
      onRunFinished();
    },
    onError: (caught) => {
      bumpRuns();
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

  const tokenUsage = useTokenUsage(threadId, runsVersion, stream.isLoading);
  const { lastRunStatus } = useRejoinActiveRun(client, initialThreadId, stream);

  const streamed = stream.messages as unknown as ChatMessage[];
  const messages = useMemo(
    () => (unsentFrom === null ? streamed : streamed.slice(0, unsentFrom)),
    [streamed, unsentFrom],
  );
  shownMessages.current = messages;
  // Tokens arrive faster than frames: group and render the latest messages once a frame.
  const framed = useFrameValue(messages, stream.isLoading);
  const groups = useMemo(() => groupMessages(framed), [framed]);
  const turns = useMemo(() => turnsOf(groups), [groups]);
  const turnTimes = useMemo(() => {
    const times = turnDurations(turns, runs);
    const lastTurn = turns.at(-1);
    // A run this page just started, before the run list has it.
    if (stream.isLoading && lastTurn && startedHere !== null && !times.has(lastTurn.lastIndex))
      times.set(lastTurn.lastIndex, { state: "running", since: startedHere });
    return times;
  }, [turns, runs, stream.isLoading, startedHere]);
  const values = stream.values;
  const artifacts = Array.isArray(values?.artifacts) ? values.artifacts : [];
  const todos = Array.isArray(values?.todos) ? values.todos : [];
  // Closed by the user (or, on a narrow screen, until asked for); reopened from the header.
  const files = useFilesPanel({ threadId, artifacts, messages, streaming: stream.isLoading });
  const storedTitle = typeof values?.title === "string" && values.title ? values.title : null;
  const title = useRenamedTitle(rename, threadId, storedTitle);
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

  // Follow the conversation as it grows, unless the user scrolled up to read.
  const follow = useFollowLatest();
  const { pinned } = follow;

  const failSend = (caught: unknown, text: string, files: File[]): void => {
    const info = sayError(caught);
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
    const metadata =
      threadId === null
        ? { [PREVIEW_KEY]: chatPreview(text), ...(agentName ? { agent_name: agentName } : {}) }
        : null;
    const { target, uploaded } = await uploadAttachments(client, threadId, files, metadata, upload);
    // An id of our own: the turn's run is found by it (its duration) and its bubble keeps its key.
    const human = { ...humanMessage(text, uploaded), id: crypto.randomUUID() };
    setRanHere(true);
    setStartedHere(Date.now());
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
          config: withAgentName(runConfig(modelName, planMode, delegate), agentName),
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
    setStartedHere(Date.now());
    pinned.current = true;
    try {
      const prepared = await prepareRerun(threadId, route, body);
      void stream
        .submit(prepared.input, {
          checkpoint: prepared.checkpoint,
          metadata: prepared.metadata,
          config: withAgentName(runConfig(model, planMode, delegate), agentName),
          streamMode: [...STREAM_MODES],
        })
        .catch((caught: unknown) => setSendError(sayError(caught).text));
    } catch (caught) {
      setSendError(sayError(caught).text);
    }
  };

  const stop = async (): Promise<void> => {
    setStopped(true);
    // The SDK cancels the run only when it stored its id; otherwise cancel it here.
    const sdkCancels = threadId !== null && window.sessionStorage.getItem(sdkRunKey(threadId));
    await stream.stop();
    if (threadId && !sdkCancels) await cancelActiveRuns(client, threadId);
    bumpRuns();
    onRunFinished();
  };

  const loadError = stream.error && !ranHere ? sayError(stream.error) : null;
  // An old or deleted chat's link: say so and offer a new chat instead of a composer that fails.
  const missing = loadError?.status === 404;
  const error = sendError
    ? { label: t("sendFailed"), detail: sendError }
    : offline
      ? null
      : missing
        ? null
        : stream.error
          ? {
              label: ranHere ? t("runFailed") : t("loadFailed"),
              detail: sayError(stream.error).text,
            }
          : null;
  const unfinished =
    !ranHere && !stopped && !stream.isLoading
      ? lastRunStatus === "interrupted"
        ? t("lastRunStopped")
        : lastRunStatus === "error" || lastRunStatus === "timeout"
          ? t("lastRunFailed")
          : null
      : null;
  const empty = groups.length === 0 && !stream.isThreadLoading;

  return (
    <div className="chat-layout">
      <section className="chat" aria-label={t("region")}>
        <ChatHeader
          threadId={threadId}
          title={title}
          streaming={stream.isLoading}
          groups={groups}
          messages={messages}
          tokenUsage={tokenUsage}
          files={files}
        />
        <div
          className="messages"
          data-testid="messages"
          ref={follow.scrollRef}
          onScroll={follow.onScroll}
        >
          {empty && <Welcome />}
          {stream.isThreadLoading && <p className="muted">{t("loadingConversation")}</p>}
          <MessageList
            groups={groups}
            follow={follow}
            subagents={subagents.progress}
            turnTimes={turnTimes}
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
                .catch((caught: unknown) => setSendError(sayError(caught).text));
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
          {!follow.atBottom && groups.length > 0 && (
            <button type="button" className="jump-to-latest small" onClick={follow.jumpToLatest}>
              {t("jumpToLatest")}
            </button>
          )}
        </div>
        {todos.length > 0 && <TodoList todos={todos} running={stream.isLoading} />}
        <Composer
          models={models}
          model={model}
          onModelChange={pickModel}
          planMode={planMode}
          onPlanModeChange={setPlanMode}
          subagents={delegate}
          onSubagentsChange={setDelegate}
          busy={stream.isLoading}
          onSend={(text, files, upload) =>
            send(text, files, model, upload).catch((caught: unknown) =>
              failSend(caught, text, files),
            )
          }
          restored={restored}
          disabledReason={missing ? t("chatGone") : null}
          onStop={() => void stop()}
        />
      </section>
      {threadId && files.open && (
        <ArtifactsPanel
          threadId={threadId}
          artifacts={artifacts}
          uploads={files.uploads}
          streaming={stream.isLoading}
          messages={messages}
          onClose={files.hide}
        />
      )}
    </div>
  );
}
