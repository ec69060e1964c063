/**
 * The English defaults of the attached files' words (the `attachments` prop; the question box's
 * attach button is the panel's). Plain data that only the lazily loaded attachment tray imports at
 * run time, so they load with it; `Labels` takes their types, so each field's meaning and default
 * are written here once.
 */

export const attachmentDefaults = {
  /** Accessible name of the list of attached files. */
  attachmentsLabel: 'Attached files',
  /** Accessible name and title of an attached file's remove button, given its name. */
  removeAttachment: (name: string) => `Remove ${name}`,
  /** Announced for a file refused as too large, given its name and the limit. */
  attachmentTooLarge: (name: string, limit: string) =>
    `“${name}” was not attached: files can be at most ${limit}.`,
  /** Announced for a file refused as one too many, given its name and the limit. */
  attachmentTooMany: (name: string, limit: number) =>
    `“${name}” was not attached: at most ${limit} files per question.`,
  /** Announced for a file refused for its type, given its name. */
  attachmentBadType: (name: string) =>
    `“${name}” was not attached: only images (PNG, JPEG, GIF, WebP) and text or code files can be.`,
};

export type AttachmentDefaults = typeof attachmentDefaults;
