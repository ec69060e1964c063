/**
 * The one chunk the panel loads for sharing and support: the header's actions, a shared
 * transcript, or the support prompt, by `slot`. One lazy import in the panel rather than three, so
 * bundlers that copy shared modules into each lazy chunk (webpack, rspack) copy nothing here.
 */
import SupportPrompt, { type SupportPromptProps } from '../support/support.js';
import HeaderActions, { type HeaderActionsProps } from './header-actions.js';
import SharedTranscript, { type SharedTranscriptProps } from './shared-transcript.js';

export type ShareSupportProps =
  | ({ slot: 'header' } & HeaderActionsProps)
  | ({ slot: 'transcript' } & SharedTranscriptProps)
  | ({ slot: 'prompt' } & SupportPromptProps);

export default function ShareSupport(props: ShareSupportProps) {
  if (props.slot === 'header') return <HeaderActions {...props} />;
  if (props.slot === 'transcript') return <SharedTranscript {...props} />;
  return <SupportPrompt {...props} />;
}
