/**
 * The consent notice (the `consent` prop): shown in the panel in place of the conversation until
 * the reader accepts. It is its own chunk, loaded when the panel first opens with consent pending;
 * nothing of the chat (requests, storage) is loaded before the reader presses its button.
 */
/** What the notice says: the part of the `consent` prop (`ConsentOptions`) that this view reads. */
export interface ConsentNoticeText {
  /** The notice's text. @default says what is sent and kept, and that nothing is until the reader accepts */
  notice?: string;
  /** Address of the privacy policy the notice links to (no link without it). */
  linkHref?: string;
  /** Text of that link. @default 'Privacy policy' */
  linkText?: string;
  /** Text of the button that accepts. @default 'Accept and continue' */
  acceptText?: string;
}

export interface ConsentNoticeProps {
  options: ConsentNoticeText;
  /** Id of the notice's text, which also describes the panel (the shell's `aria-describedby`). */
  id: string;
  onAccept: () => void;
  className?: string;
}

/**
 * Withdrawal: deletes everything the widget stored for `domain` in this browser: every local and
 * session storage entry under `docs-assistant:` naming the domain as one of its `:` segments (the
 * conversations, the tab's conversation, history and whatever else the widget keeps there), the
 * consent flag, and a host's own `storage` (its `clear()`). Here rather than in the shell, which
 * loads this chunk when consent is withdrawn: the launcher does not carry it.
 */
export function forgetStored(domain: string, key: string, storage: unknown): void {
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    try {
      const area = window[name];
      for (const item of Object.keys(area)) {
        if (item === key || (item.startsWith('docs-assistant:') && `${item}:`.includes(`:${domain}:`))) {
          area.removeItem(item);
        }
      }
    } catch {
      // Blocked storage holds nothing of ours.
    }
  }
  try {
    if (storage && typeof storage === 'object') (storage as { clear(): void }).clear();
  } catch (error) {
    console.warn('[docs-assistant] storage.clear() failed', error);
  }
}

const NOTICE =
  'This assistant answers your questions with AI from the documentation. Your questions (and the page you are on) are sent to the assistant service, and your conversations are kept in this browser. Nothing is sent or stored until you accept.';

/** A link the notice may show: http(s), `mailto:` or a path on this site; anything else (`javascript:`) is left out. */
function safeHref(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const { protocol } = new URL(href, document.baseURI);
    if (protocol === 'http:' || protocol === 'https:' || protocol === 'mailto:') return href;
  } catch {
    // Not an address.
  }
  console.warn(
    `[docs-assistant] consent.linkHref ${JSON.stringify(href)} is not an http(s) or mailto: address or a path; the link is left out.`,
  );
  return undefined;
}

/**
 * The focus stays where the shell puts it on open (the panel, which this text describes): were it on
 * the button, a reader who opens the panel and starts typing would accept with the first space.
 */
export default function ConsentNotice({ options, id, onAccept, className }: ConsentNoticeProps) {
  const href = safeHref(options.linkHref);
  return (
    <div data-docs-assistant="consent" className={className}>
      <p id={id}>{options.notice || NOTICE}</p>
      {href ? (
        <p>
          <a href={href} target="_blank" rel="noopener noreferrer" data-docs-assistant="consent-link">
            {options.linkText || 'Privacy policy'}
          </a>
        </p>
      ) : null}
      <button type="button" data-action="accept-consent" aria-describedby={id} onClick={onAccept}>
        {options.acceptText || 'Accept and continue'}
      </button>
    </div>
  );
}
