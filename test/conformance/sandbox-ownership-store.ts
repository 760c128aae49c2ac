/**
 * The SandboxOwnershipStore contract as executable spec, shared by the
 * memory, file and Redis stores. Peers are separate store instances over one backend.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ValidationError } from "../../src/core/errors.js";
import type { SandboxOwnershipStore } from "../../src/sandbox/ownership/ownership-store.js";

export interface OwnershipStoreFixture {
  /** A store acting as `ownerId`, sharing the backend with every other store of this fixture. */
  makeStore(ownerId: string): SandboxOwnershipStore;
  /** Lets every lease lapse (advance a manual clock, or expire the keys on the server). */
  expireLeases(): Promise<void>;
  crossProcess: boolean;
  cleanup(): Promise<void>;
}

export function describeSandboxOwnershipStore(
  name: string,
  makeFixture: () => Promise<OwnershipStoreFixture>,
): void {
  describe(`SandboxOwnershipStore contract: ${name}`, () => {
    let fixture: OwnershipStoreFixture;
    let stores: SandboxOwnershipStore[];
    let me: SandboxOwnershipStore;
    let peer: SandboxOwnershipStore;
    let counter = 0;
    const nextId = (): string => {
      counter += 1;
      return `sb-${process.pid}-${Date.now().toString(36)}-${counter}`;
    };

    beforeEach(async () => {
      fixture = await makeFixture();
      stores = [];
      me = open("owner-me");
      peer = open("owner-peer");
    });

    afterEach(async () => {
      await Promise.all(stores.map((store) => store.close()));
      await fixture.cleanup();
    });

    function open(ownerId: string): SandboxOwnershipStore {
      const store = fixture.makeStore(ownerId);
      stores.push(store);
      return store;
    }

    it("says whether it sees other processes, and names its owner", () => {
      expect(me.supportsCrossProcess).toBe(fixture.crossProcess);
      expect(me.ownerId).toBe("owner-me");
    });

    it("has no owner, nothing to renew and nothing to release for an unknown id", async () => {
      const id = nextId();
      expect(await me.owner(id)).toBeNull();
      expect(await me.renew(id)).toBe("lapsed");
      await me.release(id);
      expect(await me.owner(id)).toBeNull();
    });

    it("take hands a normal lease over from a peer; the peer then sees it lost", async () => {
      const id = nextId();
      expect(await peer.take(id)).toBe(true);
      expect(await me.take(id)).toBe(true);
      expect(await me.owner(id)).toBe("owner-me");
      expect(await peer.renew(id)).toBe("lost");
      expect(await me.renew(id)).toBe("renewed");
    });

    it("claim succeeds only when unowned or already ours", async () => {
      const id = nextId();
      expect(await me.claim(id)).toBe(true);
      expect(await me.claim(id)).toBe(true);
      expect(await peer.claim(id)).toBe(false);
      expect(await peer.claim(id, { forDestroy: true })).toBe(false);
      expect(await peer.owner(id)).toBe("owner-me");
    });

    it("a teardown lease refuses take (ours and peers') and normal claims, not teardown claims", async () => {
      const id = nextId();
      expect(await me.claim(id, { forDestroy: true })).toBe(true);
      expect(await peer.take(id)).toBe(false);
      expect(await me.take(id)).toBe(false);
      expect(await me.claim(id)).toBe(false);
      expect(await me.claim(id, { forDestroy: true })).toBe(true);
      expect(await me.renew(id)).toBe("lost");
      expect(await peer.renew(id)).toBe("lost");
      expect(await peer.owner(id)).toBe("owner-me");
    });

    it("release drops only our own lease, in either state", async () => {
      const owned = nextId();
      await me.take(owned);
      await peer.release(owned);
      expect(await me.owner(owned)).toBe("owner-me");
      await me.release(owned);
      expect(await me.owner(owned)).toBeNull();
      const dying = nextId();
      await me.claim(dying, { forDestroy: true });
      await me.release(dying);
      expect(await peer.claim(dying)).toBe(true);
    });

    it("lets a lease lapse when it is not renewed, so a peer can claim it", async () => {
      const id = nextId();
      await me.take(id);
      await fixture.expireLeases();
      expect(await me.owner(id)).toBeNull();
      expect(await me.renew(id)).toBe("lapsed");
      expect(await peer.claim(id)).toBe(true);
      expect(await me.renew(id)).toBe("lost");
    });

    it("gives an unowned sandbox to exactly one of many concurrent claimers", async () => {
      const id = nextId();
      const claimers = Array.from({ length: 8 }, (_, index) => open(`owner-${index}`));
      const results = await Promise.all(claimers.map((store) => store.claim(id)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = claimers[results.indexOf(true)];
      expect(await me.owner(id)).toBe(winner?.ownerId);
    });

    it("refuses ids that could escape a key space or a folder", async () => {
      await expect(me.take("../escape")).rejects.toBeInstanceOf(ValidationError);
      await expect(me.owner("a/b")).rejects.toBeInstanceOf(ValidationError);
    });
  });
}
