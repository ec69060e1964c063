/**
 * A shared conversation (`?assistant-share=<id>` on the page): its questions and answers read-only,
 * in the panel's place of the conversation, with "Continue as a new conversation" (a copy: the
 * next question starts a new thread with these messages as the conversation so far; the shared
 * thread itself is never reached) and Close. Rendered with the panel's own Markdown renderer,
 * given as a prop like the labels, so this chunk imports nothing the panel has.
 */
import { type ComponentType, useEffect, useRef, useState } from 'react';
import type { AssistantMessage } from '../../chat/types.js';
import {
  canReachService,
  forgetShareParam,
  readShare,
  type ShareOptions,
  seedMessages,
  type SharedTranscript as Transcript,
} from './client.js';
import { type PanelLabels, shareLabels } from './labels.js';

export interface SharedTranscriptProps {
  shareId: string;
  options: ShareOptions;
  labels: PanelLabels;
  Markdown: ComponentType<{ text: string; resolveHref?: (href: string) => string | null }>;
  resolveHref: (href: string) => string | null;
  /** Opens a new conversation with these messages. */
  onContinue: (messages: AssistantMessage[]) => void;
  onClose: () => void;
}

export default function SharedTranscript({
  shareId,
  options,
  labels: given,
  Markdown,
  resolveHref,
  onContinue,
  onClose,
}: SharedTranscriptProps) {
  const labels = shareLabels(given);
  const [transcript, setTranscript] = useState<Transcript | null>(null);
  const [failure, setFailure] = useState<{ status: number; message: string } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    let live = true;
    setTranscript(null);
    setFailure(null);
    if (!canReachService(latest.current)) {
      // Through a route of the host (`api`) only the message endpoint is forwarded.
      console.error(
        '[docs-assistant] a shared conversation is read with apiKey and baseUrl; this widget has neither.',
      );
      setFailure({ status: 404, message: '' });
      return;
    }
    readShare(latest.current, shareId).then(
      (found) => {
        if (live) setTranscript(found);
      },
      (error: { status?: number; message?: string }) => {
        if (live) setFailure({ status: error.status ?? 0, message: error.message ?? String(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [shareId]);

  useEffect(() => {
    if (transcript || failure) headingRef.current?.focus();
  }, [transcript, failure]);

  const close = () => {
    forgetShareParam();
    onClose();
  };

  return (
    <section
      data-docs-assistant="shared-transcript"
      aria-labelledby={`${shareId}-title`}
      aria-busy={!transcript && !failure}
    >
      <h2 id={`${shareId}-title`} ref={headingRef} tabIndex={-1}>
        {labels.sharedTitle}
        {transcript?.title ? `: ${transcript.title}` : ''}
      </h2>
      {failure ? (
        <p role="alert" data-docs-assistant="shared-error" data-status={failure.status}>
          {failure.status === 404 ? labels.sharedNotFound : failure.message}
        </p>
      ) : transcript ? (
        <>
          <p data-docs-assistant="shared-notice">{labels.sharedNotice}</p>
          <ol data-docs-assistant="shared-messages">
            {transcript.messages.map((message, index) => (
              // The transcript never changes while shown: the index is its identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
              <li key={index} data-role={message.role}>
                <strong>{message.role === 'user' ? labels.you : labels.assistant}</strong>
                {message.role === 'user' ? (
                  <p>{message.content}</p>
                ) : (
                  <>
                    <Markdown text={message.content} resolveHref={resolveHref} />
                    {message.sources.length ? (
                      <ul aria-label={labels.sourcesHeading}>
                        {message.sources.map((source) => (
                          <li key={source.url}>
                            <a href={source.url}>{source.title}</a>
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </>
                )}
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p role="status">{labels.sharedLoading}</p>
      )}
      <div data-docs-assistant="shared-actions">
        {transcript ? (
          <button
            type="button"
            data-action="continue-shared"
            onClick={() => {
              forgetShareParam();
              onContinue(seedMessages(transcript));
            }}
          >
            {labels.sharedContinue}
          </button>
        ) : null}
        <button type="button" data-action="close-shared" onClick={close}>
          {labels.sharedClose}
        </button>
      </div>
    </section>
  );
}
