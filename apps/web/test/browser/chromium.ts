import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { REPO_ROOT } from './embedded-platform';

/** The probe flags for Debian's chromium. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** CHROMIUM_PATH when set, else whatever scripts/chromium.sh finds (or installs). */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return execFileSync('bash', [join(REPO_ROOT, 'scripts', 'chromium.sh')], { encoding: 'utf8' }).trim();
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
}

export const IPHONE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
