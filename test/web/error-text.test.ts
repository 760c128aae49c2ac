import { describe, expect, it } from "vitest";
import { ApiError } from "../../web/src/api/api-error.js";
import { errorText, OFFLINE_TEXT } from "../../web/src/api/error-text.js";
import { errorMessages } from "../../web/src/i18n/messages/errors.js";

describe("errorText", () => {
  it("shows the sentence of an SDK HTTP error, not the status dump", () => {
    const sdk = Object.assign(
      new Error('HTTP 409: {"detail":"Thread t has an active run.","code":"conflict"}'),
      {
        status: 409,
        text: '{"detail":"Thread t has an active run.","code":"conflict"}',
      },
    );
    expect(errorText(sdk)).toEqual({
      text: "Thread t has an active run.",
      offline: false,
      status: 409,
    });
  });

  it("reads the status and sentence from the message alone", () => {
    expect(errorText(new Error('HTTP 404: {"detail":"Thread x not found."}'))).toEqual({
      text: "Thread x not found.",
      offline: false,
      status: 404,
    });
  });

  it("turns a connection failure into one plain sentence", () => {
    const down = Object.assign(
      new Error(
        "Unable to connect to LangGraph server. Please ensure … Original error: Failed to fetch",
      ),
      { name: "ConnectionError" },
    );
    expect(errorText(down)).toEqual({ text: OFFLINE_TEXT, offline: true, status: null });
    expect(errorText(new TypeError("Failed to fetch")).offline).toBe(true);
  });

  it("says its own sentence in the page's language, the server's as sent", () => {
    const down = new TypeError("Failed to fetch");
    expect(errorText(down, "zh-CN").text).toBe(errorMessages["zh-CN"].offline);
    expect(errorText(down, "zh-CN").text).not.toBe(OFFLINE_TEXT);
    const refused = new ApiError(413, "too_large", "The file is too large.");
    expect(errorText(refused, "zh-CN").text).toBe("The file is too large.");
  });

  it("passes Fawn's own errors through", () => {
    expect(errorText(new ApiError(413, "too_large", "The file is too large."))).toEqual({
      text: "The file is too large.",
      offline: false,
      status: 413,
    });
  });
});
