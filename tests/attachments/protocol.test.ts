/**
 * The attachment rules the widget and the service share (`protocol/attachments.ts`): which files
 * may be attached and with what type, and how big a data URL's file is without decoding it.
 */
import {
  attachmentContentType,
  formatBytes,
  isTextAttachmentType,
  parseDataUrl,
} from '../../packages/docs-assistant/src/protocol/attachments';

describe('attachmentContentType', () => {
  it.each([
    ['photo.png', 'image/png', 'image/png'],
    ['photo.JPG', 'image/jpeg', 'image/jpeg'],
    ['notes.md', 'text/markdown', 'text/markdown'],
    ['data.json', 'application/json', 'application/json'],
    ['config.yaml', 'application/x-yaml; charset=utf-8', 'application/x-yaml'],
    // Browsers type a TypeScript file as an MPEG transport stream, and leave many code files untyped.
    ['app.ts', 'video/mp2t', 'text/plain'],
    ['App.tsx', '', 'text/plain'],
    ['main.tf', '', 'text/plain'],
    ['Dockerfile.sh', 'application/x-sh', 'application/x-sh'],
  ])('%s (%j) is attached as %s', (name, type, expected) => {
    expect(attachmentContentType(name, type)).toBe(expected);
  });

  it.each([
    ['setup.exe', 'application/octet-stream'],
    ['movie.mp4', 'video/mp4'],
    ['drawing.svg', 'image/svg+xml'],
    ['archive.zip', 'application/zip'],
    ['no-extension', ''],
  ])('refuses %s (%j)', (name, type) => {
    expect(attachmentContentType(name, type)).toBeNull();
  });
});

describe('parseDataUrl', () => {
  it.each([0, 1, 2, 3, 4, 5, 1000])('counts the bytes of %i bytes of data', (size) => {
    const base64 = Buffer.alloc(size, 7).toString('base64');
    expect(parseDataUrl(`data:text/plain;base64,${base64}`)).toEqual({
      contentType: 'text/plain',
      base64,
      bytes: size,
    });
  });

  it('reads the type before parameters, and defaults an empty type to text/plain', () => {
    expect(parseDataUrl('data:Text/CSV;charset=utf-8;base64,YQ==')?.contentType).toBe('text/csv');
    expect(parseDataUrl('data:;base64,YQ==')?.contentType).toBe('text/plain');
  });

  it('is null for a link or a data URL that is not base64', () => {
    expect(parseDataUrl('https://example.com/a.png')).toBeNull();
    expect(parseDataUrl('data:text/plain,hello')).toBeNull();
  });
});

it('isTextAttachmentType: text/* and text-like application types', () => {
  expect(isTextAttachmentType('text/x-python')).toBe(true);
  expect(isTextAttachmentType('application/json; charset=utf-8')).toBe(true);
  expect(isTextAttachmentType('image/png')).toBe(false);
  expect(isTextAttachmentType('application/pdf')).toBe(false);
});

it('formatBytes', () => {
  expect(formatBytes(512)).toBe('512 B');
  expect(formatBytes(2048)).toBe('2 kB');
  expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB');
  expect(formatBytes(6.5 * 1024 * 1024)).toBe('6.5 MB');
});
