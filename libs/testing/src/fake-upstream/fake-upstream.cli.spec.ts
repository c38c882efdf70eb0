import { FakeUpstreamUsageError, parseFakeUpstreamArgs } from './fake-upstream.cli';
import { DEFAULT_FAKE_UPSTREAM_OPTIONS, resolveFakeUpstreamOptions } from './fake-upstream.options';

describe('parseFakeUpstreamArgs', () => {
  it('maps every flag to its option', () => {
    const parsed = parseFakeUpstreamArgs([
      '--port',
      '0',
      '--host',
      '::1',
      '--latency-ms',
      '5',
      '--chunks',
      '3',
      '--chunk-ms',
      '2',
      '--completion-tokens',
      '9',
      '--fail-status',
      '429',
      '--fail-rate',
      '0.5',
      '--retry-after',
      '7',
      '--drop-after',
      '1',
      '--break-after-end',
      '--models',
      'a, b',
      '--openai-key',
      'sk-x',
      '--gemini-key',
      'g',
    ]);
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 0,
        host: '::1',
        latencyMs: 5,
        chunks: 3,
        chunkMs: 2,
        completionTokens: 9,
        failStatus: 429,
        failRate: 0.5,
        retryAfterSeconds: 7,
        dropAfter: 1,
        breakAfterEnd: true,
        models: ['a', 'b'],
        keys: { openai: 'sk-x', gemini: 'g' },
      },
    });
  });

  it('asks for help', () => {
    expect(parseFakeUpstreamArgs(['--help'])).toEqual({ help: true });
  });

  it.each([
    [['--port', 'abc'], /--port must be a number/],
    [['--fail-rate', '2'], /--fail-rate: Number must be less than or equal to 1/],
    [['--fail-status', '200'], /--fail-status/],
    [['--bogus'], /Unknown option '--bogus'/],
  ])('refuses %j naming the flag', (argv, message) => {
    expect(() => parseFakeUpstreamArgs(argv)).toThrow(FakeUpstreamUsageError);
    expect(() => parseFakeUpstreamArgs(argv)).toThrow(message);
  });
});

describe('resolveFakeUpstreamOptions', () => {
  it('fills defaults and merges keys', () => {
    const resolved = resolveFakeUpstreamOptions({ keys: { openai: 'sk-mine' } });
    expect(resolved.keys).toEqual({ ...DEFAULT_FAKE_UPSTREAM_OPTIONS.keys, openai: 'sk-mine' });
    expect(resolved.completionTokens).toBe(DEFAULT_FAKE_UPSTREAM_OPTIONS.completionTokens);
  });
});
