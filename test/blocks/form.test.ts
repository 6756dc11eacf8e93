import { describe, expect, it } from "vitest";
import {
  fieldError,
  INPUT_ACTION_ID,
  modal,
  radioInput,
  selectInput,
  selectOption,
  textInput,
} from "../../src/blocks/form.js";

describe("modal input helpers", () => {
  it("builds a text input with its block id, Kassa's action id, and the initial value cut to its maximum", () => {
    const block = textInput({
      block: "login",
      label: "Login",
      maxLength: 5,
      initial: "abcdefgh",
      optional: false,
    });
    expect(block).toMatchObject({
      type: "input",
      block_id: "login",
      optional: false,
      label: { type: "plain_text", text: "Login" },
      element: { type: "plain_text_input", action_id: INPUT_ACTION_ID, max_length: 5 },
    });
    expect(block.element).toHaveProperty("initial_value");
    expect((block.element as { initial_value: string }).initial_value.length).toBeLessThanOrEqual(5);
    expect(block).not.toHaveProperty("hint");
  });

  it("leaves out an empty initial value and an absent placeholder", () => {
    const block = textInput({ block: "extra", label: "Extra", maxLength: 10, initial: "" });
    expect(block.element).not.toHaveProperty("initial_value");
    expect(block.element).not.toHaveProperty("placeholder");
    expect(block).not.toHaveProperty("optional");
  });

  it("chooses the option whose value is the initial one, and none when it is not offered", () => {
    const options = [selectOption("v2", "v2"), selectOption("v3", "v3")];
    expect(selectInput({ block: "v", label: "V", options, initial: "v3" }).element).toMatchObject({
      type: "static_select",
      initial_option: { value: "v3" },
    });
    expect(radioInput({ block: "v", label: "V", options, initial: "v9" }).element).not.toHaveProperty(
      "initial_option",
    );
  });

  it("keeps a drop-down within Slack's 100 options and option texts within 75 characters", () => {
    const options = Array.from({ length: 150 }, (_, index) =>
      selectOption(`${"x".repeat(100)}${index}`, `m${index}`),
    );
    const element = selectInput({ block: "m", label: "Method", options }).element as { options: unknown[] };
    expect(element.options).toHaveLength(100);
    expect(options[0]?.text.text.length).toBeLessThanOrEqual(75);
  });

  it("cuts a modal's title and buttons to Slack's 24 characters", () => {
    const view = modal({
      callbackId: "c",
      title: "A title far longer than Slack allows",
      submit: "Save",
      close: "Cancel",
      blocks: [],
    });
    expect(view.title.text.length).toBeLessThanOrEqual(24);
    expect(view).toMatchObject({
      type: "modal",
      callback_id: "c",
      submit: { text: "Save" },
      close: { text: "Cancel" },
    });
    expect(view).not.toHaveProperty("private_metadata");
  });

  it("keeps a form open with a message under one field", () => {
    expect(fieldError("amount", "Enter an amount.")).toEqual({
      response_action: "errors",
      errors: { amount: "Enter an amount." },
    });
  });
});
