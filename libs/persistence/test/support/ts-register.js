'use strict';
// Lets a child `node` process load the library's TypeScript sources. Needed for PGlite, whose
// dynamic import() cannot run inside Jest's sandbox, so its tests run it in a separate process.
//
// The integration tier starts a few dozen of these children, each loading the same files: what
// TypeScript makes of a file is kept in the temp folder under a hash of its text (and of this file),
// and TypeScript itself is loaded only for a file not seen yet.
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const { version } = require('typescript/package.json');
const cacheDir = join(tmpdir(), `tollgate-ts-register-${version}`);
const salt = readFileSync(__filename);

function transpile(source, fileName) {
  const ts = require('typescript');
  return ts.transpileModule(source, {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    },
  }).outputText;
}

require.extensions['.ts'] = (module, filename) => {
  const source = readFileSync(filename, 'utf8');
  const key = createHash('sha256').update(salt).update(filename).update('\0').update(source).digest('hex');
  const cached = join(cacheDir, `${key}.js`);
  let output;
  try {
    output = readFileSync(cached, 'utf8');
  } catch {
    output = transpile(source, filename);
    mkdirSync(cacheDir, { recursive: true });
    // Whole or not at all: a child reading beside one writing sees the old file or none.
    const writing = `${cached}.${process.pid}`;
    writeFileSync(writing, output);
    renameSync(writing, cached);
  }
  module._compile(output, filename);
};
