#!/usr/bin/env node
// Runs libs/testing's fake YooKassa and crypto providers, with payment pages, for trying top-ups
// locally: `node scripts/fake-payments.mjs --platform http://127.0.0.1:3000` (`--help` lists the
// flags). Prints billing's environment for them (KEY=value lines) on stdout once ready; the
// notifications' fate goes to stderr.
import { runTestingCli } from './testing-cli.mjs';

await runTestingCli('fake-payments', 'fake-payments/fake-payments.cli.js', 'fakePaymentsMain');
