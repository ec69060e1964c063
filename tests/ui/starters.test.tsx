// @vitest-environment jsdom
/**
 * Page starters: `starterQuestions` as one list, a function of the page's path, or lists by path
 * prefix (the longest prefix covering the path wins, on segment boundaries); bad input shows nothing
 * and says what to change.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DocsAssistant } from '../../packages/docs-assistant/src/index';
import { starterQuestionsFor } from '../../packages/docs-assistant/src/ui/starter-questions';
import { answer, baseProps, freshDomain, recordingFetch } from './helpers';

beforeEach(freshDomain);
afterEach(() => vi.restoreAllMocks());

const BY_PREFIX = {
  '/': ['What is Acme?'],
  '/api': ['How do I get an API key?', 'What are the rate limits?'],
  '/api/webhooks': ['How do I verify a webhook?'],
};

describe('starterQuestionsFor', () => {
  it('gives a list as it is, whatever the path', () => {
    expect(starterQuestionsFor(['A?'], '/x')).toEqual(['A?']);
  });

  it('calls a function with the path', () => {
    const fn = vi.fn((path: string) => [`About ${path}?`]);
    expect(starterQuestionsFor(fn, '/guides/install')).toEqual(['About /guides/install?']);
    expect(fn).toHaveBeenCalledWith('/guides/install');
  });

  it('takes the longest prefix that covers the path, on segment boundaries', () => {
    expect(starterQuestionsFor(BY_PREFIX, '/api/webhooks/retries')).toEqual(BY_PREFIX['/api/webhooks']);
    expect(starterQuestionsFor(BY_PREFIX, '/api/webhooks')).toEqual(BY_PREFIX['/api/webhooks']);
    expect(starterQuestionsFor(BY_PREFIX, '/api/keys')).toEqual(BY_PREFIX['/api']);
    // `/api` does not cover `/apiary`: the catch-all `/` does.
    expect(starterQuestionsFor(BY_PREFIX, '/apiary')).toEqual(BY_PREFIX['/']);
    expect(starterQuestionsFor({ '/api/': ['Slash?'] }, '/api/x')).toEqual(['Slash?']);
  });

  it('gives nothing when no prefix covers the path', () => {
    expect(starterQuestionsFor({ '/api': ['A?'] }, '/guides')).toBeUndefined();
  });

  it('warns about keys that are no path and never matches them', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(starterQuestionsFor({ api: ['A?'] }, '/api')).toBeUndefined();
    expect(warn.mock.calls[0]?.[0]).toMatch(/path prefixes starting with "\/".*\["api"\]/);
  });

  it('reports a function that throws and offers nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(
      starterQuestionsFor(() => {
        throw new Error('boom');
      }, '/x'),
    ).toBeUndefined();
    expect(warn.mock.calls[0]?.[0]).toMatch(/starterQuestions\(currentPath\) threw/);
  });
});

/** The starters on show once the panel (its question box) is there: they render with it. */
const starterButtons = async () => {
  await screen.findByRole('textbox');
  const list = screen.queryByRole('list', { name: 'Try asking' });
  return list
    ? within(list)
        .getAllByRole('button')
        .map((button) => button.textContent)
    : [];
};

describe('<DocsAssistant starterQuestions>', () => {
  it('shows the starters of the prefix covering currentPath', async () => {
    render(
      <DocsAssistant {...baseProps} variant="inline" currentPath="/api/keys" starterQuestions={BY_PREFIX} />,
    );
    expect(await starterButtons()).toEqual(BY_PREFIX['/api']);
  });

  it('reads the page path (location.pathname) when currentPath is not given', async () => {
    window.history.pushState({}, '', '/api/webhooks/setup');
    try {
      render(<DocsAssistant {...baseProps} variant="inline" starterQuestions={BY_PREFIX} />);
      expect(await starterButtons()).toEqual(BY_PREFIX['/api/webhooks']);
    } finally {
      window.history.pushState({}, '', '/');
    }
  });

  it('shows what a function of currentPath (itself a function) returns, and asking one sends it', async () => {
    const { fetch, requests } = recordingFetch(() => answer(['Install with npm.']));
    render(
      <DocsAssistant
        {...baseProps}
        fetch={fetch}
        variant="inline"
        currentPath={() => '/guides/install'}
        starterQuestions={(path) => (path.startsWith('/guides') ? ['How do I install it?'] : [])}
      />,
    );
    expect(await starterButtons()).toEqual(['How do I install it?']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'How do I install it?' }));
    await screen.findByText('Install with npm.');
    expect(requests[0]?.body.messages.at(-1)?.content).toBe('How do I install it?');
    expect(requests[0]?.body.currentPath).toBe('/guides/install');
  });

  it('shows nothing where no prefix covers the page', async () => {
    render(
      <DocsAssistant
        {...baseProps}
        variant="inline"
        currentPath="/blog"
        starterQuestions={{ '/api': ['A?'] }}
      />,
    );
    expect(await starterButtons()).toEqual([]);
  });

  it('leaves out what a function returns that is not strings, with a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(
      <DocsAssistant
        {...baseProps}
        variant="inline"
        currentPath="/x"
        starterQuestions={() => ['Good?', 42 as unknown as string, '']}
      />,
    );
    expect(await starterButtons()).toEqual(['Good?']);
    expect(warn.mock.calls.some(([message]) => /array of non-empty strings/.test(String(message)))).toBe(
      true,
    );
  });

  it('shows nothing and warns when a map holds something that is no list', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(
      <DocsAssistant
        {...baseProps}
        variant="inline"
        currentPath="/api"
        starterQuestions={{ '/api': 'How?' as unknown as string[] }}
      />,
    );
    expect(await starterButtons()).toEqual([]);
    expect(warn.mock.calls.some(([message]) => /array of non-empty strings/.test(String(message)))).toBe(
      true,
    );
  });
});
