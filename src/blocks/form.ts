import type { types } from "@slack/bolt";
import { truncate } from "./mrkdwn.js";

/** The action id of every input in Kassa's modals; the view handlers read `values[block].value`. */
export const INPUT_ACTION_ID = "value";

/** Slack's limits on modal texts (https://docs.slack.dev/reference/block-kit/). */
const LABEL_MAX = 2000;
const HINT_MAX = 2000;
const PLACEHOLDER_MAX = 150;
const TITLE_MAX = 24;
const OPTION_TEXT_MAX = 75;
const OPTIONS_MAX = 100;
const CHECKBOXES_MAX = 10;
const METADATA_MAX = 3000;

/** A select option; Slack refuses option texts over 75 characters. */
export function selectOption(text: string, value: string): types.PlainTextOption {
  return { text: { type: "plain_text", text: truncate(text, OPTION_TEXT_MAX) }, value };
}

function plain(text: string, max: number): types.PlainTextElement {
  return { type: "plain_text", text: truncate(text, max) };
}

/** What every input block has: its block id (the key of view.state.values and of field errors). */
type InputCommon = {
  block: string;
  label: string;
  hint?: string | undefined;
  optional?: boolean | undefined;
};

function inputBlock(input: InputCommon, element: types.InputBlock["element"]): types.InputBlock {
  return {
    type: "input",
    block_id: input.block,
    ...(input.optional === undefined ? {} : { optional: input.optional }),
    label: plain(input.label, LABEL_MAX),
    ...(input.hint ? { hint: plain(input.hint, HINT_MAX) } : {}),
    element,
  };
}

/** A one-line text input; the initial value is cut to the input's own maximum. */
export function textInput(
  input: InputCommon & { maxLength: number; initial?: string | undefined; placeholder?: string | undefined },
): types.InputBlock {
  return inputBlock(input, {
    type: "plain_text_input",
    action_id: INPUT_ACTION_ID,
    max_length: input.maxLength,
    ...(input.placeholder ? { placeholder: plain(input.placeholder, PLACEHOLDER_MAX) } : {}),
    ...(input.initial ? { initial_value: truncate(input.initial, input.maxLength) } : {}),
  });
}

type Choices = { options: types.PlainTextOption[]; initial?: string | undefined };

/** The option whose value is `value`, else none. */
function initialOption({ options, initial }: Choices): { initial_option?: types.PlainTextOption } {
  const found = options.find((option) => option.value === initial);
  return found ? { initial_option: found } : {};
}

/** A drop-down of at most 100 options (Slack's limit), the one whose value is `initial` chosen. */
export function selectInput(
  input: InputCommon & Choices & { placeholder?: string | undefined },
): types.InputBlock {
  return inputBlock(input, {
    type: "static_select",
    action_id: INPUT_ACTION_ID,
    ...(input.placeholder ? { placeholder: plain(input.placeholder, PLACEHOLDER_MAX) } : {}),
    options: input.options.slice(0, OPTIONS_MAX),
    ...initialOption(input),
  });
}

/** Radio buttons (a handful of choices, all visible), the one whose value is `initial` chosen. */
export function radioInput(input: InputCommon & Choices): types.InputBlock {
  return inputBlock(input, {
    type: "radio_buttons",
    action_id: INPUT_ACTION_ID,
    options: input.options.slice(0, OPTIONS_MAX),
    ...initialOption(input),
  });
}

/** Checkboxes (at most 10, Slack's limit), those whose values are in `initial` ticked. */
export function checkboxesInput(
  input: InputCommon & { options: types.PlainTextOption[]; initial?: readonly string[] | undefined },
): types.InputBlock {
  const options = input.options.slice(0, CHECKBOXES_MAX);
  const ticked = options.filter((option) => input.initial?.includes(option.value ?? ""));
  return inputBlock(input, {
    type: "checkboxes",
    action_id: INPUT_ACTION_ID,
    options,
    ...(ticked.length > 0 ? { initial_options: ticked } : {}),
  });
}

/** A drop-down choosing several of at most 100 options, those whose values are in `initial` chosen. */
export function multiSelectInput(
  input: InputCommon & {
    options: types.PlainTextOption[];
    initial?: readonly string[] | undefined;
    placeholder?: string | undefined;
  },
): types.InputBlock {
  const options = input.options.slice(0, OPTIONS_MAX);
  const chosen = options.filter((option) => input.initial?.includes(option.value ?? ""));
  return inputBlock(input, {
    type: "multi_static_select",
    action_id: INPUT_ACTION_ID,
    options,
    ...(input.placeholder ? { placeholder: plain(input.placeholder, PLACEHOLDER_MAX) } : {}),
    ...(chosen.length > 0 ? { initial_options: chosen } : {}),
  });
}

/** Slack's people picker: at most `max` people, `initial` chosen. */
export function usersInput(
  input: InputCommon & {
    max: number;
    initial?: readonly string[] | undefined;
    placeholder?: string | undefined;
  },
): types.InputBlock {
  return inputBlock(input, {
    type: "multi_users_select",
    action_id: INPUT_ACTION_ID,
    max_selected_items: input.max,
    ...(input.placeholder ? { placeholder: plain(input.placeholder, PLACEHOLDER_MAX) } : {}),
    ...(input.initial && input.initial.length > 0 ? { initial_users: [...input.initial] } : {}),
  });
}

/** Slack's channel picker, several channels (public or private), `initial` chosen. */
export function channelsInput(
  input: InputCommon & { max: number; initial?: readonly string[] | undefined },
): types.InputBlock {
  return inputBlock(input, {
    type: "multi_conversations_select",
    action_id: INPUT_ACTION_ID,
    max_selected_items: input.max,
    filter: { include: ["public", "private"], exclude_bot_users: true },
    ...(input.initial && input.initial.length > 0 ? { initial_conversations: [...input.initial] } : {}),
  });
}

/** A modal with Kassa's callback id; title and buttons cut to Slack's 24 characters. */
export function modal(view: {
  callbackId: string;
  title: string;
  submit?: string | undefined;
  close: string;
  privateMetadata?: string | undefined;
  blocks: types.KnownBlock[];
}): types.ModalView {
  return {
    type: "modal",
    callback_id: view.callbackId,
    title: plain(view.title, TITLE_MAX),
    ...(view.submit ? { submit: plain(view.submit, TITLE_MAX) } : {}),
    close: plain(view.close, TITLE_MAX),
    ...(view.privateMetadata === undefined
      ? {}
      : { private_metadata: truncate(view.privateMetadata, METADATA_MAX) }),
    blocks: view.blocks,
  };
}

/** A submission's answer that keeps the form open with a message under each named field. */
export type FieldErrors = { response_action: "errors"; errors: Record<string, string> };

/** Keeps the form open, `text` under the field `block` (Slack shows at most a short line there). */
export function fieldError(block: string, text: string): FieldErrors {
  return { response_action: "errors", errors: { [block]: text } };
}
