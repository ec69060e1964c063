// Type-checks the server package's entry as a Node program would use it: start the reference
// service from code. Each `@ts-expect-error` fails the check if the type it probes becomes `any`.
import { type AssistantServiceOptions, createAssistantService } from 'docs-assistant-server';

const options: AssistantServiceOptions = {
  docs: ['./docs'],
  domain: 'acme',
  assistantKey: 'svc_dsc_local_key',
};
const service = createAssistantService(options);

export const handle = (request: Request): Promise<Response> => service.fetch(request);
export const ready: Promise<unknown> = service.ready();

// @ts-expect-error `docs` is a list of folders, not one number.
export const badDocs: AssistantServiceOptions = { docs: 42, domain: 'acme' };
// @ts-expect-error no such member.
service.noSuchMember;
