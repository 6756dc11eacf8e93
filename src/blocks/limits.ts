/** Slack Block Kit limits (notes/slack-platform.md): past any of them Slack rejects the whole message. */
export const LIMITS = {
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
  /** Notification text: Slack accepts far more, but a fallback longer than this helps no one. */
  fallbackText: 3000,
} as const;
