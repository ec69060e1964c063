/**
 * Attachments reach an LLM engine: with the OpenAI-compatible engine (a `MockLanguageModelV1`
 * from `ai/test`), images attached to the question go to the model as image parts of the latest user
 * message, and text files go into the system prompt as what the reader attached.
 */
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV1 } from 'ai/test';
import { createOpenAIEngine } from '../../packages/docs-assistant-server/src/engines/openai';
import { createAssistantService } from '../../packages/docs-assistant-server/src/service';
import { ASSISTANT_KEY, ask, DOMAIN, FIXTURE_DOCS, userMessage } from '../server/helpers';

type DoStream = NonNullable<ConstructorParameters<typeof MockLanguageModelV1>[0]>['doStream'] & {};
type CallOptions = Parameters<DoStream>[0];

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

it('sends attached images as image parts and text files in the system prompt', async () => {
  const calls: CallOptions[] = [];
  const model = new MockLanguageModelV1({
    doStream: async (options) => {
      calls.push(options);
      return {
        stream: simulateReadableStream({
          chunks: [
            { type: 'text-delta' as const, textDelta: 'The screenshot shows dark mode [1].' },
            {
              type: 'finish' as const,
              finishReason: 'stop' as const,
              usage: { promptTokens: 1, completionTokens: 1 },
            },
          ],
          initialDelayInMs: null,
          chunkDelayInMs: null,
        }),
        rawCall: { rawPrompt: null, rawSettings: {} },
      };
    },
  });
  const service = createAssistantService({
    docs: FIXTURE_DOCS,
    domain: DOMAIN,
    assistantKey: ASSISTANT_KEY,
    engine: createOpenAIEngine({ model }),
    warn: () => {},
  });
  const question = 'Why is my widget dark?';
  const answer = await ask(service, question, {
    messages: [
      {
        ...userMessage(question),
        experimental_attachments: [
          { name: 'screen.png', contentType: 'image/png', url: `data:image/png;base64,${PNG_BASE64}` },
          {
            name: 'config.yaml',
            contentType: 'application/x-yaml',
            url: `data:application/x-yaml;base64,${Buffer.from('theme: dark').toString('base64')}`,
          },
        ],
      },
    ],
  });
  // The model's text, then the related pages the openai engine adds as the extractive one does.
  expect(answer.text.split('\n\n```suggestions')[0]).toBe('The screenshot shows dark mode [1].');
  const prompt = calls[0]!.prompt;
  const system = prompt.find((message) => message.role === 'system');
  expect(system?.content).toContain('The reader attached:\n- code from config.yaml:\ntheme: dark');
  const last = prompt.at(-1)!;
  expect(last.role).toBe('user');
  expect(last.content).toMatchObject([
    { type: 'text', text: question },
    { type: 'image', image: new Uint8Array(Buffer.from(PNG_BASE64, 'base64')), mimeType: 'image/png' },
  ]);
  await service.close();
});
