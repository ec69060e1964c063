import { readErrorBody, readErrorText } from '../../packages/docs-assistant/src/protocol/error-body';

describe('readErrorBody', () => {
  const issues = [{ path: 'domain', message: 'expected a string' }];

  it('reads the real service’s string error, with the reference service’s code and issues', () => {
    expect(readErrorBody({ error: 'Thread not found' })).toEqual({ message: 'Thread not found' });
    expect(readErrorBody({ error: 'Bad body', code: 'invalid_request', issues })).toEqual({
      message: 'Bad body',
      code: 'invalid_request',
      issues,
    });
  });

  it('reads an object error and a message field', () => {
    expect(readErrorBody({ error: { code: 'conflict', message: 'Not completed', issues } })).toEqual({
      message: 'Not completed',
      code: 'conflict',
      issues,
    });
    expect(readErrorBody({ message: 'Too many requests', code: 'rate_limited' })).toEqual({
      message: 'Too many requests',
      code: 'rate_limited',
    });
  });

  it('prefers a string error over a nested message over a message field', () => {
    expect(readErrorBody({ error: 'outer', message: 'field' })?.message).toBe('outer');
    expect(readErrorBody({ error: { message: 'nested' }, message: 'field' })?.message).toBe('nested');
  });

  it('skips malformed issues and finds nothing in bodies without a message', () => {
    expect(readErrorBody({ error: 'x', issues: [{ path: 1 }, 'no', issues[0]] })).toEqual({
      message: 'x',
      issues,
    });
    expect(readErrorBody({ error: '' })).toBeUndefined();
    expect(readErrorBody({ error: { code: 'internal' } })).toBeUndefined();
    expect(readErrorBody(['Thread not found'])).toBeUndefined();
    expect(readErrorBody(null)).toBeUndefined();
    expect(readErrorText('<html>Bad gateway</html>')).toBeUndefined();
    expect(readErrorText('{"error":"Thread not found"}')).toEqual({ message: 'Thread not found' });
  });
});
