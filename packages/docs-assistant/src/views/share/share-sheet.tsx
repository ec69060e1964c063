/**
 * What "Share" (in the header's menu) opens, under the header: the service makes a read-only link
 * to this conversation (or gives back the one made before), it is copied, and shown with "Copy
 * link", "Stop sharing" and Close. Each press of "Share" (`request`) shares again.
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import {
  createShare,
  rememberedShare,
  rememberShare,
  revokeShare,
  type ShareOptions,
  shareLink,
} from './client.js';
import { type PanelLabels, shareLabels } from './labels.js';

export interface ShareSheetProps {
  options: ShareOptions;
  threadId: string;
  threadKey: string;
  /** Counts the presses of "Share": each one shares (again). */
  request: number;
  labels: PanelLabels;
  onClose: () => void;
  /** The icon of the close button (the panel's own, handed over). */
  closeIcon: ReactNode;
}

type ShareState =
  | { phase: 'working' }
  | { phase: 'shared'; shareId: string; copied: boolean }
  | { phase: 'stopped' }
  | { phase: 'failed'; message: string };

async function copy(shareId: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(shareLink(shareId));
    return true;
  } catch {
    // No clipboard (permissions, http): the link is shown to copy by hand.
    return false;
  }
}

/**
 * The sheet's state, shared afresh at each press of "Share" (`request`): the link made before for
 * this thread, or a new one, copied. `failed` is the message shown when the service refuses.
 */
function useShareRequest(
  options: ShareOptions,
  threadId: string,
  threadKey: string,
  request: number,
  failed: string,
) {
  const [state, setState] = useState<ShareState>({ phase: 'working' });
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    if (request === 0) return;
    let live = true;
    setState({ phase: 'working' });
    const domain = latest.current.domain;
    const made = rememberedShare(domain, threadId);
    (made ? Promise.resolve(made) : createShare(latest.current, threadId, threadKey))
      .then(async (shareId) => {
        rememberShare(domain, threadId, shareId);
        const copied = await copy(shareId);
        if (live) setState({ phase: 'shared', shareId, copied });
      })
      .catch((error: Error) => {
        console.warn(`[docs-assistant] sharing failed: ${error.message}`);
        if (live) setState({ phase: 'failed', message: failed });
      });
    return () => {
      live = false;
    };
  }, [request, threadId, threadKey, failed]);
  return { state, setState, latest };
}

/** The status line: copied, stopped, or why sharing failed. */
function statusText(state: ShareState, labels: ReturnType<typeof shareLabels>): string {
  if (state.phase === 'shared') return state.copied ? labels.shareCopied : '';
  if (state.phase === 'stopped') return labels.shareStopped;
  return state.phase === 'failed' ? state.message : '';
}

export default function ShareSheet(props: ShareSheetProps) {
  const { options, threadId, threadKey, request, onClose, closeIcon } = props;
  const labels = shareLabels(props.labels);
  const { state, setState, latest } = useShareRequest(
    options,
    threadId,
    threadKey,
    request,
    labels.shareFailed,
  );
  const stopRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (state.phase === 'shared') stopRef.current?.focus();
  }, [state.phase]);

  const stop = async () => {
    if (state.phase !== 'shared') return;
    setState({ phase: 'working' });
    try {
      await revokeShare(latest.current, threadId, threadKey, state.shareId);
    } catch (error) {
      // Already gone (revoked elsewhere, or the thread expired): nothing is shared either way.
      if ((error as { status?: number }).status !== 404) {
        setState({ phase: 'failed', message: labels.shareFailed });
        return;
      }
    }
    rememberShare(latest.current.domain, threadId);
    setState({ phase: 'stopped' });
  };

  return (
    <section data-docs-assistant="share-sheet" aria-label={labels.share}>
      {state.phase === 'shared' ? (
        <div data-docs-assistant="share-link">
          <label>
            {labels.shareLink}
            <input
              readOnly
              value={shareLink(state.shareId)}
              onFocus={(event) => event.currentTarget.select()}
            />
          </label>
          <button
            type="button"
            data-action="copy-share-link"
            onClick={() => void copy(state.shareId).then((copied) => setState({ ...state, copied }))}
          >
            {labels.shareCopy}
          </button>
          <button ref={stopRef} type="button" data-action="stop-sharing" onClick={() => void stop()}>
            {labels.stopSharing}
          </button>
        </div>
      ) : null}
      <span data-docs-assistant="share-status" role="status">
        {statusText(state, labels)}
      </span>
      <button type="button" data-action="close-share" aria-label={labels.close} onClick={onClose}>
        {closeIcon}
      </button>
    </section>
  );
}
