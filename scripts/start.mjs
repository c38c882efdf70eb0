#!/usr/bin/env node
// `npm start`: build what is out of date, then run the whole platform in one process (embedded mode).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
await import(join(root, 'tools', 'launcher', 'dist', 'main-embedded.js'));
