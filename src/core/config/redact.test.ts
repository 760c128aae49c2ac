import { describe, expect, it } from "vitest";
import { isSecretKey, REDACTED, redactSecrets } from "./redact.js";

describe("redactSecrets", () => {
  it("masks keys, tokens and passwords at any depth without touching the input", () => {
    const input = {
      models: [
        {
          name: "gpt",
          api_key: "sk-123",
          max_tokens: 4096,
          default_headers: { Authorization: "Bearer x" },
        },
      ],
      sandbox: { provisioner_api_key: "p", ownership: { redis_password: "r" } },
      channels: { slack: { bot_token: "xoxb", clientSecret: "cs" } },
      auth: { mode: "local" },
    };
    const out = redactSecrets(input);
    expect(out).toEqual({
      models: [
        {
          name: "gpt",
          api_key: REDACTED,
          max_tokens: 4096,
          default_headers: { Authorization: REDACTED },
        },
      ],
      sandbox: { provisioner_api_key: REDACTED, ownership: { redis_password: REDACTED } },
      channels: { slack: { bot_token: REDACTED, clientSecret: REDACTED } },
      auth: { mode: "local" },
    });
    expect(input.models[0]?.api_key).toBe("sk-123");
  });

  it("masks the password inside URLs but keeps the rest readable", () => {
    expect(
      redactSecrets({
        database: { url: "postgres://fawn:s3cret@db:5432/fawn" },
        stream_bridge: { redis_url: "redis://:hunter2@cache:6379/0" },
        plain: "postgres://postgres@127.0.0.1:5432/test",
      }),
    ).toEqual({
      database: { url: "postgres://fawn:***@db:5432/fawn" },
      stream_bridge: { redis_url: "redis://:***@cache:6379/0" },
      plain: "postgres://postgres@127.0.0.1:5432/test",
    });
  });

  it("masks every header of tracing.otlp_headers, whatever it is called", () => {
    const printed = redactSecrets({
      tracing: {
        otlp_headers: { "x-honeycomb-team": "abc123", dataset: "" },
        service_name: "fawn",
      },
    });
    expect(printed).toEqual({
      tracing: { otlp_headers: { "x-honeycomb-team": "***", dataset: "" }, service_name: "fawn" },
    });
  });

  it("keeps unset secrets visible as unset", () => {
    expect(redactSecrets({ api_key: undefined, token: null, password: "" })).toEqual({
      api_key: undefined,
      token: null,
      password: "",
    });
  });

  it("tells secret keys from lookalikes", () => {
    for (const key of [
      "api_key",
      "apiKey",
      "OPENAI_API_KEY",
      "access_token",
      "password",
      "secret",
      "aws_secret_key",
      "private_key",
      "cookie",
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
    for (const key of [
      "max_tokens",
      "token_budget",
      "token_usage",
      "key_prefix",
      "secret_scanning_enabled",
      "name",
    ]) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });
});
