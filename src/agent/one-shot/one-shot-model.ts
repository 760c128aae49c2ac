import type {
  BaseChatModel,
  BaseChatModelCallOptions,
} from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { Env } from "../../core/config/env-expansion.js";
import type { FawnConfig, ModelConfig } from "../../core/config/schema.js";
import { isFawnError, ModelUnavailableError } from "../../core/errors.js";
import { contentText } from "../middlewares/conversation.js";
import { CALLER_HEADER } from "../mock-openai/server.js";
import { createChatModel } from "../models/create-chat-model.js";
import { selectModelConfig } from "../models/list-models.js";

/** Tag LangGraph's message streaming skips (the same one middleware side calls carry). */
const NO_STREAM_TAG = "nostream";
const DEFAULT_TIMEOUT_MS = 60_000;

export interface OneShotModelOptions {
  /** Where provider keys are looked up when an entry has none (default process.env). */
  env?: Env;
  /** Relative `script:` paths resolve against this folder (default: the working directory). */
  baseDir?: string;
  /** Longest wait for one answer (default 60 s). */
  timeoutMs?: number;
}

export interface OneShotRequest {
  model: ModelConfig;
  /**
   * Who is asking (`middleware:suggestions`): the scripted models answer such a call without
   * consuming a turn, and the mock OpenAI server reads it from a header.
   */
  caller: `middleware:${string}`;
  system: string;
  user: string;
  /** The HTTP request's signal: a client that left stops the call. */
  signal?: AbortSignal;
}

/**
 * One system + user model call outside any run (follow-up suggestions, draft polishing): the
 * configured entry's client, built once per model and reused, thinking off. Every failure —
 * the entry cannot be built, the provider refuses or is unreachable, no answer in time — is a
 * `ModelUnavailableError` (503) naming the model; provider messages (which may quote a key)
 * stay out of the answer.
 */
export class OneShotModel {
  private readonly clients = new Map<string, Promise<BaseChatModel>>();
  private readonly timeoutMs: number;

  constructor(
    private readonly config: Pick<FawnConfig, "models">,
    private readonly options: OneShotModelOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The entry `name` selects (null: the default model), or null when no such model exists. */
  modelFor(name: string | null | undefined): ModelConfig | null {
    const { model, fellBack } = selectModelConfig(this.config, name ?? undefined);
    return fellBack ? null : model;
  }

  async ask(request: OneShotRequest): Promise<string> {
    const { model, caller } = request;
    const client = await this.client(model);
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
    const callOptions: BaseChatModelCallOptions & {
      options?: { headers: Record<string, string> };
    } = {
      signal,
      runName: caller.slice("middleware:".length),
      tags: [caller, NO_STREAM_TAG],
      metadata: { caller },
      // The OpenAI client sends these headers; other clients ignore the option.
      options: { headers: { [CALLER_HEADER]: caller } },
    };
    try {
      const reply = await client.invoke(
        [new SystemMessage(request.system), new HumanMessage(request.user)],
        callOptions,
      );
      return contentText(reply.content);
    } catch (error) {
      if (deadline.aborted) {
        throw new ModelUnavailableError(
          `Model "${model.name}" did not answer within ${this.timeoutMs / 1000} s; try again or configure a faster model.`,
          { cause: error },
        );
      }
      throw new ModelUnavailableError(
        `Model "${model.name}" did not answer${statusNote(error)}. Check its base_url and api_key in config.yaml and that the provider is reachable.`,
        { cause: error },
      );
    }
  }

  private client(model: ModelConfig): Promise<BaseChatModel> {
    let created = this.clients.get(model.name);
    if (!created) {
      created = createChatModel(model, {
        thinkingEnabled: false,
        ...(this.options.env ? { env: this.options.env } : {}),
        ...(this.options.baseDir ? { baseDir: this.options.baseDir } : {}),
      }).catch((error: unknown) => {
        // Not cached: a key added to the environment later is picked up by the next call.
        this.clients.delete(model.name);
        const reason = isFawnError(error) ? ` ${error.message}` : "";
        throw new ModelUnavailableError(`Model "${model.name}" cannot be used.${reason}`, {
          cause: error,
        });
      });
      this.clients.set(model.name, created);
    }
    return created;
  }
}

/** ` (HTTP 401)` when the provider answered with a status; never the provider's message. */
function statusNote(error: unknown): string {
  if (typeof error !== "object" || error === null) return "";
  const status = "status" in error ? error.status : undefined;
  return typeof status === "number" ? ` (HTTP ${status})` : "";
}
