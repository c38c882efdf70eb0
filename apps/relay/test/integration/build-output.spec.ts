import { dirname, join, relative } from 'node:path';
import * as ts from 'typescript';

const RELAY_TSCONFIG = join(__dirname, '../../tsconfig.json');

/** The source files relay's build compiles into dist, relative to its src folder. */
function compiledSources(): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(RELAY_TSCONFIG, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (parsed === undefined) throw new Error(`cannot read ${RELAY_TSCONFIG}`);
  return parsed.fileNames.map((file) => relative(join(dirname(RELAY_TSCONFIG), 'src'), file));
}

describe('relay build output', () => {
  it('compiles the service code but no spec or test fixture file into dist', () => {
    const sources = compiledSources();
    expect(sources).toEqual(expect.arrayContaining(['index.ts', join('routing', 'channel-router.ts')]));
    expect(sources.filter((file) => /\.(spec|fixtures)\.ts$/.test(file))).toEqual([]);
  });
});
