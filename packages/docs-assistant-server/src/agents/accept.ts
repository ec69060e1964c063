/** Content negotiation for the Markdown pages: no dependency, so `serve-bundle` can use it too. */

/** The quality a media range of an `Accept` header gives `type` (`text/markdown`), 0 when none does. */
function quality(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = -1;
  let bestSpecificity = -1;
  for (const range of accept.split(',')) {
    const [media = '', ...params] = range.trim().split(';');
    const name = media.trim().toLowerCase();
    const specificity = name === type ? 2 : name === `${major}/*` ? 1 : name === '*/*' ? 0 : -1;
    if (specificity < 0 || specificity < bestSpecificity) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    bestSpecificity = specificity;
    best = q === undefined ? 1 : Math.min(1, Number(q) || 0);
  }
  return Math.max(0, best);
}

/** Whether an `Accept` header asks for Markdown: `text/markdown` named, and liked at least as much as HTML. */
export function acceptsMarkdown(accept: string | null | undefined): boolean {
  if (!accept || !/text\/markdown/i.test(accept)) return false;
  const markdown = quality(accept, 'text/markdown');
  return markdown > 0 && markdown >= quality(accept, 'text/html');
}
