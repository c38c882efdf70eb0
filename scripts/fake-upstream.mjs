#!/usr/bin/env node
// Runs the fake LLM upstream of libs/testing: `npm run fake-upstream -- --port 0 --latency-ms 20 …`
// (`--help` lists the flags). Prints `fake-upstream listening on http://HOST:PORT` on stdout once ready.
import { runTestingCli } from './testing-cli.mjs';

await runTestingCli('fake-upstream', 'fake-upstream/fake-upstream.cli.js', 'fakeUpstreamMain');
