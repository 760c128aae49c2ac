import type { Json } from "../../core/json/serialize.js";

/** LangGraph's checkpoint reference, as the SDK sends and expects it. */
export interface CheckpointRef {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string | null;
  checkpoint_map: Record<string, Json> | null;
}

/** Where a subgraph task's state will be, before it has a checkpoint. */
export interface SubgraphNamespaceRef {
  thread_id: string;
  checkpoint_ns: string;
}

export interface ApiInterrupt {
  id?: string;
  value: Json;
  [key: string]: Json | undefined;
}

export interface ApiTask {
  id: string;
  name: string;
  /** Where the task sits in the graph (LangGraph's task path); absent when unknown. */
  path?: Json[];
  error: string | null;
  interrupts: ApiInterrupt[];
  /**
   * A subgraph task's checkpoint, when its state was not asked for: only its namespace while it
   * has no checkpoint of its own yet (as the platform answers).
   */
  checkpoint: CheckpointRef | SubgraphNamespaceRef | null;
  /** A subgraph task's own state (`subgraphs=true`). */
  state: ApiThreadState | null;
  result?: Json;
}

/** `ThreadState` of the LangGraph API, plus the reference's flat id fields (additive). */
export interface ApiThreadState {
  values: Record<string, Json>;
  next: string[];
  tasks: ApiTask[];
  metadata: Record<string, Json>;
  created_at: string | null;
  checkpoint: CheckpointRef | null;
  parent_checkpoint: CheckpointRef | null;
  interrupts: ApiInterrupt[];
  checkpoint_id: string | null;
  parent_checkpoint_id: string | null;
}

export function emptyThreadState(): ApiThreadState {
  return {
    values: {},
    next: [],
    tasks: [],
    metadata: {},
    created_at: null,
    checkpoint: null,
    parent_checkpoint: null,
    interrupts: [],
    checkpoint_id: null,
    parent_checkpoint_id: null,
  };
}
