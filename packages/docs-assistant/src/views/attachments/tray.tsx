/**
 * Files attached to the next question (`attachments` prop): chips with the file's name and size,
 * a thumbnail for images, a remove button each, and a message, announced, for a file refused (too
 * large, one too many, a type that cannot be attached). An on-demand view: the panel loads it when
 * the reader first attaches something (picker, paste or drop in the composer).
 *
 * Files are read into data URLs here (spec §2.2 `experimental_attachments`), with the limits the
 * reference service checks too (`protocol/limits.ts`). A refused file leaves everything else as it
 * was: the question typed so far and the files already attached.
 */
import { type ComponentType, type RefObject, useEffect, useRef, useState } from 'react';
import type { Labels } from '../../labels/types.js';
import { type AttachmentDefaults, attachmentDefaults } from '../../labels/views/attachments.js';
import { attachmentContentType, formatBytes } from '../../protocol/attachments.js';
import type { Attachment } from '../../protocol/schemas.js';

/** An attached file: what goes on the wire, plus what the chip shows. */
export interface DraftAttachment extends Required<Attachment> {
  id: string;
  size: number;
}

/** The question box's files, as the panel keeps them (`usePanelInput`). */
export interface AttachmentBox {
  /** The files attached so far. */
  attached: DraftAttachment[];
  setAttached: (update: (items: DraftAttachment[]) => DraftAttachment[]) => void;
  /** Files the reader picked, pasted or dropped and not yet taken. */
  incoming: File[] | null;
  /** These files are taken (being read or refused): out of `incoming`. */
  takeFiles: (files: File[]) => void;
  /** Takes focus when the last chip is removed (the question box). */
  inputRef: RefObject<HTMLElement | null>;
}

/**
 * A chip's remove button, the panel's (its context chips have the same): it moves focus off its
 * chip (to the next chip's button, else the previous one's, else `fallbackFocusRef`), then calls
 * `onRemove`.
 */
export interface RemoveButtonProps {
  /** Its `data-action`, which the buttons of the list's other chips have too. */
  action: string;
  /** Its accessible name, its title too. */
  label: string;
  onRemove: () => void;
  /** Takes focus when the last chip is removed (the question box). */
  fallbackFocusRef?: RefObject<HTMLElement | null>;
}

export interface AttachmentTrayProps {
  box: AttachmentBox;
  labels: Labels;
  /**
   * The protocol's limits (`MAX_ATTACHMENT_BYTES`, `MAX_ATTACHMENTS_PER_MESSAGE`), handed over by
   * the panel: imported, `protocol/limits.ts` would be split by esbuild into a chunk of its own.
   */
  limits: { bytes: number; count: number };
  RemoveButton: ComponentType<RemoveButtonProps>;
}

let nextId = 0;

/** The file as a data URL with `type` (a code file the browser typed wrongly gets `text/plain`). */
function readDataUrl(file: File, type: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(`data:${type};base64,${url.slice(url.indexOf(',') + 1)}`);
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** Takes each batch of incoming files: reads the ones that fit into `attached`, says why the others were refused. */
function useTakeIncoming(
  box: AttachmentBox,
  text: AttachmentDefaults,
  limits: AttachmentTrayProps['limits'],
) {
  const { attached, incoming } = box;
  const [problems, setProblems] = useState<string[]>([]);
  const itemsRef = useRef(attached);
  itemsRef.current = attached;
  const textRef = useRef(text);
  textRef.current = text;

  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per batch of files (`takeFiles` takes it out)
  useEffect(() => {
    if (!incoming?.length) return;
    const refused: string[] = [];
    const accepted: Promise<DraftAttachment | null>[] = [];
    let count = itemsRef.current.length;
    const t = textRef.current;
    for (const file of incoming) {
      const name = file.name || 'pasted file';
      const type = attachmentContentType(name, file.type);
      if (!type) refused.push(t.attachmentBadType(name));
      else if (file.size > limits.bytes) refused.push(t.attachmentTooLarge(name, formatBytes(limits.bytes)));
      else if (count >= limits.count) refused.push(t.attachmentTooMany(name, limits.count));
      else {
        count++;
        accepted.push(
          readDataUrl(file, type).then(
            (url) => ({ id: `attachment-${++nextId}`, name, contentType: type, url, size: file.size }),
            () => null,
          ),
        );
      }
    }
    setProblems([...new Set(refused)]);
    box.takeFiles(incoming);
    // Not cancelled by the next batch (a drop right after a paste keeps both), only by unmounting.
    void Promise.all(accepted).then((read) => {
      const added = read.filter((item): item is DraftAttachment => item !== null);
      if (!mounted.current || !added.length) return;
      // Another batch may have filled the places counted above meanwhile.
      const room = Math.max(0, limits.count - itemsRef.current.length);
      const late = added.slice(room).map((item) => t.attachmentTooMany(item.name, limits.count));
      if (late.length) setProblems((shown) => [...new Set([...shown, ...late])]);
      box.setAttached((current) => [...current, ...added].slice(0, limits.count));
    });
  }, [incoming]);
  return [problems, setProblems] as const;
}

export default function AttachmentTray({ box, labels, limits, RemoveButton }: AttachmentTrayProps) {
  const items = box.attached;
  const text = { ...attachmentDefaults, ...definedOnly(labels) };
  const [problems, setProblems] = useTakeIncoming(box, text, limits);

  const remove = (id: string) => {
    setProblems([]);
    box.setAttached((current) => current.filter((item) => item.id !== id));
  };

  return (
    <div data-docs-assistant="attachments">
      {/* Always there, so a refusal is announced when it appears. */}
      <div data-docs-assistant="attachment-error" role="alert">
        {problems.map((problem) => (
          <p key={problem}>{problem}</p>
        ))}
      </div>
      {items.length ? (
        <ul data-docs-assistant="attachment-list" aria-label={text.attachmentsLabel}>
          {items.map((item) => (
            <li key={item.id} data-docs-assistant="attachment" data-kind={kindOf(item)}>
              {kindOf(item) === 'image' ? (
                // The name beside it says what it is.
                <img data-docs-assistant="attachment-preview" src={item.url} alt="" />
              ) : null}
              <span data-docs-assistant="attachment-name" title={item.name}>
                {item.name}
              </span>
              <span data-docs-assistant="attachment-size">{formatBytes(item.size)}</span>
              <RemoveButton
                action="remove-attachment"
                label={text.removeAttachment(item.name)}
                onRemove={() => remove(item.id)}
                fallbackFocusRef={box.inputRef}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const kindOf = (item: DraftAttachment) => (item.contentType.startsWith('image/') ? 'image' : 'file');

/** The labels the host set (an `undefined` override must not hide a default). */
function definedOnly(labels: Labels): Partial<AttachmentDefaults> {
  const out: Partial<Record<keyof AttachmentDefaults, unknown>> = {};
  for (const key of Object.keys(attachmentDefaults) as (keyof AttachmentDefaults)[]) {
    if (labels[key] !== undefined) out[key] = labels[key];
  }
  return out as Partial<AttachmentDefaults>;
}
