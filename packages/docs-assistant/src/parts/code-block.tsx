import { type HTMLAttributes, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useLabels } from '../labels/index.js';
import { copyText } from './copy-text.js';

// How long the button says "Copied" (in ms).
const COPIED_RESET_MS = 2000;

type CopyState = 'idle' | 'copied' | 'failed';

export interface CodeBlockProps extends HTMLAttributes<HTMLDivElement> {
  /** The code, as text. */
  code: string;
  /** The fence's language (`ts` in ```` ```ts ````), shown as a label. */
  language?: string;
}

/**
 * A fenced code block: language label, "Copy code" button, `<pre><code>`. The `<pre>` scrolls
 * sideways when a line is too long, so it is a tab stop (keyboard readers scroll it with the arrow
 * keys, WCAG 2.1.1), named by the language label. It is a `group`, not a `region`: a named region
 * is a landmark, and two `ts` blocks would be two landmarks with one name.
 */
export function CodeBlock({ code, language, ...props }: CodeBlockProps) {
  const labels = useLabels();
  const [state, setState] = useState<CopyState>('idle');
  const codeRef = useRef<HTMLElement>(null);
  const languageId = useId();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const onCopy = useCallback(async () => {
    const ok = await copyText(code);
    if (!ok && codeRef.current && typeof window !== 'undefined') {
      // Nothing could copy: select the code so the reader can copy it with the keyboard.
      window.getSelection()?.selectAllChildren(codeRef.current);
    }
    setState(ok ? 'copied' : 'failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), COPIED_RESET_MS);
  }, [code]);

  const buttonText =
    state === 'copied' ? labels.copied : state === 'failed' ? labels.copyFailed : labels.copyCode;

  return (
    <div data-code-block="" {...props}>
      <div data-code-block-header="">
        {language ? (
          <span id={languageId} data-code-language="">
            {language}
          </span>
        ) : null}
        <button type="button" onClick={onCopy} data-copy-state={state}>
          {buttonText}
        </button>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset groups form controls; this only names the code. */}
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable from the keyboard (WCAG 2.1.1).
        tabIndex={0}
        role="group"
        aria-labelledby={language ? languageId : undefined}
        aria-label={language ? undefined : labels.codeBlock}
      >
        <code ref={codeRef} className={language ? `language-${language}` : undefined}>
          {code}
        </code>
      </pre>
      {/* Announce the outcome to screen readers; the button text changes too. */}
      <span role="status" aria-live="polite" style={visuallyHidden}>
        {state === 'idle' ? '' : buttonText}
      </span>
    </div>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
