/**
 * The integration people write today: v4 `useChat` and one `react-markdown` (+ remark-gfm) over
 * each message's whole content, re-rendered on every streamed token, with useChat's own input.
 */
import { useChat } from '@ai-sdk/react';
import { createRoot } from 'react-dom/client';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { benchFetch, chatPageAnswerShown, installBench } from './harness';

let ask: (question: string) => void = () => {};

function Chat() {
  const { messages, input, handleInputChange, append, status } = useChat({
    api: '/api/chat',
    streamProtocol: 'data',
    fetch: benchFetch,
  });
  ask = (question) => void append({ role: 'user', content: question });
  return (
    <main data-status={status}>
      {messages.map((message) => (
        <div key={message.id} data-role={message.role}>
          {message.role === 'assistant' ? (
            <ReactMarkdown remarkPlugins={[remarkGfm]}>{message.content}</ReactMarkdown>
          ) : (
            message.content
          )}
        </div>
      ))}
      <textarea aria-label="Your question" value={input} onChange={handleInputChange} />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Chat />);

installBench((question) => ask(question), chatPageAnswerShown);
