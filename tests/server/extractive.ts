/**
 * The extractive engine's answer to a question over an index, composed as the service composes it
 * (five sources, page paths as their URLs, the site named "Acme"), for the engine's tests.
 */
import { composeExtractiveAnswer } from '../../packages/docs-assistant-server/src/engines/extractive';
import { searchOutput } from '../../packages/docs-assistant-server/src/engines/sources';
import type { AnswerContext } from '../../packages/docs-assistant-server/src/engines/types';
import type { DocsIndex } from '../../packages/docs-assistant-server/src/retrieval';

export function extractiveAnswer(
  index: DocsIndex,
  question: string,
  { history = [], context = [] }: { history?: string[]; context?: AnswerContext['context'] } = {},
) {
  const retrieval = index.query({ question, history, context, limit: 5 });
  const { results, sources } = searchOutput(retrieval.hits, (path) => path);
  const answerContext: AnswerContext = {
    question,
    messages: [],
    history: history.map((q) => ({ question: q }) as AnswerContext['history'][number]),
    context,
    retrieval,
    results,
    sources,
    related: [],
    index,
    siteTitle: 'Acme',
    urlFor: (path) => path,
    messageId: 'msg_test',
  };
  return { ...composeExtractiveAnswer(answerContext), sources, retrieval };
}
