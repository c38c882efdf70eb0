import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { requireEnv } from '@tollgate/testing';
import type { CaseResults, SdkSettings } from './cases';

/** The Python SDK scripts beside this file. */
export type PythonSdkScript = 'openai_sdk.py' | 'anthropic_sdk.py' | 'google_genai_sdk.py';

/**
 * Runs one SDK script with the virtual environment's python (scripts/python-sdks.sh prints it; npm test
 * exports it as SDK_PYTHON) and returns the results it prints. The SDKs read their settings from the
 * environment too (OPENAI_BASE_URL, GOOGLE_GENAI_API_VERSION, …): the script gets none of the test
 * run's, so what it shows is the SDKs' own defaults.
 */
export function runPythonSdk(script: PythonSdkScript, settings: SdkSettings): Promise<CaseResults> {
  const { SDK_PYTHON: python } = requireEnv(
    ['SDK_PYTHON'],
    'the SDK conformance suite needs the Python SDKs: export SDK_PYTHON="$(bash scripts/python-sdks.sh | tail -n 1)" (npm test does)',
  );
  return new Promise((resolve, reject) => {
    const child = execFile(
      python,
      [join(__dirname, script)],
      {
        cwd: __dirname,
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          HOME: process.env['HOME'] ?? '/tmp',
          LANG: 'C.UTF-8',
          // No __pycache__ beside the scripts in the working tree.
          PYTHONDONTWRITEBYTECODE: '1',
        },
        timeout: 180_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`${script} failed (${error.message}):\n${stderr}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout) as CaseResults);
        } catch {
          reject(new Error(`${script} printed no JSON:\n${stdout}\n${stderr}`));
        }
      },
    );
    child.stdin?.end(JSON.stringify(settings));
  });
}
