import { ConflictError, NotFoundError, StoreError } from "../../core/errors.js";
import { type DocumentStore, updateDocument } from "../../ports/document-store.js";
import {
  type AgentDefinition,
  definitionFromStored,
  definitionToStored,
} from "./agent-definition.js";

/** Document collections: one document per (user, agent); the user's profile documents. */
export const AGENTS_COLLECTION = "agents";
export const USER_PROFILE_COLLECTION = "user_profile";
/** The profile's keys: the user's USER.md, and the default agent's SOUL.md. */
const USER_MD_KEY = "USER.md";
const DEFAULT_SOUL_KEY = "SOUL.md";
/** Custom agents one user may keep. */
export const MAX_AGENTS_PER_USER = 200;

/**
 * The users' custom agents and profiles in the document store, so every process of a deployment
 * sees the same ones. Every call names the owner: one user never reads or writes another's.
 * A definition is one document, so its settings and its SOUL.md change together or not at all.
 */
export class CustomAgentStore {
  constructor(private readonly documents: DocumentStore) {}

  async list(owner: string): Promise<AgentDefinition[]> {
    const stored = await this.documents.list(AGENTS_COLLECTION, owner, {
      limit: MAX_AGENTS_PER_USER,
    });
    return stored.flatMap((document) => {
      const definition = definitionFromStored(document.value);
      return definition ? [definition] : [];
    });
  }

  async get(owner: string, name: string): Promise<AgentDefinition | null> {
    const stored = await this.documents.get(AGENTS_COLLECTION, owner, name);
    if (stored === null) return null;
    const definition = definitionFromStored(stored.value);
    if (definition === null) {
      throw new StoreError(`The stored definition of agent '${name}' is unreadable.`);
    }
    return definition;
  }

  async exists(owner: string, name: string): Promise<boolean> {
    return (await this.documents.get(AGENTS_COLLECTION, owner, name)) !== null;
  }

  /** Stores a new agent; 409 when the name is taken, nothing written. */
  async create(owner: string, definition: AgentDefinition): Promise<AgentDefinition> {
    const count = (await this.documents.list(AGENTS_COLLECTION, owner)).length;
    if (count >= MAX_AGENTS_PER_USER) {
      throw new ConflictError(
        `You already have ${MAX_AGENTS_PER_USER} custom agents; delete one before creating another.`,
      );
    }
    const stored = await this.documents.put(
      AGENTS_COLLECTION,
      owner,
      definition.name,
      definitionToStored(definition),
      0,
    );
    if (stored === null) throw new ConflictError(`Agent '${definition.name}' already exists`);
    return definition;
  }

  /**
   * Read-modify-write of one agent (retried on concurrent writes); `change` answers the next
   * definition. With `createIfMissing` an absent agent starts from `createIfMissing` (upsert).
   */
  async update(
    owner: string,
    name: string,
    change: (current: AgentDefinition) => AgentDefinition,
    createIfMissing?: AgentDefinition,
  ): Promise<AgentDefinition> {
    const stored = await updateDocument(
      this.documents,
      AGENTS_COLLECTION,
      owner,
      name,
      (current) => {
        const base =
          current === null ? (createIfMissing ?? null) : definitionFromStored(current.value);
        if (base === null) {
          if (current === null) throw new NotFoundError(`Agent '${name}' not found`);
          throw new StoreError(`The stored definition of agent '${name}' is unreadable.`);
        }
        return definitionToStored({ ...change(base), name });
      },
    );
    const definition = stored === null ? null : definitionFromStored(stored.value);
    if (definition === null) throw new NotFoundError(`Agent '${name}' not found`);
    return definition;
  }

  async delete(owner: string, name: string): Promise<boolean> {
    return this.documents.delete(AGENTS_COLLECTION, owner, name);
  }

  /** The user's USER.md, or null when none was written (or it is blank). */
  async userProfile(owner: string): Promise<string | null> {
    return this.profileText(owner, USER_MD_KEY);
  }

  async setUserProfile(owner: string, content: string): Promise<void> {
    await this.documents.put(USER_PROFILE_COLLECTION, owner, USER_MD_KEY, { content }, "any");
  }

  /** SOUL.md of the user's default agent (written by `setup_agent` outside a custom agent). */
  async defaultSoul(owner: string): Promise<string | null> {
    return this.profileText(owner, DEFAULT_SOUL_KEY);
  }

  async setDefaultSoul(owner: string, content: string): Promise<void> {
    await this.documents.put(USER_PROFILE_COLLECTION, owner, DEFAULT_SOUL_KEY, { content }, "any");
  }

  private async profileText(owner: string, key: string): Promise<string | null> {
    const stored = await this.documents.get(USER_PROFILE_COLLECTION, owner, key);
    const content = stored?.value.content;
    return typeof content === "string" && content.trim() !== "" ? content : null;
  }
}
