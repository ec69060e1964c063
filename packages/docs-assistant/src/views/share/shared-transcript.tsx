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
import { type PanelLabels, type ShareLabels, shareLabels } from './labels.js';

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

/** Reads the shared conversation `shareId` names (again when it changes): the transcript, or why not. */
function useSharedTranscript(shareId: string, options: ShareOptions) {
  const [transcript, setTranscript] = useState<Transcript | null>(null);
  const [failure, setFailure] = useState<{ status: number; message: string } | null>(null);
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
  return { transcript, failure };
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
  const { transcript, failure } = useSharedTranscript(shareId, options);
  const headingRef = useRef<HTMLHeadingElement>(null);

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
          <SharedMessages
            messages={transcript.messages}
            labels={labels}
            Markdown={Markdown}
            resolveHref={resolveHref}
          />
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

/** The shared messages, read-only: a question as text, an answer as Markdown with its sources. */
function SharedMessages({
  messages,
  labels,
  Markdown,
  resolveHref,
}: {
  messages: Transcript['messages'];
  labels: ShareLabels;
  Markdown: SharedTranscriptProps['Markdown'];
  resolveHref: SharedTranscriptProps['resolveHref'];
}) {
  return (
    <ol data-docs-assistant="shared-messages">
      {messages.map((message, index) => (
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
  );
}
