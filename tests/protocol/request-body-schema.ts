/**
 * The assistant request body as a JSON Schema, written by hand from spec §2.1–2.4 (not generated
 * from the protocol's zod schemas, which are what is being checked): every object the spec lists
 * the fields of is closed (`additionalProperties: false`), parts are exactly the §2.3 variants.
 *
 * The one field beyond §2.1 is `threadKey`: the real service hands the key out with a new thread
 * (`X-Thread-Key`) and requires it beside `threadId` on every later request (issue 12).
 */
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';

const string = { type: 'string' } as const;

/** §2.3, `toolInvocation` by state: `args` is required in every state, `result` in `result`. */
const toolInvocation = {
  oneOf: (['partial-call', 'call', 'result'] as const).map((state) => ({
    type: 'object',
    additionalProperties: false,
    required: ['state', 'toolCallId', 'toolName', 'args', ...(state === 'result' ? ['result'] : [])],
    properties: {
      state: { const: state },
      step: { type: 'number' },
      toolCallId: string,
      toolName: string,
      // "any, required": present, of any JSON type.
      args: {},
      ...(state === 'result' ? { result: {} } : {}),
    },
  })),
};

/** §2.3: a part, discriminated by `type`; no other variant. */
const part = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'text'],
      properties: { type: { const: 'text' }, text: string },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'reasoning', 'details'],
      properties: {
        type: { const: 'reasoning' },
        reasoning: string,
        details: {
          type: 'array',
          items: {
            oneOf: [
              {
                type: 'object',
                additionalProperties: false,
                required: ['type', 'text'],
                properties: { type: { const: 'text' }, text: string, signature: string },
              },
              {
                type: 'object',
                additionalProperties: false,
                required: ['type', 'data'],
                properties: { type: { const: 'redacted' }, data: string },
              },
            ],
          },
        },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: { type: { const: 'step-start' } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'source'],
      properties: {
        type: { const: 'source' },
        source: {
          type: 'object',
          additionalProperties: false,
          required: ['sourceType', 'id', 'url'],
          properties: { sourceType: { const: 'url' }, id: string, url: string, title: string },
        },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'toolInvocation'],
      properties: { type: { const: 'tool-invocation' }, toolInvocation },
    },
  ],
};

/** §2.2: a message, with exactly its listed fields. */
const message = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'role', 'content', 'parts'],
  properties: {
    id: string,
    role: { enum: ['system', 'assistant', 'data', 'user'] },
    content: string,
    parts: { type: 'array', items: part },
    createdAt: { type: 'string', format: 'date-time' },
    annotations: { type: 'array' },
    experimental_attachments: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['url'],
        properties: { name: string, contentType: string, url: string },
      },
    },
  },
};

/** §2.4: a context item. */
const context = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'value'],
  properties: {
    type: { enum: ['code', 'textSelection'] },
    value: string,
    path: string,
    elementId: string,
  },
};

/** §2.1: the request body (§8: `currentPath` at most 200 characters). */
export const requestBodySchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  required: ['fp', 'messages'],
  properties: {
    fp: string,
    messages: { type: 'array', minItems: 1, items: message },
    threadId: { type: ['string', 'null'] },
    threadKey: string,
    retrievalPageSize: { type: 'number' },
    filter: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: { version: string, language: string },
    },
    context: { type: 'array', items: context },
    currentPath: { type: 'string', maxLength: 200 },
  },
};

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv, ['date-time']);
const validate = ajv.compile(requestBodySchema);

const describeError = (error: ErrorObject): string =>
  `${error.instancePath || '(body)'} ${error.message ?? error.keyword}${
    error.keyword === 'additionalProperties'
      ? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})`
      : error.keyword === 'const'
        ? ` (${JSON.stringify((error.params as { allowedValue?: unknown }).allowedValue)})`
        : ''
  }`;

/** The problems of a body against the schema: `[]` when it is valid. */
export function requestBodyProblems(body: unknown): string[] {
  return validate(body) ? [] : (validate.errors ?? []).map(describeError);
}
