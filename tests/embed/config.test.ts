/**
 * The script build's options: the custom element's attributes as config values (with a clear
 * error for one that cannot be read), `update`'s merge (`null` restores a default), and the props
 * the widget gets (the embed's own keys taken out).
 */
import {
  ATTRIBUTES,
  type EmbedConfig,
  mergeConfig,
  parseAttribute,
  widgetProps,
} from '../../packages/docs-assistant/src/embed/config';

describe('parseAttribute', () => {
  it('maps the contract attributes to the props', () => {
    expect(parseAttribute('domain', 'acme')).toEqual(['domain', 'acme']);
    expect(parseAttribute('api-key', 'svc_dsc_x')).toEqual(['apiKey', 'svc_dsc_x']);
    expect(parseAttribute('base-url', 'https://a.example')).toEqual(['baseUrl', 'https://a.example']);
    expect(parseAttribute('variant', 'side-panel')).toEqual(['variant', 'side-panel']);
    expect(parseAttribute('theme', 'dark')).toEqual(['theme', 'dark']);
    expect(parseAttribute('fp', 'reader-1')).toEqual(['fp', 'reader-1']);
    for (const name of ['domain', 'api-key', 'base-url', 'variant', 'theme', 'fp'])
      expect(ATTRIBUTES[name]).toBeDefined();
  });

  it('reads booleans, numbers, lists and JSON', () => {
    expect(parseAttribute('shortcut', 'false')).toEqual(['shortcut', false]);
    expect(parseAttribute('shortcut', 'mod+k')).toEqual(['shortcut', 'mod+k']);
    expect(parseAttribute('default-open', '')).toEqual(['defaultOpen', true]);
    expect(parseAttribute('retrieval-page-size', '8')).toEqual(['retrievalPageSize', 8]);
    expect(parseAttribute('starter-questions', 'How do I start? | What is new?')).toEqual([
      'starterQuestions',
      ['How do I start?', 'What is new?'],
    ]);
    expect(parseAttribute('starter-questions', '["A | B"]')).toEqual(['starterQuestions', ['A | B']]);
    expect(parseAttribute('labels', '{"launcher":"Help"}')).toEqual(['labels', { launcher: 'Help' }]);
    expect(parseAttribute('collectors', 'false')).toEqual(['collectors', false]);
    expect(parseAttribute('url-parameter', 'false')).toEqual(['urlParameter', false]);
  });

  it('says which attribute could not be read', () => {
    expect(() => parseAttribute('labels', '{launcher')).toThrow(
      /the attribute labels="\{launcher" could not be read/,
    );
    expect(() => parseAttribute('retrieval-page-size', 'many')).toThrow(
      /retrieval-page-size="many".*expects a number/,
    );
  });

  it('turns a removed attribute into null (the default) and ignores unknown ones', () => {
    expect(parseAttribute('theme', null)).toEqual(['theme', null]);
    expect(parseAttribute('class', 'x')).toBeUndefined();
  });
});

describe('mergeConfig and widgetProps', () => {
  const base: EmbedConfig = { domain: 'acme', theme: 'dark', labels: { launcher: 'Help' }, nonce: 'n' };

  it('merges, and null restores the default', () => {
    expect(mergeConfig(base, { theme: null, starterQuestions: ['Q?'] })).toEqual({
      domain: 'acme',
      labels: { launcher: 'Help' },
      nonce: 'n',
      starterQuestions: ['Q?'],
    });
  });

  it('rejects what is not an object', () => {
    expect(() => mergeConfig(base, null as never)).toThrow(/update\(config\) expects an object/);
  });

  it('gives the widget the props without the embed-only keys', () => {
    const props = widgetProps({ ...base, shadow: 'closed', urlParameter: false });
    expect(props).toEqual({ domain: 'acme', theme: 'dark', labels: { launcher: 'Help' } });
  });
});
