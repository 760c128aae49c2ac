import { describe, expect, it } from "vitest";
import { containerExecArgs, containerRunArgs } from "./docker-args.js";

describe("docker arguments", () => {
  it("runs a confined, network-less container with the thread's folders mounted", () => {
    const args = containerRunArgs({
      name: "fawn-sandbox-abc",
      image: "python:3.12-slim-bookworm",
      sandboxId: "abc",
      mounts: [
        { virtualPath: "/mnt/user-data", hostPath: "/h/ud", readOnly: true },
        { virtualPath: "/mnt/user-data/workspace", hostPath: "/h/ws", readOnly: false },
        { virtualPath: "/mnt/user-data/uploads", hostPath: "/h/up", readOnly: true },
      ],
      allowNetwork: false,
      user: "1000:1000",
      envNames: ["API_TOKEN"],
      pidsLimit: 256,
    });
    const joined = args.join(" ");
    expect(joined).toContain("--network none --cap-drop ALL --security-opt no-new-privileges");
    expect(joined).toContain("--pids-limit 256 --read-only --tmpfs /tmp");
    expect(joined).toContain("--mount type=bind,src=/h/ws,dst=/mnt/user-data/workspace ");
    expect(joined).toContain("--mount type=bind,src=/h/up,dst=/mnt/user-data/uploads,readonly");
    expect(joined).not.toContain("dst=/mnt/user-data ");
    // Values never appear on the command line, only names.
    expect(args).toContain("API_TOKEN");
    expect(args.slice(-3)).toEqual(["python:3.12-slim-bookworm", "sleep", "infinity"]);
  });

  it("execs under a group-wide timeout with the command as one argument", () => {
    expect(
      containerExecArgs({
        name: "c",
        cwd: "/mnt/user-data/workspace",
        envNames: ["X"],
        timeoutSeconds: 30,
        command: "echo 'a b'",
      }),
    ).toEqual([
      "exec",
      "-w",
      "/mnt/user-data/workspace",
      "-e",
      "X",
      "c",
      "timeout",
      "-s",
      "KILL",
      "30s",
      "bash",
      "-c",
      "echo 'a b'",
    ]);
  });
});
