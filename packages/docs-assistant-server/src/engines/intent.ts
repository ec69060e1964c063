/**
 * What a question asks for, as far as an engine without a model can tell: whether it wants a
 * procedure, which way it acts (turn something on or off), which words it is about (with the
 * thread's subject for a follow-up), and which text of the docs is not for readers at all.
 */
import { leansOnThread, queryTerms } from '../retrieval/search-index.js';
import type { AnswerContext } from './types.js';

/** "How do I…", "how to…", "how can we…", "steps to…": a question that wants a procedure. */
export const HOW_TO =
  /\b(how (do|can|should|would|could|to) |how I |steps? (to|for)\b|walk me through|set ?up|install|configure|add(ing)? an?\b)/i;

// Words of acting one way and the other. A heading that acts the other way than the question
// ("Disable SCIM" for "how do I provision users with SCIM?", "Keep a page indexable" for "how do I
// stop search engines from indexing a page?") shares the question's nouns and answers the opposite.
const TURNS_ON =
  /\b(enabl(e|es|ed|ing)|turn(s|ed|ing)? (it |them )?on|switch(es|ed|ing)? on|activat(e|es|ed|ing)|add(s|ed|ing)?|creat(e|es|ed|ing)|install(s|ed|ing)?|connect(s|ed|ing)?|subscrib(e|es|ed|ing)|provision(s|ed|ing)?|invit(e|es|ed|ing)|show(s|ing|n)?|display(s|ed|ing)?|unhid(e|es|ing)|includ(e|es|ed|ing)|keep(s|ing)?|start(s|ed|ing)?|allow(s|ed|ing)?|indexable|opt(s|ed|ing)? in|restor(e|es|ed|ing)|unblock(s|ed|ing)?)\b/i;
const TURNS_OFF =
  /\b(disabl(e|es|ed|ing)|turn(s|ed|ing)? (it |them )?off|switch(es|ed|ing)? off|deactivat(e|es|ed|ing)|remov(e|es|ed|ing)|delet(e|es|ed|ing)|uninstall(s|ed|ing)?|disconnect(s|ed|ing)?|unsubscrib(e|es|ed|ing)|deprovision(s|ed|ing)?|revok(e|es|ed|ing)|hid(e|es|den|ing)|exclud(e|es|ed|ing)|stop(s|ped|ping)?|block(s|ed|ing)?|noindex|prevent(s|ed|ing)?|paus(e|es|ed|ing)|opt(s|ed|ing)? out|cancel(s|led|ling)?|disallow(s|ed|ing)?)\b/i;

/**
 * +1 when a text acts one way (enable, add, keep), -1 the other (disable, remove, stop), 0 for
 * neither. The first such word decides: it is the verb of a question or a heading ("turn off SCIM
 * provisioning", "stop pages from being indexable"), where later ones name the thing acted on.
 */
export function polarity(text: string): number {
  const on = TURNS_ON.exec(text)?.index ?? -1;
  const off = TURNS_OFF.exec(text)?.index ?? -1;
  if (on < 0 && off < 0) return 0;
  return off < 0 || (on >= 0 && on < off) ? 1 : -1;
}

/** Whether a heading acts the other way than the question. */
export const opposes = (question: string, heading: string): boolean => {
  const asked = polarity(question);
  return asked !== 0 && polarity(heading) === -asked;
};

// Text written for AI agents or for the docs' own authors, not for readers: prompts to paste into
// a coding agent, notes to editors. Comments (`<!-- -->`, `{/* */}`) never reach sections.
const NOT_FOR_READERS = [
  /\b(tell|ask|warn|notify) me\b/i,
  /\bbefore (continuing|proceeding|you continue)\b/i,
  /^you are (an?|the|setting|helping|working|acting)\b/i,
  /\b(as an ai|you are an ai|ai (agent|assistant)s?,|llm,)/i,
  /^(todo|fixme|xxx|note to (self|authors|editors|reviewers)|author'?s? note|editor'?s? note)\b/i,
];

/** Whether a sentence, paragraph or code block speaks to an AI agent or to the docs' authors. */
export const notForReaders = (text: string): boolean => NOT_FOR_READERS.some((pattern) => pattern.test(text));

/**
 * The words an answer is about: the question's, and for a follow-up that leans on the thread
 * ("and how do I turn it off?") the last question's too.
 */
export function answerTerms(context: AnswerContext): { terms: Set<string>; own: Set<string> } {
  const terms = context.retrieval.terms;
  const last =
    context.history[context.history.length - 1]?.question ??
    context.messages
      .slice(0, -1)
      .filter((message) => message.role === 'user')
      .map((message) => message.content)
      .at(-1);
  const borrowed = last && leansOnThread(context.question, terms) ? queryTerms(last) : [];
  return { terms: new Set([...terms, ...borrowed]), own: new Set(terms) };
}

/** The text a question is about when it only points at something ("explain this", "what does this do?"). */
export const POINTS_AT = /\b(this|that|these|those|it|here|above|snippet|passage|code|selection|selected)\b/i;
