import { expect } from "vitest";

/**
 * Slack's Block Kit limits (notes/slack-platform.md), written out here on purpose instead of imported
 * from src/blocks/limits.ts: a test that read the numbers from the code under test would happily
 * accept a wrong number there.
 */
export const SLACK_LIMITS = {
  blocksPerMessage: 50,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  blockId: 255,
  actionId: 255,
  /** Kassa's own cap on the notification text (src/blocks/limits.ts `fallbackText`). */
  fallbackText: 3000,
} as const;

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A text object: `{type: "plain_text" | "mrkdwn", text}` with non-empty text within `limit`. */
function checkText(
  problems: string[],
  where: string,
  value: unknown,
  limit: number,
  allowed: ("plain_text" | "mrkdwn")[] = ["plain_text", "mrkdwn"],
): void {
  if (!isRecord(value)) {
    problems.push(`${where}: not a text object`);
    return;
  }
  if (!allowed.includes(value.type as "plain_text" | "mrkdwn")) {
    problems.push(`${where}: type ${String(value.type)} (allowed: ${allowed.join(", ")})`);
  }
  if (typeof value.text !== "string") {
    problems.push(`${where}: text is not a string`);
    return;
  }
  if (value.text.length === 0) problems.push(`${where}: empty text`);
  if (value.text.length > limit) problems.push(`${where}: ${value.text.length} chars > ${limit}`);
}

function checkButton(problems: string[], where: string, element: Json, actionIds: Set<string>): void {
  checkText(problems, `${where}.text`, element.text, SLACK_LIMITS.buttonText, ["plain_text"]);
  if (element.value !== undefined) {
    if (typeof element.value !== "string") problems.push(`${where}.value: not a string`);
    else if (element.value.length > SLACK_LIMITS.buttonValue)
      problems.push(`${where}.value: ${element.value.length} chars > ${SLACK_LIMITS.buttonValue}`);
  }
  if (element.url !== undefined) {
    if (typeof element.url !== "string") problems.push(`${where}.url: not a string`);
    else {
      if (element.url.length > SLACK_LIMITS.buttonUrl)
        problems.push(`${where}.url: ${element.url.length} chars > ${SLACK_LIMITS.buttonUrl}`);
      if (!/^https?:\/\//i.test(element.url)) problems.push(`${where}.url: not an http(s) link`);
    }
  }
  checkActionId(problems, where, element, actionIds);
}

function checkActionId(problems: string[], where: string, element: Json, actionIds: Set<string>): void {
  if (element.action_id === undefined) return;
  if (typeof element.action_id !== "string" || element.action_id.length === 0) {
    problems.push(`${where}.action_id: not a non-empty string`);
    return;
  }
  if (element.action_id.length > SLACK_LIMITS.actionId)
    problems.push(`${where}.action_id: ${element.action_id.length} chars > ${SLACK_LIMITS.actionId}`);
  if (actionIds.has(element.action_id)) problems.push(`${where}.action_id: duplicate ${element.action_id}`);
  actionIds.add(element.action_id);
}

/** Every problem Slack would reject the message for; [] when it is within all limits. */
export function blockKitProblems(message: unknown): string[] {
  const problems: string[] = [];
  if (!isRecord(message)) return ["message: not an object"];

  if (typeof message.text !== "string" || message.text.trim() === "") {
    problems.push("text: the top-level fallback text is missing or empty");
  } else if (message.text.length > SLACK_LIMITS.fallbackText) {
    problems.push(`text: ${message.text.length} chars > ${SLACK_LIMITS.fallbackText}`);
  }

  if (!Array.isArray(message.blocks)) return [...problems, "blocks: not an array"];
  const blocks: unknown[] = message.blocks;
  if (blocks.length === 0) problems.push("blocks: empty");
  if (blocks.length > SLACK_LIMITS.blocksPerMessage)
    problems.push(`blocks: ${blocks.length} > ${SLACK_LIMITS.blocksPerMessage}`);

  const blockIds = new Set<string>();
  blocks.forEach((block, index) => {
    const where = `blocks[${index}]`;
    if (!isRecord(block)) {
      problems.push(`${where}: not an object`);
      return;
    }
    if (block.block_id !== undefined) {
      if (typeof block.block_id !== "string" || block.block_id.length === 0) {
        problems.push(`${where}.block_id: not a non-empty string`);
      } else {
        if (block.block_id.length > SLACK_LIMITS.blockId)
          problems.push(`${where}.block_id: ${block.block_id.length} chars > ${SLACK_LIMITS.blockId}`);
        if (blockIds.has(block.block_id)) problems.push(`${where}.block_id: duplicate ${block.block_id}`);
        blockIds.add(block.block_id);
      }
    }
    const actionIds = new Set<string>();

    switch (block.type) {
      case "header":
        checkText(problems, `${where}.text`, block.text, SLACK_LIMITS.headerText, ["plain_text"]);
        break;
      case "section": {
        if (block.text === undefined && block.fields === undefined)
          problems.push(`${where}: a section needs text or fields`);
        if (block.text !== undefined)
          checkText(problems, `${where}.text`, block.text, SLACK_LIMITS.sectionText);
        if (block.fields !== undefined) {
          if (!Array.isArray(block.fields) || block.fields.length === 0) {
            problems.push(`${where}.fields: not a non-empty array`);
          } else {
            if (block.fields.length > SLACK_LIMITS.sectionFields)
              problems.push(`${where}.fields: ${block.fields.length} > ${SLACK_LIMITS.sectionFields}`);
            block.fields.forEach((fieldObject: unknown, i: number) => {
              checkText(problems, `${where}.fields[${i}]`, fieldObject, SLACK_LIMITS.fieldText);
            });
          }
        }
        if (block.accessory !== undefined) {
          if (!isRecord(block.accessory)) problems.push(`${where}.accessory: not an object`);
          else if (block.accessory.type === "button")
            checkButton(problems, `${where}.accessory`, block.accessory, actionIds);
          else problems.push(`${where}.accessory: unchecked type ${String(block.accessory.type)}`);
        }
        break;
      }
      case "context": {
        if (!Array.isArray(block.elements) || block.elements.length === 0) {
          problems.push(`${where}.elements: not a non-empty array`);
          break;
        }
        if (block.elements.length > SLACK_LIMITS.contextElements)
          problems.push(`${where}.elements: ${block.elements.length} > ${SLACK_LIMITS.contextElements}`);
        block.elements.forEach((element: unknown, i: number) => {
          if (isRecord(element) && element.type === "image") return;
          checkText(problems, `${where}.elements[${i}]`, element, SLACK_LIMITS.sectionText);
        });
        break;
      }
      case "actions": {
        if (!Array.isArray(block.elements) || block.elements.length === 0) {
          problems.push(`${where}.elements: not a non-empty array`);
          break;
        }
        if (block.elements.length > SLACK_LIMITS.actionsElements)
          problems.push(`${where}.elements: ${block.elements.length} > ${SLACK_LIMITS.actionsElements}`);
        block.elements.forEach((element: unknown, i: number) => {
          if (!isRecord(element)) problems.push(`${where}.elements[${i}]: not an object`);
          else if (element.type === "button")
            checkButton(problems, `${where}.elements[${i}]`, element, actionIds);
          else problems.push(`${where}.elements[${i}]: unchecked type ${String(element.type)}`);
        });
        break;
      }
      case "divider":
        break;
      case "image": {
        // Either a public image_url or an uploaded file (slack_file: {id} or {url}); alt_text required.
        const file = block.slack_file;
        const byFile = isRecord(file) && (typeof file.id === "string" || typeof file.url === "string");
        if (!byFile && typeof block.image_url !== "string")
          problems.push(`${where}: no image_url or slack_file`);
        if (typeof block.alt_text !== "string" || block.alt_text.length === 0)
          problems.push(`${where}: no alt_text`);
        else if (block.alt_text.length > 2000) problems.push(`${where}.alt_text: over 2000 chars`);
        break;
      }
      default:
        // A block type this helper does not know yet: extend the helper rather than let it pass unchecked.
        problems.push(`${where}: unchecked block type ${String(block.type)}`);
    }
  });
  return problems;
}

/** Fails the test with every limit the message breaks (notes/slack-platform.md). */
export function expectWithinBlockKitLimits(message: unknown): void {
  expect(blockKitProblems(message)).toEqual([]);
}

/**
 * Every problem of one `chat.unfurl` entry (an attachment holding `fallback` text and `blocks`):
 * the same limits as a message, with the fallback in place of the top-level text.
 */
export function unfurlProblems(unfurl: unknown): string[] {
  if (!isRecord(unfurl)) return ["unfurl: not an object"];
  const { fallback, blocks, ...rest } = unfurl;
  const problems = blockKitProblems({ text: fallback, blocks }).map((problem) =>
    problem.replace(/^text:/, "fallback:"),
  );
  const unexpected = Object.keys(rest);
  if (unexpected.length > 0) problems.push(`unfurl: unexpected keys ${unexpected.join(", ")}`);
  return problems;
}

export function expectUnfurlWithinBlockKitLimits(unfurl: unknown): void {
  expect(unfurlProblems(unfurl)).toEqual([]);
}
