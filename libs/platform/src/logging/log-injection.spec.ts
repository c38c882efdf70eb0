import { createLogger } from './create-logger';

/** Log injection: user text with line breaks must not be able to write a line of its own. */
describe('log lines carrying user text', () => {
  const capture = () => {
    const written: string[] = [];
    const logger = createLogger({
      service: 'test',
      level: 'info',
      destination: { write: (line: string) => void written.push(line) },
    });
    return { logger, written };
  };

  it('keeps CR, LF and a forged JSON line inside the field that carried them, one line per call', () => {
    const { logger, written } = capture();
    const forged = 'mallory\r\n{"level":30,"msg":"root signed in","user":"root"}\n';

    logger.info({ username: forged, model: `gpt\u2028x` }, `sign-in refused for ${forged}`);

    const output = written.join('');
    expect(output.split('\n').filter(Boolean)).toHaveLength(1);
    const line = JSON.parse(output) as Record<string, unknown>;
    expect(line['username']).toBe(forged);
    expect(line['msg']).toBe(`sign-in refused for ${forged}`);
    expect(line['model']).toBe('gpt\u2028x');
  });
});
