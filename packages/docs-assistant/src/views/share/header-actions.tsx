/**
 * The panel header's sharing and support actions, loaded with the panel once either is wanted:
 * "Share" (when the service shares conversations and this one has a thread) makes a link, copies
 * it and offers "Stop sharing"; "Contact support" (the `support` option) carries the conversation.
 */
import { useEffect, useRef, useState } from 'react';
import type { AssistantMessage } from '../../chat/types.js';
import type { Labels } from '../../labels.js';
import { SupportAction } from '../support/support.js';
import type { SupportOption } from '../support/types.js';
import {
  createShare,
  rememberedShare,
  rememberShare,
  revokeShare,
  type ShareOptions,
  shareLink,
  sharingSupported,
} from './client.js';

export interface HeaderActionsProps {
  options: ShareOptions;
  /** `share={false}` turns sharing off. */
  share?: boolean;
  support?: SupportOption;
  threadId?: string;
  threadKey?: string;
  messages: AssistantMessage[];
  /** An answer is on its way: its thread may not be kept yet. */
  busy: boolean;
  labels: Labels;
}

type ShareState =
  | { phase: 'idle' }
  | { phase: 'working' }
  | { phase: 'shared'; shareId: string; copied: boolean }
  | { phase: 'stopped' }
  | { phase: 'failed'; message: string };

export default function HeaderActions(props: HeaderActionsProps) {
  const { options, share = true, support, threadId, threadKey, messages, busy, labels } = props;
  const [supported, setSupported] = useState(false);
  const [state, setState] = useState<ShareState>({ phase: 'idle' });
  const stopRef = useRef<HTMLButtonElement>(null);
  const shareRef = useRef<HTMLButtonElement>(null);
  const canShare = share && !!threadId && !!threadKey;

  useEffect(() => {
    if (!canShare) return;
    let live = true;
    void sharingSupported(options).then((yes) => {
      if (live) setSupported(yes);
    });
    return () => {
      live = false;
    };
  }, [canShare, options]);

  // Another conversation: what was shown was about the previous one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the thread changes
  useEffect(() => setState({ phase: 'idle' }), [threadId]);

  const copy = async (shareId: string) => {
    try {
      await navigator.clipboard.writeText(shareLink(shareId));
      return true;
    } catch {
      // No clipboard (permissions, http): the link is shown to copy by hand.
      return false;
    }
  };

  const onShare = async () => {
    if (!threadId || !threadKey) return;
    setState({ phase: 'working' });
    try {
      const shareId =
        rememberedShare(options.domain, threadId) ?? (await createShare(options, threadId, threadKey));
      rememberShare(options.domain, threadId, shareId);
      setState({ phase: 'shared', shareId, copied: await copy(shareId) });
    } catch (error) {
      setState({
        phase: 'failed',
        message: labels.shareFailed ?? `Sharing failed: ${(error as Error).message}`,
      });
    }
  };

  const onStop = async () => {
    if (state.phase !== 'shared' || !threadId || !threadKey) return;
    const { shareId } = state;
    setState({ phase: 'working' });
    try {
      await revokeShare(options, threadId, threadKey, shareId);
    } catch (error) {
      // Already gone (revoked elsewhere, or the thread expired): nothing is shared either way.
      if ((error as { status?: number }).status !== 404) {
        setState({
          phase: 'failed',
          message: labels.shareFailed ?? `Sharing failed: ${(error as Error).message}`,
        });
        return;
      }
    }
    rememberShare(options.domain, threadId);
    setState({ phase: 'stopped' });
    shareRef.current?.focus();
  };

  useEffect(() => {
    if (state.phase === 'shared') stopRef.current?.focus();
  }, [state.phase]);

  return (
    <>
      {canShare && supported ? (
        <button
          ref={shareRef}
          type="button"
          data-action="share"
          disabled={busy || state.phase === 'working'}
          aria-expanded={state.phase === 'shared'}
          onClick={() => void onShare()}
        >
          {labels.share ?? 'Share'}
        </button>
      ) : null}
      {support ? <SupportAction option={support} messages={messages} trigger="menu" labels={labels} /> : null}
      {state.phase === 'shared' ? (
        <div data-docs-assistant="share-link">
          <label>
            {labels.shareLink ?? 'Link to this conversation (read-only)'}
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
            {labels.shareCopy ?? 'Copy link'}
          </button>
          <button ref={stopRef} type="button" data-action="stop-sharing" onClick={() => void onStop()}>
            {labels.stopSharing ?? 'Stop sharing'}
          </button>
        </div>
      ) : null}
      <span data-docs-assistant="share-status" role="status">
        {state.phase === 'shared' && state.copied
          ? (labels.shareCopied ?? 'Link copied')
          : state.phase === 'stopped'
            ? (labels.shareStopped ?? 'Sharing stopped: the link no longer opens this conversation.')
            : state.phase === 'failed'
              ? state.message
              : ''}
      </span>
    </>
  );
}
