/**
 * The floor: the same v4 `useChat` with the widget's render throttle, showing the answer as plain
 * text. Any Markdown UI on this protocol costs at least this much.
 */
import { useChat } from '@ai-sdk/react';
import { createRoot } from 'react-dom/client';
import { STREAM_RENDER_THROTTLE_MS } from '../../src/chat/config';
import { benchFetch, chatPageAnswerShown, installBench } from './harness';

let ask: (question: string) => void = () => {};

function Chat() {
  const { messages, input, handleInputChange, append, status } = useChat({
    api: '/api/chat',
    streamProtocol: 'data',
    fetch: benchFetch,
    experimental_throttle: STREAM_RENDER_THROTTLE_MS,
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
