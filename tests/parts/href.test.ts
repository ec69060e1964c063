import { createHrefResolver, isSafeHref } from '../../packages/docs-assistant/src/parts/href';

describe('isSafeHref', () => {
  it.each(['https://x.dev/a', 'http://x.dev', 'mailto:a@b.c', '/guides/x', 'guides/x', '#top', '?q=1'])(
    'accepts %s',
    (href) => expect(isSafeHref(href)).toBe(true),
  );

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '',
    '   ',
  ])('refuses %j', (href) => expect(isSafeHref(href)).toBe(false));
});

describe('createHrefResolver', () => {
  it('resolves relative links against the docs root, keeping its path', () => {
    const resolve = createHrefResolver('https://acme.dev/docs');
    expect(resolve('/guides/install')).toBe('https://acme.dev/docs/guides/install');
    expect(resolve('guides/install')).toBe('https://acme.dev/docs/guides/install');
    expect(resolve('/docs/guides/install')).toBe('https://acme.dev/docs/guides/install');
    expect(resolve('#top')).toBe('#top');
  });

  it('keeps absolute http(s) and mailto links and drops the rest', () => {
    const resolve = createHrefResolver('https://acme.dev/');
    expect(resolve('https://example.com/x?y=1')).toBe('https://example.com/x?y=1');
    expect(resolve('mailto:help@acme.dev')).toBe('mailto:help@acme.dev');
    expect(resolve('javascript:alert(1)')).toBeNull();
    expect(resolve('data:text/plain,hi')).toBeNull();
  });

  it('refuses a base that is not an absolute http(s) URL, saying what to pass', () => {
    expect(() => createHrefResolver('docs.acme.dev')).toThrow(/absolute http\(s\) URL/);
    expect(() => createHrefResolver('ftp://acme.dev')).toThrow(/docsBaseUrl/);
  });

  it('keeps relative links relative when there is no base and no page', () => {
    const resolve = createHrefResolver();
    expect(resolve('/guides/x')).toBe('/guides/x');
  });
});
