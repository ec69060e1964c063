/**
 * The floor: the widget's own transport (the same stream tap and per-frame batches into the v4
 * `useChat` client) with the answer shown as plain text. The widget differs from it only in what it
 * renders, so the ratio between the two is the cost of the Markdown and the panel.
 */
import { useChat } from '@ai-sdk/react';
import { createRoot } from 'react-dom/client';
import { STREAM_RENDER_THROTTLE_MS } from '../../packages/docs-assistant/src/chat/config';
import { createRequestTrace, createTappedFetch } from '../../packages/docs-assistant/src/chat/stream-tap';
import { benchFetch, chatPageAnswerShown, installBench } from './harness';

let ask: (question: string) => void = () => {};

const batchedFetch = createTappedFetch({
  getFetch: () => benchFetch,
  getTrace: createRequestTrace,
  batchIntervalMs: STREAM_RENDER_THROTTLE_MS,
});

function Chat() {
  const { messages, input, handleInputChange, append, status } = useChat({
    api: '/api/chat',
    streamProtocol: 'data',
    fetch: batchedFetch,
  });
  ask = (question) => void append({ role: 'user', content: question });
  return (
    <main data-status={status}>
      {messages.map((message) => (
        <div key={message.id} data-role={message.role} style={{ whiteSpace: 'pre-wrap' }}>
          {message.content}
        </div>
      ))}
      <textarea aria-label="Your question" value={input} onChange={handleInputChange} />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Chat />);

installBench((question) => ask(question), chatPageAnswerShown);
