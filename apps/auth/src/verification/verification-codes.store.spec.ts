import { MemoryKvStore } from '@tollgate/kv';
import { VerificationCodesStore } from './verification-codes.store';

const EMAIL = 'ada@example.com';

/** A six-digit code other than `code`. */
const wrong = (code: string, n: number) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, '0');

describe('VerificationCodesStore', () => {
  let store: VerificationCodesStore;

  beforeEach(() => {
    store = new VerificationCodesStore(new MemoryKvStore());
  });

  async function issue(): Promise<string> {
    const issued = await store.issue('reset', EMAIL);
    if (issued.kind !== 'issued') throw new Error('expected a code');
    return issued.code;
  }

  it('accepts the live code after fewer than five wrong guesses', async () => {
    const code = await issue();
    for (let n = 0; n < 4; n++) expect(await store.matches('reset', EMAIL, wrong(code, n))).toBe(false);
    expect(await store.matches('reset', EMAIL, code)).toBe(true);
  });

  it('throws the code away at the fifth wrong guess', async () => {
    const code = await issue();
    for (let n = 0; n < 5; n++) expect(await store.matches('reset', EMAIL, wrong(code, n))).toBe(false);
    expect(await store.matches('reset', EMAIL, code)).toBe(false);
  });

  it('gives guesses sent all at once no more than five comparisons between them', async () => {
    const code = await issue();
    const guesses = Array.from({ length: 40 }, (_, n) => wrong(code, n));
    guesses[20] = code;

    const answers = await Promise.all(guesses.map((guess) => store.matches('reset', EMAIL, guess)));

    expect(answers.filter(Boolean)).toEqual([]);
    expect(await store.matches('reset', EMAIL, code)).toBe(false);
  });

  it('refuses anything but six digits without counting it', async () => {
    const code = await issue();
    for (const guess of ['', '12345', '1234567', `${code} `, 'abcdef']) {
      expect(await store.matches('reset', EMAIL, guess)).toBe(false);
    }
    expect(await store.matches('reset', EMAIL, code)).toBe(true);
  });
});
