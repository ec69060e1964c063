// Type-checks every entry of the installed docs-assistant as a consumer writes it. Each
// `@ts-expect-error` line fails the check if the type it probes degrades to `any` (an `any`
// accepts everything, so the expected error would vanish and tsc would report the unused directive).
import {
  type DocsAssistantProps,
  type DocsAssistantState,
  DocsAssistant as FromMain,
  MessageParts,
  useDocsAssistant,
} from 'docs-assistant';
import { labelsAr } from 'docs-assistant/labels/ar';
import { labelsDe } from 'docs-assistant/labels/de';
import { AssistantRequestSchema, isAssistantKey, parseStreamLine } from 'docs-assistant/protocol';
import { type AssistantProxy, createAssistantProxy } from 'docs-assistant/proxy';
import {
  createStaticExportClient,
  type StaticExportClient,
  type StaticExportJob,
} from 'docs-assistant/static-export';
import { StaticExportPanel, type StaticExportPanelProps } from 'docs-assistant/static-export/react';
import { DocsAssistant, defaultLabels, type Labels } from 'docs-assistant/widget';
import 'docs-assistant/styles.css';

export const props: DocsAssistantProps = {
  domain: 'acme',
  apiKey: 'svc_dsc_x',
  baseUrl: 'https://api.example.com',
};
export const page = (
  <>
    <DocsAssistant {...props} variant="inline" starterQuestions={['How do I install it?']} />
    <FromMain domain="acme" apiKey="svc_dsc_x" baseUrl="https://api.example.com" />
  </>
);
// @ts-expect-error `domain` is required.
export const missingDomain = <DocsAssistant apiKey="svc_dsc_x" baseUrl="https://api.example.com" />;
// The key on the host's server: the widget points at its route, the route forwards with the key.
export const proxied = <DocsAssistant domain="acme" api="/api/assistant" />;
export const POST: AssistantProxy = createAssistantProxy({
  baseUrl: 'https://api.example.com',
  domain: 'acme',
  apiKey: 'svc_dsc_x',
  rateLimit: { limit: 20, windowMs: 60_000, key: (request: Request) => request.headers.get('x-user') ?? '' },
});
export const answered: Promise<Response> = POST(new Request('https://docs.example.com/api/assistant'));
// @ts-expect-error `apiKey` is required by the route.
createAssistantProxy({ baseUrl: 'https://api.example.com', domain: 'acme' });
// @ts-expect-error `api` is a URL string.
export const badApi = <DocsAssistant domain="acme" api={42} />;
// @ts-expect-error `variant` is a union of names, not any string.
export const badVariant = <DocsAssistant {...props} variant="sideways" />;

export function Headless() {
  const state: DocsAssistantState = useDocsAssistant(props);
  const sent: Promise<void> = state.send('How do I install it?');
  void sent;
  // @ts-expect-error `send` takes a string.
  state.send(42);
  // @ts-expect-error no such member.
  state.noSuchMember;
  const last = state.messages.at(-1);
  return last ? <MessageParts message={last} resolveHref={(href) => href} /> : null;
}

export const labels: Labels = defaultLabels;
// The label packs are whole `Labels`: a site passes one as it is.
export const translated: Labels[] = [labelsDe, labelsAr];
// @ts-expect-error a pack's strings are strings, not numbers.
export const germanLauncher: number = labelsDe.launcher;
// @ts-expect-error labels are strings or functions, not numbers.
export const badLabels: Labels = { ...defaultLabels, launcher: 1 };

const client: StaticExportClient = createStaticExportClient({
  baseUrl: 'https://api.example.com',
  adminKey: 'svc_admin',
});
// @ts-expect-error `adminKey` is required.
createStaticExportClient({ baseUrl: 'https://api.example.com' });
// @ts-expect-error no such method on the client.
client.noSuchMethod();
export const job: StaticExportJob | undefined = undefined;

export const panelProps: StaticExportPanelProps = { endpoint: '/api/static-export', domain: 'acme' };
export const panel = <StaticExportPanel {...panelProps} />;

export const valid: boolean = isAssistantKey('svc_dsc_x');
export const request = AssistantRequestSchema;
export const line = parseStreamLine('0:"hi"');
// @ts-expect-error a stream line is a string.
parseStreamLine(1);

// `docs-assistant/package.json` is an entry too (a type query: Node 16 resolution has no import attributes).
type Manifest = typeof import('docs-assistant/package.json');
export const version: Manifest['version'] = '0.0.0';
// @ts-expect-error the manifest's version is a string.
export const badVersion: Manifest['version'] = 1;
