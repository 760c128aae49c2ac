import { type HostileWorld, SENTINEL_IMAGE, SENTINEL_NAME } from "./hostile-world.js";

/**
 * Kinds of hostile input. `literal` kinds (encodings, look-alike characters, long names) are
 * plain names to a POSIX filesystem, so a write may legitimately create a strangely named file
 * inside the thread; every other kind must be refused outright.
 */
export type HostileKind =
  | "dotdot"
  | "absolute"
  | "prefix"
  | "relative"
  | "tilde"
  | "file-url"
  | "nul"
  | "symlink"
  | "special-file"
  | "encoded"
  | "unicode"
  | "overlong";

const LITERAL_KINDS: ReadonlySet<HostileKind> = new Set(["encoded", "unicode", "overlong"]);

export function mayBeContained(kind: HostileKind): boolean {
  return LITERAL_KINDS.has(kind);
}

export interface ToolPathCase {
  id: string;
  kind: HostileKind;
  path: string;
  /** Points at a real system file: never given to a tool that writes (the suite runs as root). */
  system?: boolean;
  /** Resolves to a legitimate file inside the thread, so success is right. */
  inside?: boolean;
}

const V = "/mnt/user-data";
const O = `${V}/outputs`;
const W = `${V}/workspace`;
const U = `${V}/uploads`;
const S = SENTINEL_NAME;

/** Paths a model could hand the file tools, each aimed at something outside the thread. */
export function toolPathCases(world: HostileWorld): ToolPathCase[] {
  const out = world.outside;
  const outRel = out.replace(/^\/+/, "");
  const cases: ToolPathCase[] = [
    // `..` in many spellings
    {
      id: "dotdot-etc-passwd",
      kind: "dotdot",
      path: `${O}/../../../../../../etc/passwd`,
      system: true,
    },
    { id: "dotdot-thread-dir", kind: "dotdot", path: `${O}/../../${S}` },
    { id: "dotdot-from-workspace", kind: "dotdot", path: `${W}/../../${S}` },
    { id: "dotdot-from-uploads", kind: "dotdot", path: `${U}/../../${S}` },
    { id: "dotdot-to-outside", kind: "dotdot", path: `${O}/${"../".repeat(20)}${outRel}/${S}` },
    { id: "dotdot-from-root", kind: "dotdot", path: `${V}/../../${outRel}/${S}` },
    { id: "dotdot-bare", kind: "dotdot", path: `${O}/..` },
    { id: "dotdot-back-inside", kind: "dotdot", path: `${O}/../outputs/report.md` },
    { id: "dotdot-after-sub", kind: "dotdot", path: `${O}/sub/../../../${S}` },
    { id: "dotdot-dot-prefix", kind: "dotdot", path: `${O}/./../../${S}` },
    { id: "dotdot-double-slash", kind: "dotdot", path: `${O}//..//..//${S}` },
    { id: "dotdot-backslash", kind: "dotdot", path: `${O}/..\\..\\${S}` },
    { id: "dotdot-all-backslash", kind: "dotdot", path: `${O}\\..\\..\\${S}` },
    {
      id: "dotdot-bob",
      kind: "dotdot",
      path: `${O}/../../../../../bob/threads/${world.bob.threadId}/user-data/outputs/${S}`,
    },
    {
      id: "dotdot-relative-deep",
      kind: "dotdot",
      path: `${"../".repeat(50)}etc/passwd`,
      system: true,
    },
    { id: "dotdot-200", kind: "dotdot", path: `${O}/${"../".repeat(200)}etc/passwd`, system: true },
    { id: "dotdot-skills", kind: "dotdot", path: `/mnt/skills/../user-data/outputs/report.md` },
    { id: "dotdot-mnt-dot", kind: "dotdot", path: `/mnt/./user-data/outputs/../../../${S}` },
    { id: "dotdot-tilde-mid", kind: "dotdot", path: `${O}/~/../../${S}` },
    { id: "dotdot-nul-mid", kind: "nul", path: `${O}/x\0/../../${S}` },
    // encodings: never decoded, so they are plain (missing) names
    { id: "enc-dot-segments", kind: "encoded", path: `${O}/%2e%2e/%2e%2e/${S}` },
    { id: "enc-dot-slash", kind: "encoded", path: `${O}/%2e%2e%2f%2e%2e%2f${S}` },
    { id: "enc-double", kind: "encoded", path: `${O}/%252e%252e%252f${S}` },
    { id: "enc-slash-only", kind: "encoded", path: `${O}/..%2f${S}` },
    { id: "enc-backslash", kind: "encoded", path: `${O}/..%5c${S}` },
    { id: "enc-overlong-utf8", kind: "encoded", path: `${O}/%c0%ae%c0%ae/${S}` },
    { id: "enc-overlong-utf8-3", kind: "encoded", path: `${O}/%e0%80%ae%e0%80%ae/${S}` },
    { id: "enc-absolute", kind: "encoded", path: "%2fetc%2fpasswd", system: true },
    { id: "enc-nul", kind: "encoded", path: `${O}/report.md%00.png` },
    { id: "enc-whole-path", kind: "encoded", path: `/mnt%2fuser-data%2foutputs%2f..%2f..%2f${S}` },
    { id: "enc-iis-unicode", kind: "encoded", path: `${O}/%u002e%u002e/${S}` },
    { id: "enc-double-backslash", kind: "encoded", path: `${O}/..%255c..%255c${S}` },
    // NUL bytes
    { id: "nul-after-name", kind: "nul", path: `${O}/report.md\0../../${S}` },
    { id: "nul-alone", kind: "nul", path: `${O}/\0` },
    { id: "nul-first", kind: "nul", path: "\0/etc/passwd", system: true },
    { id: "nul-between-paths", kind: "nul", path: `${out}/${S}\0${O}/report.md` },
    { id: "nul-extension", kind: "nul", path: `${O}/chart.png\0.txt` },
    // absolute host paths
    { id: "abs-outside-file", kind: "absolute", path: `${out}/${S}` },
    { id: "abs-outside-dir", kind: "absolute", path: out },
    { id: "abs-thread-dir", kind: "absolute", path: `${world.aliceDirs.threadDir}/${S}` },
    { id: "abs-home", kind: "absolute", path: `${world.home}/${S}` },
    { id: "abs-bob-output", kind: "absolute", path: `${world.bobDirs.outputsDir}/${S}` },
    { id: "abs-own-host-path", kind: "absolute", path: `${world.aliceDirs.workspaceDir}/x.txt` },
    { id: "abs-etc-passwd", kind: "absolute", path: "/etc/passwd", system: true },
    { id: "abs-etc-shadow", kind: "absolute", path: "/etc/shadow", system: true },
    { id: "abs-proc-environ", kind: "absolute", path: "/proc/self/environ", system: true },
    { id: "abs-proc-cwd", kind: "absolute", path: "/proc/self/cwd/package.json", system: true },
    { id: "abs-root-ssh", kind: "absolute", path: "/root/.ssh/id_rsa", system: true },
    { id: "abs-root", kind: "absolute", path: "/", system: true },
    { id: "abs-double-slash", kind: "absolute", path: "//etc/passwd", system: true },
    { id: "abs-tmp", kind: "absolute", path: "/tmp", system: true },
    { id: "abs-dev-zero", kind: "absolute", path: "/dev/zero", system: true },
    { id: "abs-mnt", kind: "absolute", path: "/mnt" },
    { id: "abs-mnt-slash", kind: "absolute", path: "/mnt/" },
    // look-alike prefixes
    { id: "prefix-user-dataX", kind: "prefix", path: "/mnt/user-dataX/outputs/report.md" },
    { id: "prefix-user-data-evil", kind: "prefix", path: `/mnt/user-data-evil/${S}` },
    { id: "prefix-user-data-bak", kind: "prefix", path: "/mnt/user-data.bak/outputs/report.md" },
    { id: "prefix-outputsX", kind: "prefix", path: `${V}/outputsX/report.md` },
    { id: "prefix-outputs-evil", kind: "prefix", path: `${V}/outputs-evil/x.txt` },
    { id: "prefix-mnt-user", kind: "prefix", path: "/mnt/user" },
    { id: "prefix-skillsX", kind: "prefix", path: "/mnt/skillsX/secret" },
    { id: "prefix-upper-case", kind: "prefix", path: "/MNT/USER-DATA/outputs/report.md" },
    { id: "prefix-user-data-root-file", kind: "prefix", path: `${V}/${S}` },
    // relative paths
    { id: "rel-bare-name", kind: "relative", path: S },
    { id: "rel-parent", kind: "relative", path: `../${S}` },
    { id: "rel-outputs", kind: "relative", path: "outputs/report.md" },
    { id: "rel-no-leading-slash", kind: "relative", path: "mnt/user-data/outputs/report.md" },
    { id: "rel-dot-slash", kind: "relative", path: "./mnt/user-data/outputs/report.md" },
    { id: "rel-empty", kind: "relative", path: "" },
    { id: "rel-dot", kind: "relative", path: "." },
    // ~
    { id: "tilde-alone", kind: "tilde", path: "~" },
    { id: "tilde-home-file", kind: "tilde", path: `~/${S}` },
    { id: "tilde-root-user", kind: "tilde", path: "~root/.bashrc", system: true },
    { id: "tilde-dotdot", kind: "tilde", path: "~/../../etc/passwd", system: true },
    // file:// URLs
    { id: "url-etc-passwd", kind: "file-url", path: "file:///etc/passwd", system: true },
    { id: "url-outside", kind: "file-url", path: `file://${out}/${S}` },
    { id: "url-own-output", kind: "file-url", path: `file://${O}/report.md` },
    { id: "url-upper-scheme", kind: "file-url", path: "FILE:/etc/passwd", system: true },
    { id: "url-localhost", kind: "file-url", path: "file://localhost/etc/passwd", system: true },
    // unicode tricks: to POSIX these are ordinary characters, never separators or dots
    { id: "uni-fullwidth-dots", kind: "unicode", path: `${O}/．．/．．/${S}` },
    { id: "uni-fullwidth-slash", kind: "unicode", path: `${O}/．．／．．／${S}` },
    { id: "uni-fullwidth-root", kind: "unicode", path: "／mnt／user-data／outputs／report.md" },
    { id: "uni-one-dot-leader", kind: "unicode", path: `${O}/\u2024\u2024/\u2024\u2024/${S}` },
    { id: "uni-two-dot-leader", kind: "unicode", path: `${O}/\u2025/\u2025/${S}` },
    { id: "uni-small-full-stop", kind: "unicode", path: `${O}/\ufe52\ufe52/\ufe52\ufe52/${S}` },
    { id: "uni-combining-dot", kind: "unicode", path: `${O}/.\u0307./${S}` },
    { id: "uni-combining-slash", kind: "unicode", path: `${O}/..\u0338/${S}` },
    { id: "uni-rtl-override", kind: "unicode", path: `${O}/\u202etxt.lesrep-terces` },
    { id: "uni-division-slash", kind: "unicode", path: `${O}/..\u2215..\u2215${S}` },
    { id: "uni-fraction-slash", kind: "unicode", path: `${O}/..\u2044${S}` },
    { id: "uni-zero-width", kind: "unicode", path: `${O}/.\u200b./${S}` },
    { id: "uni-fullwidth-backslash", kind: "unicode", path: `${O}/..＼..＼${S}` },
    { id: "uni-hyphen-lookalike", kind: "unicode", path: "/mnt/user\u2010data/outputs/report.md" },
    { id: "uni-cyrillic-a", kind: "unicode", path: "/mnt/user-d\u0430ta/outputs/report.md" },
    { id: "uni-lone-surrogate", kind: "unicode", path: `${O}/\ud800.txt` },
    // overlong
    { id: "long-name-300", kind: "overlong", path: `${O}/${"a".repeat(300)}` },
    { id: "long-depth-2500", kind: "overlong", path: `${O}/${"a/".repeat(2500)}x` },
    { id: "long-name-100k", kind: "overlong", path: `${O}/${"x".repeat(100_000)}` },
    {
      id: "long-dotdot-5000",
      kind: "dotdot",
      path: `${O}/${"../".repeat(5000)}etc/passwd`,
      system: true,
    },
    // symlinks planted in the thread's folders, leading out
    ...(["outputs", "workspace", "uploads"] as const).flatMap((dir): ToolPathCase[] => {
      const base = `${V}/${dir}`;
      return [
        { id: `link-${dir}-abs-file`, kind: "symlink", path: `${base}/abs-file-link` },
        { id: `link-${dir}-rel-file`, kind: "symlink", path: `${base}/rel-file-link` },
        { id: `link-${dir}-abs-dir`, kind: "symlink", path: `${base}/abs-dir-link` },
        { id: `link-${dir}-abs-dir-file`, kind: "symlink", path: `${base}/abs-dir-link/${S}` },
        { id: `link-${dir}-rel-dir-file`, kind: "symlink", path: `${base}/rel-dir-link/${S}` },
        {
          id: `link-${dir}-rel-dir-deep`,
          kind: "symlink",
          path: `${base}/rel-dir-link/sub/deep-sentinel.txt`,
        },
        { id: `link-${dir}-chain`, kind: "symlink", path: `${base}/chain-1` },
        { id: `link-${dir}-dangling`, kind: "symlink", path: `${base}/dangling-link` },
        {
          id: `link-${dir}-dangling-dir`,
          kind: "symlink",
          path: `${base}/dangling-dir-link/new.txt`,
        },
        { id: `link-${dir}-bob`, kind: "symlink", path: `${base}/bob-link/${S}` },
        { id: `link-${dir}-thread-dir`, kind: "symlink", path: `${base}/thread-link/${S}` },
        { id: `link-${dir}-home`, kind: "symlink", path: `${base}/home-link/${S}` },
        { id: `link-${dir}-loop`, kind: "symlink", path: `${base}/loop-a` },
        { id: `link-${dir}-image`, kind: "symlink", path: `${base}/png-link` },
        { id: `link-${dir}-passwd`, kind: "symlink", path: `${base}/passwd-link`, system: true },
        {
          id: `link-${dir}-root`,
          kind: "symlink",
          path: `${base}/root-link/etc/passwd`,
          system: true,
        },
        { id: `fifo-${dir}`, kind: "special-file", path: `${base}/pipe.txt` },
        { id: `fifo-${dir}-image`, kind: "special-file", path: `${base}/pipe.png` },
      ];
    }),
    // control: these normalize to Alice's own report; success is right
    {
      id: "inside-dot-prefix",
      kind: "relative",
      path: "/./mnt/user-data/outputs/report.md",
      inside: true,
    },
    {
      id: "inside-double-slash",
      kind: "relative",
      path: "//mnt//user-data//outputs//report.md",
      inside: true,
    },
  ];
  return cases;
}

export const SENTINEL_FILES = [SENTINEL_NAME, SENTINEL_IMAGE, "deep-sentinel.txt"];

export interface UploadNameCase {
  id: string;
  /** Written into `filename="…"` as raw UTF-8, unless `star` puts it in `filename*`. */
  name: string;
  star?: boolean;
  /** Must be refused; otherwise it is a plain name that may be stored inside the uploads folder. */
  refuse: boolean;
}

/** File names a client could send in a multipart upload. */
export const UPLOAD_NAME_CASES: UploadNameCase[] = [
  { id: "up-parent", name: `../${S}`, refuse: true },
  { id: "up-etc-passwd-deep", name: "../../../../etc/passwd", refuse: true },
  { id: "up-dotdot", name: "..", refuse: true },
  { id: "up-dot", name: ".", refuse: true },
  { id: "up-absolute", name: "/etc/passwd", refuse: true },
  { id: "up-absolute-tmp", name: "/tmp/pwned.txt", refuse: true },
  { id: "up-backslash-parent", name: `..\\..\\${S}`, refuse: true },
  { id: "up-subfolder", name: "sub/file.txt", refuse: true },
  { id: "up-unc", name: "\\\\server\\share\\x", refuse: true },
  { id: "up-windows-drive", name: "C:\\Windows\\win.ini", refuse: true },
  { id: "up-enc-dot-slash", name: `%2e%2e%2f${S}`, refuse: false },
  { id: "up-enc-slash", name: `..%2f${S}`, refuse: false },
  { id: "up-double-enc", name: "%252e%252e%252f", refuse: false },
  { id: "up-enc-nul", name: "%00.txt", refuse: false },
  { id: "up-enc-nul-slash", name: "..%00/x", refuse: true },
  { id: "up-nul", name: "a\0b.txt", refuse: true },
  { id: "up-nul-extension", name: "report.txt\0.png", refuse: true },
  { id: "up-control", name: "\u0001ctrl.txt", refuse: true },
  { id: "up-tab", name: "tab\there.txt", refuse: true },
  { id: "up-newline", name: "line\nbreak.txt", refuse: true },
  { id: "up-del", name: "del\u007f.txt", refuse: true },
  { id: "up-fullwidth-dots", name: "．．", refuse: true },
  { id: "up-fullwidth-traversal", name: `．．／${S}`, refuse: true },
  { id: "up-one-dot-leader", name: "\u2024\u2024", refuse: true },
  { id: "up-two-dot-leader", name: "\u2025", refuse: true },
  { id: "up-small-full-stop", name: "\ufe52\ufe52", refuse: true },
  { id: "up-fullwidth-root", name: "／etc／passwd", refuse: true },
  { id: "up-fullwidth-backslash", name: "..＼x", refuse: true },
  { id: "up-combining-dot", name: ".\u0307.", refuse: false },
  { id: "up-combining-slash", name: "..\u0338", refuse: false },
  { id: "up-rtl-override", name: "\u202etxt.exe", refuse: true },
  { id: "up-rtl-invoice", name: "invoice\u202efdp.exe", refuse: true },
  { id: "up-zero-width", name: "\u200bzero.txt", refuse: true },
  { id: "up-bom", name: "\ufeffbom.txt", refuse: true },
  { id: "up-256-bytes", name: "a".repeat(256), refuse: true },
  { id: "up-256-bytes-utf8", name: "é".repeat(128), refuse: true },
  { id: "up-255-bytes", name: "b".repeat(255), refuse: false },
  { id: "up-tilde", name: "~", refuse: false },
  { id: "up-tilde-bashrc", name: "~/.bashrc", refuse: true },
  { id: "up-file-url", name: "file:///etc/passwd", refuse: true },
  { id: "up-file-scheme-name", name: "file:secret.txt", refuse: false },
  { id: "up-staging-name", name: ".upload-0123.part", refuse: true },
  { id: "up-staging-prefix", name: ".upload-x", refuse: true },
  { id: "up-three-dots", name: "...", refuse: false },
  { id: "up-same-name-as-sentinel", name: S, refuse: false },
  { id: "up-over-link-file", name: "abs-file-link", refuse: true },
  { id: "up-over-link-dir", name: "abs-dir-link", refuse: true },
  { id: "up-over-dangling-link", name: "dangling-link", refuse: true },
  { id: "up-over-fifo", name: "pipe.txt", refuse: true },
  { id: "up-star-parent", name: `../../${S}`, star: true, refuse: true },
  { id: "up-star-fullwidth", name: "．．／x", star: true, refuse: true },
  { id: "up-star-nul", name: "x\0.txt", star: true, refuse: true },
];

export interface RawPathCase {
  id: string;
  /** Exactly what goes on the request line after the route's prefix. */
  raw: string;
  /** Node's HTTP parser answers a bare 400 before the request reaches the gateway. */
  parserRejects?: boolean;
}

/** Names for `DELETE …/uploads/{filename}`, as percent-encoded (or not) on the request line. */
export const DELETE_NAME_CASES: RawPathCase[] = [
  { id: "del-enc-parent", raw: `..%2F${S}` },
  { id: "del-enc-parent-deep", raw: `..%2F..%2F..%2F${S}` },
  { id: "del-enc-dots-slash", raw: `%2e%2e%2f${S}` },
  { id: "del-enc-backslash", raw: `..%5C${S}` },
  { id: "del-nul", raw: "%00" },
  { id: "del-nul-extension", raw: "report.txt%00.png" },
  { id: "del-double-enc", raw: `%252e%252e%252f${S}` },
  { id: "del-link-file", raw: "abs-file-link" },
  { id: "del-link-dir", raw: "abs-dir-link" },
  { id: "del-link-dangling", raw: "dangling-link" },
  { id: "del-link-chain", raw: "chain-1" },
  { id: "del-fifo", raw: "pipe.txt" },
  { id: "del-fullwidth-dots", raw: "%EF%BC%8E%EF%BC%8E" },
  { id: "del-one-dot-leader", raw: "%E2%80%A4%E2%80%A4" },
  { id: "del-rtl-override", raw: "%E2%80%AEtxt.exe" },
  { id: "del-staging", raw: ".upload-x.part" },
  { id: "del-absolute", raw: "%2Fetc%2Fpasswd" },
  { id: "del-tilde", raw: "~" },
  { id: "del-file-url", raw: "file%3A%2F%2F%2Fetc%2Fpasswd" },
  { id: "del-overlong", raw: "a".repeat(300) },
  { id: "del-invalid-utf8", raw: "%C0%AE%C0%AE" },
  { id: "del-dotdot-raw", raw: ".." },
  { id: "del-dotdot-enc", raw: "%2e%2e" },
  { id: "del-sentinel-name", raw: S },
];

/** Paths after `/artifacts/`, as sent on the request line. */
export function artifactPathCases(): RawPathCase[] {
  const o = "mnt/user-data/outputs";
  return [
    { id: "art-dotdot-passwd", raw: `${o}/../../../../../../etc/passwd` },
    { id: "art-dotdot-thread", raw: `${o}/../../../${S}` },
    { id: "art-enc-dot-segments", raw: `${o}/%2e%2e/%2e%2e/${S}` },
    { id: "art-enc-dot-slash", raw: `${o}/%2e%2e%2f%2e%2e%2f${S}` },
    { id: "art-double-enc", raw: `${o}/%252e%252e%252f${S}` },
    { id: "art-enc-slash", raw: `${o}/..%2f${S}` },
    { id: "art-enc-backslash", raw: `${o}/..%5c${S}` },
    { id: "art-nul-extension", raw: `${o}/report.md%00.png` },
    { id: "art-nul", raw: `${o}/%00` },
    { id: "art-link-abs-file", raw: `${o}/abs-file-link` },
    { id: "art-link-rel-file", raw: `${o}/rel-file-link` },
    { id: "art-link-abs-dir", raw: `${o}/abs-dir-link/${S}` },
    { id: "art-link-rel-dir-deep", raw: `${o}/rel-dir-link/sub/deep-sentinel.txt` },
    { id: "art-link-chain", raw: `${o}/chain-1` },
    { id: "art-link-bob", raw: `${o}/bob-link/${S}` },
    { id: "art-link-thread", raw: `${o}/thread-link/${S}` },
    { id: "art-link-home", raw: `${o}/home-link/${S}` },
    { id: "art-link-loop", raw: `${o}/loop-a` },
    { id: "art-link-passwd", raw: `${o}/passwd-link` },
    { id: "art-link-root", raw: `${o}/root-link/etc/passwd` },
    { id: "art-link-image", raw: `${o}/png-link` },
    { id: "art-link-dangling", raw: `${o}/dangling-link` },
    { id: "art-fifo", raw: `${o}/pipe.txt` },
    { id: "art-prefix-user-dataX", raw: "mnt/user-dataX/outputs/report.md" },
    { id: "art-prefix-outputsX", raw: "mnt/user-data/outputsX/report.md" },
    { id: "art-workspace-link", raw: "mnt/user-data/workspace/abs-file-link" },
    { id: "art-uploads-link", raw: "mnt/user-data/uploads/abs-file-link" },
    { id: "art-etc-passwd", raw: "etc/passwd" },
    { id: "art-enc-absolute", raw: "%2Fetc%2Fpasswd" },
    { id: "art-enc-absolute-below", raw: `${o}/%2Fetc%2Fpasswd` },
    { id: "art-double-slash-absolute", raw: `${o}//etc/passwd` },
    { id: "art-file-url", raw: "file:///etc/passwd" },
    { id: "art-fullwidth", raw: `${o}/%EF%BC%8E%EF%BC%8E/%EF%BC%8E%EF%BC%8E/${S}` },
    { id: "art-one-dot-leader", raw: `${o}/%E2%80%A4%E2%80%A4/${S}` },
    { id: "art-tilde-below", raw: `${o}/~/${S}` },
    { id: "art-tilde", raw: `~/${S}` },
    { id: "art-overlong", raw: `${o}/${"a".repeat(5000)}` },
    { id: "art-enc-dotdot-many", raw: `${o}/${"..%2f".repeat(50)}etc/passwd` },
    { id: "art-mixed-dots", raw: `${o}/.%2e/.%2e/${S}` },
    { id: "art-enc-whole", raw: `mnt%2fuser-data%2foutputs%2f..%2f..%2f${S}` },
    { id: "art-overlong-utf8", raw: `${o}/%C0%AE%C0%AE/${S}` },
    { id: "art-semicolon", raw: `${o}/..;/..;/${S}` },
    { id: "art-upper-case", raw: "MNT/USER-DATA/outputs/report.md" },
    { id: "art-rtl-override", raw: `${o}/%E2%80%AEtxt.exe` },
    { id: "art-file-then-dotdot", raw: `${o}/report.md/../../workspace/abs-file-link` },
    { id: "art-backslash-raw", raw: `${o}/..\\..\\${S}`, parserRejects: true },
  ];
}
