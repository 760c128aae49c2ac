/**
 * The upload routes over real HTTP: multipart uploads land whole in the thread's uploads folder
 * (staged, then renamed), list/limits/delete answer in the reference's shape, limits answer 413
 * with nothing left behind, bad input answers 4xx with a `detail`, and only the thread's owner
 * can touch its uploads.
 */

import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/core/config/load-config.js";
import { FawnPaths } from "../../src/core/paths.js";
import { enableBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { multipartBody } from "../security/helpers/multipart.js";
import { rawRequest } from "../security/helpers/raw-http.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";
import { HeaderAuthProvider } from "./helpers/header-auth.js";

const ALICE = { "x-test-user": "alice" };
const BOB = { "x-test-user": "bob" };
const KIB = 1024;

interface UploadAnswer {
  success: boolean;
  files: Array<{
    filename: string;
    size: number;
    path: string;
    virtual_path: string;
    artifact_url: string;
    extension: string;
    original_filename?: string;
  }>;
  message: string;
  skipped_files: string[];
}

function form(
  files: Array<{ name: string; content: string | Uint8Array }>,
  field = "files",
): FormData {
  const data = new FormData();
  for (const file of files) data.append(field, new Blob([file.content]), file.name);
  return data;
}

describe("uploads over HTTP", () => {
  let gateway: GatewayHarness;
  let paths: FawnPaths;
  let home = "";

  beforeAll(async () => {
    gateway = await startGatewayHarness({
      auth: new HeaderAuthProvider(),
      config: { uploads: { max_files: 3, max_file_size: 64 * KIB, max_total_size: 100 * KIB } },
    });
    home = gateway.fawn.config.home;
    paths = new FawnPaths(home);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  async function newThread(headers = ALICE): Promise<string> {
    const response = await fetch(`${gateway.apiUrl}/threads`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { thread_id: string }).thread_id;
  }

  function uploadsDir(threadId: string, userId = "alice"): string {
    return paths.threadPaths({ userId, threadId }).uploadsDir;
  }

  function upload(
    threadId: string,
    body: FormData | Buffer,
    headers: Record<string, string> = ALICE,
  ) {
    return fetch(`${gateway.apiUrl}/threads/${threadId}/uploads`, {
      method: "POST",
      headers,
      body,
    });
  }

  function uploadRaw(threadId: string, raw: { body: Buffer; contentType: string }) {
    return upload(threadId, raw.body, { ...ALICE, "content-type": raw.contentType });
  }

  async function entries(threadId: string): Promise<string[]> {
    return (await readdir(uploadsDir(threadId)).catch(() => [])).sort();
  }

  it("stores one or many files whole and answers with their virtual paths and artifact URLs", async () => {
    const threadId = await newThread();
    const binary = new Uint8Array(40 * KIB).map((_, i) => (i * 7) % 256);
    const response = await upload(
      threadId,
      form([
        { name: "notes.txt", content: "hello uploads\n" },
        { name: "data blob.bin", content: binary },
        { name: "résumé.md", content: "# CV\n" },
      ]),
    );
    expect(response.status).toBe(200);
    const answer = (await response.json()) as UploadAnswer;
    expect(answer).toMatchObject({ success: true, skipped_files: [] });
    expect(answer.message).toBe("Successfully uploaded 3 file(s)");
    expect(answer.files[0]).toEqual({
      filename: "notes.txt",
      size: 14,
      path: "/mnt/user-data/uploads/notes.txt",
      virtual_path: "/mnt/user-data/uploads/notes.txt",
      artifact_url: `/api/threads/${threadId}/artifacts/mnt/user-data/uploads/notes.txt`,
      extension: ".txt",
    });
    expect(answer.files[1]?.artifact_url).toBe(
      `/api/threads/${threadId}/artifacts/mnt/user-data/uploads/data%20blob.bin`,
    );
    expect(answer.files[2]?.filename).toBe("résumé.md");
    const onDisk = await readFile(join(uploadsDir(threadId), "data blob.bin"));
    expect(onDisk.equals(Buffer.from(binary))).toBe(true);
    // No staging file is left once the request is answered.
    expect(await entries(threadId)).toEqual(["data blob.bin", "notes.txt", "résumé.md"]);
    // Each artifact_url downloads the uploaded bytes (owner only).
    const origin = new URL(gateway.apiUrl).origin;
    const served = await fetch(`${origin}${answer.files[1]?.artifact_url}`, { headers: ALICE });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(binary))).toBe(true);
    const foreign = await fetch(`${origin}${answer.files[0]?.artifact_url}`, { headers: BOB });
    expect(foreign.status).toBe(404);

    for (const route of ["uploads/list", "uploads"]) {
      const listed = await fetch(`${gateway.apiUrl}/threads/${threadId}/${route}`, {
        headers: ALICE,
      });
      expect(listed.status).toBe(200);
      const body = (await listed.json()) as { files: UploadAnswer["files"]; count: number };
      expect(body.count).toBe(3);
      expect(body.files.map((file) => [file.filename, file.size])).toEqual([
        ["data blob.bin", 40 * KIB],
        ["notes.txt", 14],
        ["résumé.md", 5],
      ]);
    }
  });

  it("upload, list and delete do no blocking IO on the event loop", async () => {
    const threadId = await newThread();
    const disableGate = enableBlockingIoGate();
    try {
      const uploaded = await upload(threadId, form([{ name: "gated.txt", content: "x" }]));
      expect(uploaded.status).toBe(200);
      const listed = await fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/list`, {
        headers: ALICE,
      });
      expect(listed.status).toBe(200);
      const deleted = await fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/gated.txt`, {
        method: "DELETE",
        headers: ALICE,
      });
      expect(deleted.status).toBe(200);
    } finally {
      disableGate();
    }
  });

  it("answers the configured limits", async () => {
    const threadId = await newThread();
    const response = await fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/limits`, {
      headers: ALICE,
    });
    expect(await response.json()).toEqual({
      max_files: 3,
      max_file_size: 64 * KIB,
      max_total_size: 100 * KIB,
    });
  });

  it("a thread whose folders were never created lists nothing, and its first upload creates them", async () => {
    const threadId = await newThread();
    await expect(stat(paths.threadDir({ userId: "alice", threadId }))).rejects.toThrow();
    const listed = await fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/list`, {
      headers: ALICE,
    });
    expect(await listed.json()).toEqual({ files: [], count: 0 });
    expect((await upload(threadId, form([{ name: "a.txt", content: "a" }]))).status).toBe(200);
    expect(await entries(threadId)).toEqual(["a.txt"]);
  });

  it("renames duplicates within one request and replaces an earlier upload of the same name", async () => {
    const threadId = await newThread();
    const first = (await (
      await upload(
        threadId,
        form([
          { name: "same.txt", content: "one" },
          { name: "same.txt", content: "two" },
        ]),
      )
    ).json()) as UploadAnswer;
    expect(first.files.map((f) => [f.filename, f.original_filename])).toEqual([
      ["same.txt", undefined],
      ["same_1.txt", "same.txt"],
    ]);
    expect((await upload(threadId, form([{ name: "same.txt", content: "three" }]))).status).toBe(
      200,
    );
    expect(await readFile(join(uploadsDir(threadId), "same.txt"), "utf8")).toBe("three");
    expect(await readFile(join(uploadsDir(threadId), "same_1.txt"), "utf8")).toBe("two");
  });

  it("413 for too many files, a file over max_file_size and a request over max_total_size, leaving nothing behind", async () => {
    const threadId = await newThread();
    expect((await upload(threadId, form([{ name: "keep.txt", content: "original" }]))).status).toBe(
      200,
    );
    const cases: Array<{
      files: Array<{ name: string; content: string | Uint8Array }>;
      detail: RegExp;
    }> = [
      {
        files: ["a", "b", "c", "d"].map((name) => ({ name: `${name}.txt`, content: name })),
        detail: /Too many files: at most 3/,
      },
      {
        files: [
          { name: "keep.txt", content: "replacement" },
          { name: "big.bin", content: new Uint8Array(64 * KIB + 1) },
        ],
        detail: /File too large: big\.bin is over 65536 bytes/,
      },
      {
        files: [
          { name: "keep.txt", content: "replacement" },
          { name: "x.bin", content: new Uint8Array(60 * KIB) },
          { name: "y.bin", content: new Uint8Array(60 * KIB) },
        ],
        detail: /the files of one request may total 102400 bytes/,
      },
    ];
    for (const { files, detail } of cases) {
      const response = await upload(threadId, form(files));
      expect(response.status).toBe(413);
      const body = (await response.json()) as { detail: string; code: string };
      expect(body.code).toBe("payload_too_large");
      expect(body.detail).toMatch(detail);
      // The earlier upload is untouched, and no staging or partial file is left.
      expect(await entries(threadId)).toEqual(["keep.txt"]);
      expect(await readFile(join(uploadsDir(threadId), "keep.txt"), "utf8")).toBe("original");
    }
  });

  it("413 before reading when Content-Length is over the limit, and mid-stream for a chunked body", async () => {
    const threadId = await newThread();
    const raw = multipartBody([{ filename: "huge.bin", content: new Uint8Array(2 * 1024 * KIB) }]);
    const declared = await upload(threadId, raw.body, {
      ...ALICE,
      "content-type": raw.contentType,
    });
    expect(declared.status).toBe(413);
    const chunked = await rawRequest(gateway.url, {
      method: "POST",
      path: `/api/threads/${threadId}/uploads`,
      headers: { ...ALICE, "content-type": raw.contentType },
      body: raw.body,
      chunked: true,
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ code: "payload_too_large" });
    expect(await entries(threadId)).toEqual([]);
  });

  it("400 with a detail for bodies that are not uploads, and for bad names", async () => {
    const threadId = await newThread();
    const bad: Array<[Promise<Response>, RegExp]> = [
      [
        fetch(`${gateway.apiUrl}/threads/${threadId}/uploads`, {
          method: "POST",
          headers: { ...ALICE, "content-type": "application/json" },
          body: "{}",
        }),
        /multipart\/form-data/,
      ],
      [upload(threadId, new FormData()), /No files provided/],
      [
        upload(threadId, form([{ name: "a.txt", content: "a" }], "attachment")),
        /Unexpected file field "attachment"/,
      ],
      [
        uploadRaw(threadId, multipartBody([{ filename: "../evil.txt", content: "x" }])),
        /path separator/,
      ],
      [uploadRaw(threadId, multipartBody([{ filename: "..", content: "x" }])), /names a folder/],
      [
        uploadRaw(threadId, multipartBody([{ filename: ".upload-1234.part", content: "x" }])),
        /reserved for uploads in progress/,
      ],
      [
        uploadRaw(threadId, multipartBody([{ filename: "a".repeat(256), content: "x" }])),
        /longer than 255 bytes/,
      ],
    ];
    for (const [pending, detail] of bad) {
      const response = await pending;
      expect(response.status).toBe(400);
      const body = (await response.json()) as { detail: string };
      expect(body.detail).toMatch(detail);
    }
    const truncated = multipartBody([{ filename: "cut.txt", content: "partial" }]);
    const cut = await uploadRaw(threadId, {
      body: truncated.body.subarray(0, truncated.body.length - 20),
      contentType: truncated.contentType,
    });
    expect(cut.status).toBe(400);
    expect(await entries(threadId)).toEqual([]);
  });

  it("400 naming the problem for zero-width, bidi and other invisible characters in a name", async () => {
    const threadId = await newThread();
    const invisible = {
      "zero width space": "\u200b",
      "right-to-left override": "\u202e",
      "byte order mark": "\ufeff",
      "zero width joiner": "\u200d",
      "word joiner": "\u2060",
      "soft hyphen": "\u00ad",
      "Hangul filler": "\u3164",
      "variation selector": "\ufe0f",
      "tag character": "\u{e0041}",
    };
    for (const [what, char] of Object.entries(invisible)) {
      for (const part of [
        { filename: `re${char}port.txt` },
        { filenameStar: `re${char}port.txt` },
      ]) {
        const response = await uploadRaw(threadId, multipartBody([{ ...part, content: "x" }]));
        expect(response.status, what).toBe(400);
        const body = (await response.json()) as { detail: string; code: string };
        expect(body.code, what).toBe("bad_request");
        expect(body.detail, what).toMatch(/invisible .*character U\+[0-9A-F]{4,5}/);
      }
    }
    const deleted = await rawRequest(gateway.url, {
      method: "DELETE",
      path: `/api/threads/${threadId}/uploads/re%E2%80%8Bport.txt`,
      headers: ALICE,
    });
    expect(deleted.status).toBe(400);
    expect(JSON.parse(deleted.body).detail).toMatch(/invisible .*character U\+200B/);
    expect(await entries(threadId)).toEqual([]);
  });

  it("stores names in NFC, so NFD and NFC spellings of one name are one file", async () => {
    const threadId = await newThread();
    const nfd = "Cafe\u0301 re\u0301sume\u0301.txt";
    const nfc = nfd.normalize("NFC");
    expect(nfc).not.toBe(nfd);
    const first = await uploadRaw(threadId, multipartBody([{ filenameStar: nfd, content: "one" }]));
    expect(first.status).toBe(200);
    expect(((await first.json()) as UploadAnswer).files[0]?.filename).toBe(nfc);
    const second = await upload(threadId, form([{ name: nfc, content: "two" }]));
    expect(second.status).toBe(200);
    expect(await entries(threadId)).toEqual([nfc]);
    expect(await readFile(join(uploadsDir(threadId), nfc), "utf8")).toBe("two");
    // Twins inside one request are duplicates of one name.
    const both = await uploadRaw(
      threadId,
      multipartBody([
        { filenameStar: nfc, content: "three" },
        { filenameStar: nfd, content: "four" },
      ]),
    );
    expect(((await both.json()) as UploadAnswer).files.map((f) => f.filename)).toEqual([
      nfc,
      nfc.replace(".txt", "_1.txt"),
    ]);
    // Delete by the NFD spelling removes the NFC file.
    const deleted = await fetch(
      `${gateway.apiUrl}/threads/${threadId}/uploads/${encodeURIComponent(nfd)}`,
      { method: "DELETE", headers: ALICE },
    );
    expect(deleted.status).toBe(200);
    expect(await entries(threadId)).toEqual([nfc.replace(".txt", "_1.txt")]);
  });

  it("a bad name anywhere in the request stores none of its files", async () => {
    const threadId = await newThread();
    const response = await uploadRaw(
      threadId,
      multipartBody([
        { filename: "good.txt", content: "fine" },
        { filename: "sub/evil.txt", content: "x" },
      ]),
    );
    expect(response.status).toBe(400);
    expect(await entries(threadId)).toEqual([]);
  });

  it("deletes one upload; 404 for a missing one, 400 for a name that is not a bare file name", async () => {
    const threadId = await newThread();
    await upload(
      threadId,
      form([
        { name: "gone.txt", content: "x" },
        { name: "stays.txt", content: "y" },
      ]),
    );
    const del = (name: string) =>
      fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/${name}`, {
        method: "DELETE",
        headers: ALICE,
      });
    const deleted = await del("gone.txt");
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true, message: "Deleted gone.txt" });
    expect(await entries(threadId)).toEqual(["stays.txt"]);
    expect((await del("gone.txt")).status).toBe(404);
    // Raw requests, so the server sees exactly these bytes.
    for (const name of ["..%2Fstays.txt", "%00stays.txt", ".upload-x.part", "%E2%80%A4%E2%80%A4"]) {
      const response = await rawRequest(gateway.url, {
        method: "DELETE",
        path: `/api/threads/${threadId}/uploads/${name}`,
        headers: ALICE,
      });
      expect(response.status, name).toBe(400);
      expect(JSON.parse(response.body).detail, name).toMatch(/^Invalid file name/);
    }
    // A `..` segment, plain or encoded, is folded by the server's URL parsing: no route.
    for (const name of ["..", "%2e%2e", ".%2E"]) {
      const response = await rawRequest(gateway.url, {
        method: "DELETE",
        path: `/api/threads/${threadId}/uploads/${name}`,
        headers: ALICE,
      });
      expect(response.status, name).toBe(404);
      expect(JSON.parse(response.body).detail, name).toMatch(/^No route/);
    }
    expect(await entries(threadId)).toEqual(["stays.txt"]);
  });

  it("only lists regular files: staging files, folders and symlinks in the folder are not uploads", async () => {
    const threadId = await newThread();
    await upload(threadId, form([{ name: "real.txt", content: "x" }]));
    const dir = uploadsDir(threadId);
    await writeFile(join(dir, ".upload-deadbeef.part"), "half");
    await mkdir(join(dir, "folder"));
    await symlink("/etc/passwd", join(dir, "passwd-link"));
    const listed = await fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/list`, {
      headers: ALICE,
    });
    const body = (await listed.json()) as { files: Array<{ filename: string }> };
    expect(body.files.map((file) => file.filename)).toEqual(["real.txt"]);
    const delLink = await fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/passwd-link`, {
      method: "DELETE",
      headers: ALICE,
    });
    expect(delLink.status).toBe(404);
    // Uploading over a folder or a link of the same name is refused whole.
    const over = await upload(threadId, form([{ name: "folder", content: "x" }]));
    expect(over.status).toBe(409);
    expect(((await over.json()) as { detail: string }).detail).toMatch(
      /holds a folder or link of that name/,
    );
    expect((await stat(join(dir, "folder"))).isDirectory()).toBe(true);
  });

  it("refuses an uploads folder that was replaced by a symlink, writing nothing where it points", async () => {
    const threadId = await newThread();
    const elsewhere = join(home, "elsewhere");
    await mkdir(elsewhere, { recursive: true });
    const userData = paths.threadPaths({ userId: "alice", threadId }).userDataDir;
    await mkdir(userData, { recursive: true });
    await symlink(elsewhere, join(userData, "uploads"));
    const response = await upload(threadId, form([{ name: "x.txt", content: "x" }]));
    expect(response.status).toBe(409);
    expect(await readdir(elsewhere)).toEqual([]);
    const listed = await fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/list`, {
      headers: ALICE,
    });
    expect(listed.status).toBe(409);
    await rm(join(userData, "uploads"));
  });

  it("only the owner: another user's thread is 404, no caller 401, a bad id 422", async () => {
    const threadId = await newThread();
    await upload(threadId, form([{ name: "private.txt", content: "alice only" }]));
    const asBob = [
      upload(threadId, form([{ name: "bob.txt", content: "x" }]), BOB),
      fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/list`, { headers: BOB }),
      fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/limits`, { headers: BOB }),
      fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/private.txt`, {
        method: "DELETE",
        headers: BOB,
      }),
    ];
    for (const response of await Promise.all(asBob)) {
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("private.txt");
    }
    expect(await entries(threadId)).toEqual(["private.txt"]);
    await expect(stat(uploadsDir(threadId, "bob"))).rejects.toThrow();
    // A thread nobody created yet takes the file in the caller's own folder (a new chat's
    // first message); test/reference-frontend/uploads-before-thread.test.ts covers the rest.
    const unknown = await upload("no-such-thread", form([{ name: "x.txt", content: "x" }]));
    expect(unknown.status).toBe(200);
    await expect(stat(uploadsDir("no-such-thread", "bob"))).rejects.toThrow();
    const anonymous = await fetch(`${gateway.apiUrl}/threads/${threadId}/uploads/list`);
    expect(anonymous.status).toBe(401);
    expect((await upload("bad.id", form([{ name: "x.txt", content: "x" }]))).status).toBe(422);
  });
});

describe("uploads under the default limits", () => {
  let gateway: GatewayHarness;

  beforeAll(async () => {
    gateway = await startGatewayHarness();
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it("accepts a file larger than the gateway's general 20 MiB body limit", async () => {
    const thread = await gateway.client.threads.create();
    const size = 21 * 1024 * KIB;
    const data = new FormData();
    data.append("files", new Blob([new Uint8Array(size)]), "large.bin");
    const response = await fetch(`${gateway.apiUrl}/threads/${thread.thread_id}/uploads`, {
      method: "POST",
      body: data,
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as UploadAnswer;
    expect(answer.files[0]?.size).toBe(size);
  });
});

describe("the uploads config section", () => {
  it("has the reference's defaults and reads its older key names", () => {
    const defaults = parseConfig({}, { env: {}, cwd: "/srv" }).config.uploads;
    expect(defaults).toEqual({
      max_files: 10,
      max_file_size: 50 * 1024 * KIB,
      max_total_size: 100 * 1024 * KIB,
      auto_convert_documents: false,
    });
    const legacy = parseConfig(
      { uploads: { max_file_count: 4, max_single_file_size: 1000 } },
      { env: {}, cwd: "/srv" },
    );
    expect(legacy.warnings).toEqual([]);
    expect(legacy.config.uploads).toMatchObject({ max_files: 4, max_file_size: 1000 });
    expect(() => parseConfig({ uploads: { max_files: 0 } }, { env: {}, cwd: "/srv" })).toThrow(
      /uploads\.max_files/,
    );
  });
});
